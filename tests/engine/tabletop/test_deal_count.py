"""Table Top Cribbage: counting the full layout, both sides at once, and the end of the game."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove
from games.engine.tabletop import TABLETOP, position
from games.engine.tabletop.count import count_lines

from .helpers import LAYOUT, LAYOUT_COLUMNS, LAYOUT_ROWS, layout_missing_last

ROWS, COLUMNS = sum(LAYOUT_ROWS), sum(LAYOUT_COLUMNS)  # 58 and 21


def _finish(scores, target=121, players=2):
    """Place the last card (QD, bottom right) of the worked layout."""
    stacks = ["QD", ""] if players == 2 else ["QD", "", "", ""]
    state = position(
        "tabletop", layout_missing_last(), stacks, dealer=players - 1, scores=scores, target=target
    )
    return TABLETOP.apply(state, 0, {"type": "place", "row": 4, "col": 4})


def test_a_crafted_full_layout_scores_each_row_and_column_as_counted_by_hand():
    from games.engine.pieces.cards import parse_cards

    lines = count_lines(parse_cards(LAYOUT), 5)
    assert [line.points for line in lines if line.kind == "row"] == LAYOUT_ROWS
    assert [line.points for line in lines if line.kind == "column"] == LAYOUT_COLUMNS
    club_row = next(line for line in lines if line.kind == "row" and line.number == 1)
    assert "flush of 5" in club_row.breakdown


def test_seat_0_scores_the_columns_and_seat_1_the_rows_both_at_once():
    state, events = _finish((10, 20))
    assert state.scores == (10 + COLUMNS, 20 + ROWS)
    assert state.phase == "counted"
    lines = [e for e in events if e["kind"] == "lines"]
    assert [(e["side"], e["lines"], e["points"]) for e in lines] == [
        (0, "columns", COLUMNS),
        (1, "rows", ROWS),
    ]
    assert state.last.hand_points == (COLUMNS, ROWS)
    view = TABLETOP.view(state, 0)
    assert [line["points"] for line in view["last"]["lines"][:5]] == LAYOUT_COLUMNS
    assert view["sides"][0]["lines"] == "columns" and view["sides"][1]["lines"] == "rows"


def test_in_the_four_player_game_partners_score_together():
    state, _ = _finish((0, 0), players=4)
    assert state.scores == (COLUMNS, ROWS)
    assert TABLETOP.teams(4) == [(0, 2), (1, 3)]


def test_a_side_past_the_target_and_ahead_wins():
    state, events = _finish((110, 40))
    assert state.phase == "over"
    result = TABLETOP.outcome(state)
    assert result.winners == (0,)
    assert [side.score for side in result.sides] == [110 + COLUMNS, 40 + ROWS]
    assert result.sides[1].skunk == 0  # 98 is past the skunk line of 90
    assert events[-1]["kind"] == "game_over"


def test_when_both_pass_the_target_the_higher_score_wins():
    state, _ = _finish((100, 70))  # 121 to 128
    assert TABLETOP.outcome(state).winners == (1,)


def test_level_at_or_past_the_target_plays_another_deal():
    state, _ = _finish((121 - COLUMNS, 121 - ROWS))
    assert state.scores == (121, 121)
    assert state.phase == "counted" and TABLETOP.outcome(state) is None
    for seat in (0, 1):
        state, events = TABLETOP.apply(state, seat, {"type": "continue"})
    assert state.phase == "place" and state.deal == 2
    assert events[0]["kind"] == "deal"


def test_a_loser_on_90_or_less_is_skunked_and_the_line_scales_with_the_target():
    state, _ = _finish((110, 30))  # 131 to 88
    result = TABLETOP.outcome(state)
    assert result.sides[1].skunk == 1 and "skunk" in result.reason
    state, _ = _finish((0, 70))  # 21 to 128: double skunk
    assert TABLETOP.outcome(state).sides[0].skunk == 2
    state, _ = _finish((40, 0), target=61)  # 61 to 58: no skunk
    assert TABLETOP.outcome(state).winners == (0,)
    assert TABLETOP.outcome(state).sides[1].skunk == 0
    state, _ = _finish((0, 10), target=61)  # 21 to 68: in a game to 61 the line is 30
    result = TABLETOP.outcome(state)
    assert result.winners == (1,) and result.sides[0].skunk == 1


def test_the_next_deal_waits_for_everyone_and_the_deal_passes_clockwise():
    state, _ = _finish((0, 0))
    assert TABLETOP.to_move(state) == {0, 1}
    state, _ = TABLETOP.apply(state, 0, {"type": "continue"})
    with pytest.raises(IllegalMove, match="already"):
        TABLETOP.apply(state, 0, {"type": "continue"})
    assert TABLETOP.legal_moves(state, 0) == []
    state, _ = TABLETOP.apply(state, 1, {"type": "continue"})
    assert state.dealer == 0 and state.turn == 1 and state.deal == 2
    assert len(state.filled()) == 1


def test_the_tournament_scores_a_race_past_the_target_with_skunks():
    scoring = TABLETOP.tournament
    assert (scoring.kind, scoring.stops_at_target, scoring.skunks) == ("race", False, True)
    assert scoring.check_scores([131, 98], {"target": 121}) == [131, 98]
    with pytest.raises(ValueError):
        scoring.check_scores([125, 125], {"target": 121})
