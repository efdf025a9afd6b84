"""Table Top Cribbage for four: partnership turns and a partner's suggested square."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, computer_move
from games.engine.tabletop import TABLETOP


def _state():
    state = TABLETOP.new_state(4, {}, b"partners")
    return state, state.turn, (state.turn + 2) % 4


def test_the_partner_of_the_player_to_move_may_suggest_a_square_once_a_turn():
    state, mover, partner = _state()
    assert TABLETOP.to_move(state) == {mover, partner}
    advice = TABLETOP.legal_moves(state, partner)
    assert {m["type"] for m in advice} == {"advise"}
    assert [(m["row"], m["col"]) for m in advice] == [
        (m["row"], m["col"]) for m in TABLETOP.legal_moves(state, mover)
    ]
    after, events = TABLETOP.apply(state, partner, advice[3])
    assert events == []  # private to the partnership: no public event
    assert after.turn == mover and TABLETOP.to_move(after) == {mover}
    assert TABLETOP.legal_moves(after, partner) == []
    with pytest.raises(IllegalMove, match="already suggested"):
        TABLETOP.apply(after, partner, advice[0])


def test_only_the_partnership_sees_the_suggestion_and_the_player_to_move_decides():
    state, mover, partner = _state()
    move = TABLETOP.legal_moves(state, partner)[0]
    state, _ = TABLETOP.apply(state, partner, move)
    for seat in (mover, partner):
        shown = TABLETOP.view(state, seat)["advice"]
        assert (shown["row"], shown["col"], shown["by"]) == (move["row"], move["col"], partner)
    for seat in ((mover + 1) % 4, (mover + 3) % 4, None):
        assert TABLETOP.view(state, seat)["advice"] is None
    other = TABLETOP.legal_moves(state, mover)[-1]
    assert (other["row"], other["col"]) != (move["row"], move["col"])
    state, _ = TABLETOP.apply(state, mover, other)  # the player may ignore the suggestion
    assert state.advice is None and state.advised == ()
    assert state.turn == (mover + 1) % 4


def test_opponents_and_the_player_to_move_cannot_suggest():
    state, mover, _ = _state()
    square = TABLETOP.legal_moves(state, mover)[0]
    for seat in (mover, (mover + 1) % 4):
        with pytest.raises(IllegalMove, match="partner"):
            TABLETOP.apply(state, seat, {**square, "type": "advise"})


def test_a_suggestion_must_be_a_square_the_card_may_go_on():
    state, _, partner = _state()
    with pytest.raises(IllegalMove, match="touch"):
        TABLETOP.apply(state, partner, {"type": "advise", "row": 0, "col": 0})


def test_two_players_have_no_partner_to_advise():
    state = TABLETOP.new_state(2, {}, b"two")
    assert TABLETOP.to_move(state) == {state.turn}
    with pytest.raises(IllegalMove, match="partner"):
        TABLETOP.apply(state, 1 - state.turn, {"type": "advise", "row": 1, "col": 1})


def test_the_computer_partner_suggests_a_square_from_its_own_view():
    state, mover, partner = _state()
    for level in ("easy", "strong"):
        move = computer_move(TABLETOP, state, partner, level)
        assert move in TABLETOP.legal_moves(state, partner)
