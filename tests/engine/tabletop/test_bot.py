"""The computer for Table Top Cribbage: its levels and how each one chooses."""

from __future__ import annotations

import random

import pytest

from games.engine import computer_move, get_variant
from games.engine.core.computer import levels
from games.engine.tabletop import TABLETOP, position
from games.engine.tabletop.bot import Expectation, choose


def _board(marks: dict[tuple[int, int], str]) -> str:
    return " ".join(marks.get((r, c), ".") for r in range(5) for c in range(5))


def test_both_games_offer_easy_and_strong_weakest_first():
    for key in ("tabletop", "crosscrib"):
        assert levels(get_variant(key)) == ("random", "easy", "strong")


def test_easy_takes_the_best_immediate_change_for_its_own_lines():
    # Seat 1 scores the rows. A 5 beside the K in row 1 makes fifteen there (2 for us),
    # and nothing in its column; elsewhere it would make nothing or help the columns.
    board = _board({(2, 2): "2C", (1, 1): "KD", (3, 3): "TH"})
    state = position("tabletop", board, ["", "5S 9C"], dealer=0, turn=1)
    view = TABLETOP.view(state, 1)
    move = choose(view, "easy", random.Random(0))
    assert (move["row"], move["col"]) in {(1, 0), (1, 2)}


def test_easy_also_keeps_the_other_sides_lines_down():
    # Seat 0 scores the columns; a 5 in row 2 next to the ten gives the rows a fifteen: easy
    # prefers a square where the columns gain it.
    board = _board({(2, 2): "TC", (1, 3): "KD"})
    state = position("tabletop", board, ["5S", "9C"], dealer=1, turn=0)
    move = choose(TABLETOP.view(state, 0), "easy", random.Random(0))
    assert move["col"] in (2, 3) and move["row"] != 2 and (move["row"], move["col"]) != (1, 2)


def test_strong_values_a_line_by_what_the_unseen_cards_can_still_make():
    from games.engine.pieces.cards import FULL_DECK, parse_cards

    tens = parse_cards("TC JD")
    unseen = [c for c in FULL_DECK if c not in tens]
    worth = Expectation(unseen, 5).line
    without_fives = Expectation([c for c in unseen if c.rank != 5], 5).line
    assert without_fives(tens) < worth(tens) - 0.5  # every five seen: less for the pictures
    seven_eight = parse_cards("7C 8D")
    assert worth(seven_eight) > 2  # the fifteen it has, and more to come
    full = parse_cards("6H 7C 7S 8D 8H")
    assert worth(full) == 24  # a full line is worth its count


@pytest.mark.parametrize(("key", "players"), [("tabletop", 2), ("tabletop", 4), ("crosscrib", 2)])
@pytest.mark.parametrize("level", ["easy", "strong"])
def test_the_computer_plays_a_whole_deal_with_legal_moves(key, players, level):
    game = get_variant(key)
    state = game.new_state(players, {}, f"bot {level}".encode())
    rng = random.Random(1)
    while state.phase == "place":
        seat = state.turn
        move = computer_move(game, state, seat, level, rng)
        assert move in game.legal_moves(state, seat)
        state, _ = game.apply(state, seat, move)
    assert state.phase in ("counted", "over")
