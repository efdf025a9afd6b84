"""What one seat (or a spectator) of a Table Top Cribbage or CrossCrib match may see.

A table draws every seat's view and a spectator's of one state at every move: what they all see
alike and takes work (each line's running total, the open squares, the last deal's counts) is
worked out once a state (`_shared`), and every view gets lists of its own built from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..core.kept import by_identity
from ..core.variant import Move, Outcome, seat_list
from ..pieces.cards import Card
from ..scoring.line import score_line
from .count import crib_show, running_totals
from .state import CENTRE, COUNTED, LINE_KINDS, OVER, PLACE, SIZE, State, deal_score_json

if TYPE_CHECKING:  # pragma: no cover
    from .game import TableTop


def build_view(
    rules: TableTop,
    state: State,
    seat: int | None,
    to_move: frozenset[int],
    legal: list[Move],
    result: Outcome | None,
) -> dict[str, Any]:
    """The view as a JSON-ready dict; texts name seats as {p0}, {p1}... (see variant.describe).

    Keys: variant, players, seat, options, rules (flush_min, crib_each, must_touch), phase,
    deal, dealer, turn, to_move, sides (seats, score, lines: "columns" or "rows", running),
    seat_sides, board (5 rows of 5, a card or None), centre, turned (the card to place, when
    this seat may see it), turned_hidden (a card is turned that this seat may not see),
    stack_counts, open_squares, running (each row's and column's points so far), crib (counts
    per seat, how many each owes, this seat's own crib cards), advice (the partner's suggested
    square, for the partnership only), last (the count of the finished deal, with every line,
    once the layout is full; each line and the crib also as `calls`, the count as data:
    ShowScore.calls()), previous (the points of the deal before, during a deal), events,
    prompt, legal_moves, outcome. The stacks' face-down cards and the cards out of play never
    appear, nor the crib before the count.
    """
    placing = state.phase == PLACE
    turned = state.turned if placing else None
    sees = turned is not None and rules.sees_turned(state, seat)
    shared = _shared(rules, state)
    running = {kind: list(totals) for kind, totals in shared.running.items()}
    return {
        "variant": state.variant,
        "players": state.players,
        "seat": seat,
        "options": {"target": state.target},
        "rules": {
            "flush_min": rules.flush_min,
            "crib_each": rules.crib_each,
            "must_touch": rules.must_touch,
        },
        "phase": state.phase,
        "deal": state.deal,
        "dealer": state.dealer,
        "turn": state.turn,
        "to_move": sorted(to_move),
        "sides": [
            {
                "seats": list(seats),
                "score": state.scores[side],
                "lines": LINE_KINDS[side] + "s",
                "running": sum(running[LINE_KINDS[side] + "s"]),
            }
            for side, seats in enumerate(state.sides)
        ],
        "seat_sides": [state.side_of(s) for s in range(state.players)],
        "board": [list(row) for row in shared.board],
        "centre": list(CENTRE),
        "turned": str(turned) if sees else None,
        "turned_hidden": turned is not None and not sees,
        "stack_counts": [len(stack) for stack in state.stacks],
        "open_squares": [list(sq) for sq in shared.open_squares],
        "running": running,
        "crib": {
            "each": rules.crib_each,
            "counts": [len(crib) for crib in state.cribs],
            "owed": [rules.crib_owed(state, s) for s in range(state.players)],
            "mine": [str(c) for c in state.cribs[seat]] if placing and seat is not None else [],
        },
        "advice": _advice(rules, state, seat),
        "last": _last(state, shared) if not placing else None,
        "previous": _previous(state) if placing else None,
        "events": state.events(),
        "prompt": prompt(rules, state, seat, to_move, legal),
        "legal_moves": legal,
        "outcome": None if result is None else result.to_json(),
    }


def prompt(
    rules: TableTop, state: State, seat: int | None, to_move: frozenset[int], legal: list[Move]
) -> str:
    """One line telling `seat` what to do now, or whom the table is waiting for."""
    if state.phase == PLACE:
        turn = state.turn
        if seat != turn:
            if seat is not None and seat in to_move:
                return f"Suggest a square to {{p{turn}}}, your partner (only your side sees it)"
            return f"Waiting for {{p{turn}}} to play"
        assert seat is not None
        owed = rules.crib_owed(state, seat)
        if legal == [{"type": "crib"}]:
            return f"This card must go to the crib: you owe {owed} and have {owed} turns left"
        ask = "Place your card on a highlighted square"
        if owed:
            ask += f", or put it in the crib ({owed} more to go)"
        return ask
    if state.phase == COUNTED:
        if seat is not None and seat in to_move:
            return "The deal is counted: continue when you are ready for the next deal"
        return f"Waiting for {seat_list(sorted(to_move))} to be ready for the next deal"
    result = rules.outcome(state) if state.phase == OVER else None
    return "" if result is None else f"The match is over: {result.reason}"


def _last(state: State, shared: Shared) -> dict[str, Any] | None:
    """The count of the finished deal, each line with its `calls` and the crib's `crib_calls`."""
    if state.last is None:
        return None
    last = deal_score_json(state.last)
    for line, calls in zip(last["lines"], shared.line_calls, strict=True):
        line["calls"] = [dict(call) for call in calls]
    last["crib_calls"] = [dict(call) for call in shared.crib_calls]
    return last


