"""The computer players: every level plays legal moves from its own view, and counts honestly."""

from __future__ import annotations

import random

import pytest

from games.engine import computer_move
from games.engine.core.computer import levels
from games.engine.cribist import CRIBIST, position
from games.engine.cribist.bot import partial_points
from games.engine.pieces.cards import FULL_DECK
from games.engine.scoring.trick import score_trick

from .helpers import run


def test_the_levels_weakest_first():
    assert levels(CRIBIST) == ("random", "easy", "strong")


@pytest.mark.parametrize("level", ["easy", "strong"])
@pytest.mark.parametrize("muggins", [False, True])
def test_a_whole_match_of_computer_players(level, muggins):
    state = CRIBIST.new_state(4, {"deals": 2, "muggins": muggins}, f"{level}{muggins}".encode())
    rng = random.Random(7)
    while CRIBIST.to_move(state):
        seat = min(CRIBIST.to_move(state))
        chosen = computer_move(CRIBIST, state, seat, level, rng)
        assert chosen in CRIBIST.legal_moves(state, seat) or chosen["type"] == "muggins"
        state, _ = CRIBIST.apply(state, seat, chosen)
    assert CRIBIST.outcome(state) is not None


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_the_computer_declares_the_true_worth(level):
    state = position(["4H 2C", "5C 3C", "5S 4C", "6D 9C"], dealer=3, trump="H", muggins=True)
    state, _ = run(state, (0, "4H"), (1, "5C"), (2, "5S"), (3, "6D"))
    assert computer_move(CRIBIST, state, 0, level) == {"type": "declare", "points": 12}


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_the_computer_calls_missed_points_rightly(level):
    state = position(["4H 2C", "5C 3C", "5S 4C", "6D 9C"], dealer=3, trump="H", muggins=True)
    state, _ = run(state, (0, "4H"), (1, "5C"), (2, "5S"), (3, "6D"), (0, "declare 7"))
    call = computer_move(CRIBIST, state, 1, level)
    assert call["type"] == "muggins" and call["points"] == 5
    after, _ = CRIBIST.apply(state, 1, call)
    assert after.tricks[-1].calls[0].correct and after.scores[1] == 5


def test_easy_takes_a_trick_worth_points_cheaply_and_throws_low_otherwise():
    # 7C 8C led and followed: the 15 is worth 2; seat 2 takes it with its cheapest winner
    state = position(["7C 2D", "8C 3D", "9C KC", "2S 5D"], dealer=3, trump="H")
    state, _ = run(state, (0, "7C"), (1, "8C"))
    assert computer_move(CRIBIST, state, 2, "easy") == {"type": "play", "card": "9C"}
    state = position(["7C 2D", "AC 3D", "9C KC", "2S 5D"], dealer=3, trump="H")
    state, _ = run(state, (0, "7C"), (1, "AC"))  # worth nothing so far: throw low, keep the K
    assert computer_move(CRIBIST, state, 2, "easy") == {"type": "play", "card": "9C"}


def test_strong_last_to_play_takes_a_rich_trick():
    state = position(["4D 2S", "5D 3S", "6D 4S", "7D AD"], dealer=3, trump="C")
    state, _ = run(state, (0, "4D"), (1, "5D"), (2, "6D"))
    # 4-5-6 with 7D makes a run of four and a flush (8) and 4+5+6 = 15 (2): take it
    assert computer_move(CRIBIST, state, 3, "strong") == {"type": "play", "card": "7D"}


def test_strong_decides_from_its_view_only():
    """Two deals that differ only in cards the seat cannot see get the same move."""
    one = position(["4D 2S 9H", "5D 3S KC", "6D 4S QH", "7D AD 8C"], dealer=3, trump="C")
    two = position(["4D 2S 9H", "5D 3S QH", "6D 4S KC", "7D AD 8C"], dealer=3, trump="C")
    assert CRIBIST.view(one, 0) == CRIBIST.view(two, 0)
    for seed in range(5):
        a = computer_move(CRIBIST, one, 0, "strong", random.Random(seed))
        assert computer_move(CRIBIST, two, 0, "strong", random.Random(seed)) == a


def test_the_computers_quick_count_agrees_with_the_full_count():
    rng = random.Random(11)
    deck = list(FULL_DECK)
    for _ in range(2000):
        cards = rng.sample(deck, 4)
        trump = rng.choice("CDHS")
        assert partial_points(cards, trump) == score_trick(cards, trump).total
