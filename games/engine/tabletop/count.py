"""Table Top Cribbage: counting a full layout, the scoreboard after a deal, and the result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.outcome import GameResult, Outcome, SideResult, TournamentScoring, places
from ..core.variant import seat_list
from ..pieces.cards import Card
from ..scoring.combinations import ShowScore, score_show
from ..scoring.line import line_points, score_line
from .state import COLUMN, GRID, LINE_KINDS, SIZE, Line, State


def count_lines(board: Sequence[Card | None], flush_min: int) -> tuple[Line, ...]:
    """Every line of a layout, columns (side 0) left to right then rows (side 1) top to bottom,
    each counted as a hand of its cards (a full layout has five in each)."""
    lines = []
    for side, kind in enumerate(LINE_KINDS):
        for number in range(SIZE):
            squares = GRID.column(number) if kind == COLUMN else GRID.row(number)
            cards = tuple(
                card for card in (board[r * SIZE + c] for r, c in squares) if card is not None
            )
            show = score_line(cards, flush_min)
            lines.append(Line(kind, number, side, cards, show.total, show.text()))
    return tuple(lines)


def running_totals(board: Sequence[Card | None], flush_min: int) -> dict[str, list[int]]:
    """What each row and column would score with the cards down now (top to bottom, left to
    right), for the totals beside the board while it fills."""
    rows = [[board[r * SIZE + c] for c in range(SIZE)] for r in range(SIZE)]
    columns = [[board[r * SIZE + c] for r in range(SIZE)] for c in range(SIZE)]
    return {
        "rows": [line_points([c for c in line if c is not None], flush_min) for line in rows],
        "columns": [line_points([c for c in line if c is not None], flush_min) for line in columns],
    }


def crib_show(crib: Sequence[Card], centre: Card) -> ShowScore:
    """The crib with the centre card as its starter, as a classic crib (five-card flush only,
    nobs counts)."""
    return score_show(crib, centre, crib=True)


def count_crib(crib: Sequence[Card], centre: Card) -> tuple[int, str]:
    """The crib's total and its count in words."""
    show = crib_show(crib, centre)
    return show.total, show.text()


def hand_points(lines: Sequence[Line], sides: int) -> list[int]:
    """Each side's total over the lines it scores."""
    totals = [0] * sides
    for line in lines:
        totals[line.side] += line.points
    return totals


def winning_side(scores: Sequence[int], target: int) -> int | None:
    """The side that has won: a side has reached the target and is ahead of the other. Level
    scores at or past the target play another deal (None)."""
    high = max(scores)
    if high < target or list(scores).count(high) > 1:
        return None
    return list(scores).index(high)


def outcome(
    state: State, tournament: TournamentScoring, score_name: str, final: bool
) -> Outcome | None:
    """The result once the match is over (`final`), else None."""
    if not final:
        return None
    win = winning_side(state.scores, state.target)
    assert win is not None
    options = {"target": state.target}
    place = places(list(state.scores))
    sides = tuple(
        SideResult(
            seats=seats,
            score=state.scores[side],
            skunk=0 if side == win else tournament.skunk(options, state.scores[side]),
            games_won=int(side == win),
            place=place[side],
            terms={score_name: state.scores[side], "deals": state.deal},
        )
        for side, seats in enumerate(state.sides)
    )
    winners = state.sides[win]
    loser = sides[1 - win]
    verb = "wins" if len(winners) == 1 else "win"
    reason = f"{seat_list(winners)} {verb} {state.scores[win]} to {loser.score}"
    if score_name != "points":
        reason += f" {score_name.replace('_', ' ')}"
    if loser.skunk:
        reason += " (skunk)" if loser.skunk == 1 else " (double skunk)"
    game = GameResult(number=1, winners=winners, sides=sides)
    return Outcome(winners=winners, sides=sides, reason=reason, games=(game,))


def outcome_params(result: Outcome, score_name: str) -> dict[str, Any]:
    """The result's reason as data, for a page in another language: the winning seats, the
    winner's and the loser's score, what the scores count (`score_name`: "points" or
    "game_points") and the loser's skunk (0, 1 single, 2 double)."""
    winner = next(side for side in result.sides if side.seats == result.winners)
    loser = next(side for side in result.sides if side.seats != result.winners)
    return {
        "winners": list(result.winners),
        "score": winner.score,
        "loser_score": loser.score,
        "unit": score_name,
        "skunk": loser.skunk,
    }
