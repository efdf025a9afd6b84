"""Table Top Cribbage: the deal, whose turn it is, and where a turned card may go."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, get_variant
from games.engine.pieces.cards import FULL_DECK
from games.engine.tabletop import TABLETOP, position

EMPTY_BUT_CENTRE = " ".join(["."] * 12 + ["8C"] + ["."] * 12)


def _squares(state) -> set[tuple[int, int]]:
    return {(m["row"], m["col"]) for m in TABLETOP.legal_moves(state, state.turn)}


def _board(marks: dict[tuple[int, int], str]) -> str:
    return " ".join(marks.get((r, c), ".") for r in range(5) for c in range(5))


@pytest.mark.parametrize(("players", "each"), [(2, 12), (4, 6)])
def test_the_deal_gives_stacks_turns_a_centre_card_and_leaves_27_out_of_play(players, each):
    state = TABLETOP.new_state(players, {}, b"deal")
    assert [len(stack) for stack in state.stacks] == [each] * players
    assert state.at((2, 2)) is not None and len(state.filled()) == 1
    assert len(state.out) == 27
    cards = [c for s in state.stacks for c in s] + list(state.out) + [state.at((2, 2))]
    assert sorted(cards) == sorted(FULL_DECK)


def test_the_player_left_of_the_dealer_starts_and_turns_go_clockwise():
    state = TABLETOP.new_state(4, {}, b"clockwise")
    turns = []
    for _ in range(8):
        turns.append(state.turn)
        state, _ = TABLETOP.apply(state, state.turn, TABLETOP.legal_moves(state, state.turn)[0])
    first = (state.dealer + 1) % 4
    assert turns == [(first + i) % 4 for i in range(8)]


def test_after_24_placements_the_layout_is_full_and_the_deal_is_counted():
    state = TABLETOP.new_state(2, {}, b"full")
    for _ in range(24):
        assert state.phase == "place"
        state, events = TABLETOP.apply(
            state, state.turn, TABLETOP.legal_moves(state, state.turn)[-1]
        )
    assert all(card is not None for card in state.board)
    assert state.phase in ("counted", "over")
    assert {e["kind"] for e in events} >= {"lines", "deal_over"}


def test_the_first_card_may_go_on_any_of_the_eight_squares_around_the_centre():
    state = position("tabletop", EMPTY_BUT_CENTRE, ["5H", "3D"])
    assert _squares(state) == {(r, c) for r in (1, 2, 3) for c in (1, 2, 3)} - {(2, 2)}


def test_the_rule_texts_example_after_three_moves():
    # East dealt; the 8 is in the centre; South played the 5, West the 3 and North the 7 (two
    # squares north of the centre). No card is next to the south row or the west column.
    board = _board({(2, 2): "8C", (1, 2): "5H", (1, 3): "3D", (0, 3): "7S"})
    state = position("tabletop", board, ["2C", "9D", "KH", "4S"], dealer=1, turn=1)
    assert _squares(state) == {
        (0, 1), (0, 2), (0, 4),
        (1, 1), (1, 4),
        (2, 1), (2, 3), (2, 4),
        (3, 1), (3, 2), (3, 3),
    }  # fmt: skip
    assert not any(r == 4 for r, _ in _squares(state))  # the south row
    assert not any(c == 0 for _, c in _squares(state))  # the west column
    with pytest.raises(IllegalMove, match="touch"):
        TABLETOP.apply(state, 1, {"type": "place", "row": 4, "col": 2})
    with pytest.raises(IllegalMove, match="two squares from the centre"):
        TABLETOP.apply(state, 1, {"type": "place", "row": -1, "col": 3})  # north of the 7


def test_a_corner_square_is_open_through_a_card_touching_it_corner_to_corner():
    board = _board({(2, 2): "8C", (1, 1): "5H"})
    state = position("tabletop", board, ["2C", "9D"], dealer=1)
    assert (0, 0) in _squares(state)
    assert (0, 3) not in _squares(state)
    after, _ = TABLETOP.apply(state, state.turn, {"type": "place", "row": 0, "col": 0})
    assert after.at((0, 0)).rank == 2


def test_an_edge_card_opens_the_edge_squares_beside_it_and_nothing_beyond_the_grid():
    board = _board({(2, 2): "8C", (1, 2): "5H", (0, 2): "6S"})
    state = position("tabletop", board, ["2C", "9D"])
    assert {(0, 1), (0, 3)} <= _squares(state)
    assert all(0 <= r < 5 and 0 <= c < 5 for r, c in _squares(state))
    with pytest.raises(IllegalMove, match="two squares from the centre"):
        TABLETOP.apply(state, state.turn, {"type": "place", "row": 0, "col": 5})


def test_a_card_cannot_go_on_a_taken_square_nor_out_of_turn():
    state = position("tabletop", EMPTY_BUT_CENTRE, ["5H", "3D"])
    with pytest.raises(IllegalMove, match="already holds a card"):
        TABLETOP.apply(state, state.turn, {"type": "place", "row": 2, "col": 2})
    with pytest.raises(IllegalMove, match="not your turn"):
        TABLETOP.apply(state, 1 - state.turn, {"type": "place", "row": 1, "col": 1})
    with pytest.raises(IllegalMove, match="whole numbers"):
        TABLETOP.apply(state, state.turn, {"type": "place", "row": "1", "col": 1})
    with pytest.raises(IllegalMove, match="no move"):
        TABLETOP.apply(state, state.turn, {"type": "crib"})


def test_the_turned_card_is_the_top_of_the_stack_and_it_is_placed_face_up():
    state = position("tabletop", EMPTY_BUT_CENTRE, ["5H 2C", "3D 4D"], dealer=1)
    assert str(state.turned) == "5H"
    state, events = TABLETOP.apply(state, 0, {"type": "place", "row": 1, "col": 2})
    assert str(state.at((1, 2))) == "5H"
    assert events[0]["kind"] == "place" and events[0]["card"] == "5H"
    assert (events[0]["row"], events[0]["col"]) == (1, 2)
    assert str(state.turned) == "3D" and state.turn == 1


def test_options_target_and_player_counts():
    game = get_variant("tabletop")
    assert game.clean_options(2, {}) == {"target": 121}
    assert game.clean_options(4, {"target": "61"}) == {"target": 61}
    with pytest.raises(ValueError, match="players"):
        game.clean_options(3, {})
    with pytest.raises(ValueError, match="target"):
        game.clean_options(2, {"target": 5})
    assert game.teams(4) == [(0, 2), (1, 3)]
