"""The levels of the Cribbage computer: strong by default, every move legal at every table
size, partners' cribs counted as their side's."""

from __future__ import annotations

import random

import pytest

from games.engine import computer_move
from games.engine.core.computer import default_level, levels
from games.engine.cribbage import CRIBBAGE


def test_the_levels_are_random_easy_and_strong_and_strong_is_the_default():
    assert CRIBBAGE.levels == ("easy", "strong")
    assert levels(CRIBBAGE) == ("random", "easy", "strong")
    assert default_level(CRIBBAGE) == "strong"


def four_handed(dealer: int):
    hands = [
        ["5S", "6S", "7H", "8D", "9C"],
        ["AC", "2D", "3H", "4S", "TC"],
        ["JC", "QD", "KH", "2S", "3C"],
        ["4D", "6C", "8H", "TS", "KD"],
    ]
    return CRIBBAGE.position(hands, None, dealer=dealer, phase="discard")


@pytest.mark.parametrize(("dealer", "thrown"), [(0, "5S"), (2, "5S"), (1, "9C"), (3, "9C")])
def test_a_partners_crib_is_the_sides_own(dealer, thrown):
    # 5 6 7 8 9: the five goes to its own side's crib (a partner's too), the nine otherwise.
    move = computer_move(CRIBBAGE, four_handed(dealer), 0, "strong", random.Random(0))
    assert move == {"type": "discard", "cards": [thrown]}


def test_the_default_level_discards_by_exact_value():
    state = CRIBBAGE.position(
        [["AS", "2D", "3C", "5H", "TD", "KS"], ["4C", "6D", "7H", "8S", "9D", "QC"]],
        None,
        dealer=1,
        phase="discard",
    )
    assert set(computer_move(CRIBBAGE, state, 0, rng=random.Random(0))["cards"]) == {"TD", "KS"}
    assert set(computer_move(CRIBBAGE, state, 1, rng=random.Random(0))["cards"]) == {"4C", "QC"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_strong_plays_whole_games_legally(players):
    state = CRIBBAGE.new_state(players, {"target": 61}, f"strong-{players}".encode())
    rng = random.Random(players)
    moves = 0
    while CRIBBAGE.outcome(state) is None and moves < 2000:
        seat = min(CRIBBAGE.to_move(state))
        move = computer_move(CRIBBAGE, state, seat, "strong", rng)
        assert move in CRIBBAGE.legal_moves(state, seat)
        state, _ = CRIBBAGE.apply(state, seat, move)
        moves += 1
    assert CRIBBAGE.outcome(state) is not None


def test_strong_counts_its_own_hand_right_under_muggins():
    state = CRIBBAGE.new_state(2, {"target": 61, "muggins": True}, b"strong-muggins")
    rng = random.Random(3)
    for _ in range(400):
        if CRIBBAGE.outcome(state) is not None:
            break
        seat = min(CRIBBAGE.to_move(state))
        move = computer_move(CRIBBAGE, state, seat, "strong", rng)
        assert move["type"] != "muggins", "a correct count leaves nothing to claim"
        state, _ = CRIBBAGE.apply(state, seat, move)