class Shared(NamedTuple):
    """What every view of one state shows alike and takes work to find: the layout's cards by
    row, each line's running total, the open squares, and the calls of the last deal's count
    (each line's, and the crib's). Read only: views copy what they hold."""

    board: tuple[tuple[str | None, ...], ...]
    running: dict[str, list[int]]
    open_squares: list[tuple[int, int]]
    line_calls: tuple[list[dict[str, Any]], ...]
    crib_calls: list[dict[str, Any]]


@by_identity
def _shared(rules: TableTop, state: State) -> Shared:
    """The parts every view of `state` shows alike, worked out once a state (a table's viewers
    of one move read the same state object)."""
    placing = state.phase == PLACE
    line_calls, crib_calls = _count_calls(rules, state) if not placing else ((), [])
    return Shared(
        board=tuple(
            tuple(_text(card) for card in state.board[r * SIZE : (r + 1) * SIZE])
            for r in range(SIZE)
        ),
        running=running_totals(state.board, rules.flush_min),
        open_squares=rules.open_squares(state) if placing else [],
        line_calls=line_calls,
        crib_calls=crib_calls,
    )


def _count_calls(
    rules: TableTop, state: State
) -> tuple[tuple[list[dict[str, Any]], ...], list[dict[str, Any]]]:
    """The calls of the last deal's count: each line's, and the crib's (with the centre card
    as its starter)."""
    if state.last is None:
        return (), []
    centre, crib = state.at(CENTRE), state.last.crib
    return (
        tuple(score_line(line.cards, rules.flush_min).calls() for line in state.last.lines),
        crib_show(crib, centre).calls() if crib and centre is not None else [],
    )


def _text(card: Card | None) -> str | None:
    return None if card is None else str(card)


def _advice(rules: TableTop, state: State, seat: int | None) -> dict[str, Any] | None:
    """The partner's suggestion, for the two seats of the partnership to move only."""
    if state.advice is None or seat is None or state.turn is None:
        return None
    if state.side_of(seat) != state.side_of(state.turn):
        return None
    return {"row": state.advice[0], "col": state.advice[1], "by": rules.partner(state)}


def _previous(state: State) -> dict[str, Any] | None:
    """The points of the last deal, without its cards (they are back in play now)."""
    if state.last is None:
        return None
    return {
        "deal": state.last.deal,
        "hand_points": list(state.last.hand_points),
        "gained": list(state.last.gained),
    }
