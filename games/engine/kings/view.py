"""What one seat (or a spectator) of a Kings Cribbage game may see, and what it must not.

Every tile a view shows is named by its identity (`7La`: face and copy), so the shared test
can check that no identity from `hidden_tiles` (the other racks and the bag) ever appears. The
tiles a seat cannot see are given only as a tally by face (`unseen`): what any player can work
out from the board and their own rack, never which rack holds what, nor the bag's order.

What every viewer sees alike (the board, the log, the faces off the board) is worked out once a
state (`_public`): a move's page is drawn for every seat and a spectator from the same state,
and thawing the log and writing out the board took most of each view. Views are read, never
changed, by whoever gets them: each has its own lists, which hold the same cells and events.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from ..core.kept import by_identity
from ..core.outcome import Outcome
from ..core.variant import Move, seat_list
from ..pieces.cards import RANKS
from ..pieces.tiles import FULL_BAG
from .board import HOLES, SIZE
from .state import State


def build_view(
    state: State,
    seat: int | None,
    to_move: frozenset[int],
    legal: list[Move],
    result: Outcome | None,
) -> dict[str, Any]:
    """The view as a JSON-ready dict; texts name seats as {p0}, {p1}...

    Keys: variant, players, seat, options, phase, board (13 rows of 13 cells: None, "#" for the
    missing corner, or {"id", "face"}), rack (the seat's own tiles), rack_sizes, bag (how
    many tiles are left in it), scores, sides (each seat alone), turn, starter, to_move,
    first_lay, closing (a rack is empty; only the Joker call is left), last (the last move:
    seat, kind, squares), declaration (joker: the count open to a call), unseen (a tally of
    the tiles the seat cannot see), racks and penalties (once the game is over), events,
    prompt, legal_moves, outcome.
    """
    over = state.over is not None
    last = state.last
    pending = state.pending
    public = _public(state)
    return {
        "variant": "kings",
        "players": state.players,
        "seat": seat,
        "options": {
            "centre_start": state.centre_start,
            "reduced_first_bonus": state.reduced_first_bonus,
            "joker": state.joker,
        },
        "phase": state.phase,
        "board": [list(row) for row in public.board],
        "rack": None if seat is None else [_tile(t) for t in state.racks[seat]],
        "rack_sizes": [len(rack) for rack in state.racks],
        "bag": len(state.bag),
        "scores": list(state.scores),
        "sides": [{"seats": [s], "score": score} for s, score in enumerate(state.scores)],
        "turn": None if over else state.turn,
        "starter": state.starter,
        "to_move": sorted(to_move),
        "first_lay": state.first_lay,
        "closing": state.closing,
        "last": None
        if last is None
        else {
            "seat": last.seat,
            "kind": last.kind,
            "squares": [list(square) for square in last.squares],
            "count": last.count,
        },
        "declaration": None
        if pending is None
        else {"scorer": pending.scorer, "declared": pending.declared},
        "unseen": [] if over else _unseen(public.off_board, state, seat),
        "racks": [[_tile(t) for t in rack] for rack in state.racks] if over else None,
        "penalties": list(state.penalties) if over else None,
        "events": list(public.events),
        "prompt": prompt(state, seat, to_move),
        "legal_moves": legal,
        "outcome": None if result is None else result.to_json(),
    }


def hidden_tiles(state: State, seat: int | None) -> set[str]:
    """Identities `seat` must not see: the bag, and every other rack until the game is over."""
    secret = {str(tile) for tile in state.bag}
    if state.over is None:
        for other, rack in enumerate(state.racks):
            if other != seat:
                secret.update(str(tile) for tile in rack)
    return secret


def unseen(state: State, seat: int | None) -> list[dict[str, Any]]:
    """The faces not on the board nor on the seat's rack, with how many of each: what is in
    the other racks and the bag together (printed faces: a 6 and a 9 stay apart)."""
    return _unseen(_off_board(state), state, seat)


def _unseen(off_board: Counter[str], state: State, seat: int | None) -> list[dict[str, Any]]:
    """unseen(state, seat), given the faces off the board (_off_board)."""
    left = off_board
    if seat is not None:
        left = off_board - Counter(tile.face for tile in state.racks[seat])
    return [
        {"rank": face[0], "suit": face[1], "count": left[face]}
        for face in sorted(left, key=_face_order)
    ]


def _face_order(face: str) -> tuple[int, int]:
    return ("LD".index(face[1]), RANKS.index(face[0]))


def _off_board(state: State) -> Counter[str]:
    """How many tiles of each face are not on the board (in the racks and the bag)."""
    return _FULL_FACES - Counter(laid.tile.face for laid in state.board if laid is not None)


_FULL_FACES = Counter(tile.face for tile in FULL_BAG)


def prompt(state: State, seat: int | None, to_move: frozenset[int]) -> str:
    """One line telling `seat` what to do now, or whom the table is waiting for."""
    if state.over is not None:
        return "The game is over"
    if seat is not None and seat in to_move and seat != state.turn:
        return "Call Joker if the last lay was under-counted, or let the count stand"
    if state.closing:
        waiting = seat_list(sorted(to_move))
        return (
            f"A rack is empty: the game ends once the Joker call is settled (waiting for {waiting})"
        )
    if seat == state.turn:
        if state.first_lay:
            where = " over the centre square" if state.centre_start else ""
            return f"Your turn: lay the first hand, two tiles or more{where}"
        exchange = ", exchange" if state.bag else ""
        return f"Your turn: lay tiles next to those on the board{exchange} or pass"
    return f"Waiting for {seat_list([state.turn])} to play"


def _tile(tile: Any) -> dict[str, Any]:
    return {"id": str(tile), "face": tile.face, "flips": tile.flips, "value": tile.value}


class Public(NamedTuple):
    """What every view of one state shows alike."""

    board: tuple[tuple[Any, ...], ...]  # the view's rows of cells
    events: tuple[dict[str, Any], ...]  # the log, thawed
    off_board: Counter[str]  # faces not on the board (_off_board)


@by_identity
def _public(state: State) -> Public:
    """The public part of `state`'s views, worked out once a state."""
    return Public(
        tuple(tuple(row) for row in _board(state)), tuple(state.events()), _off_board(state)
    )


def _board(state: State) -> list[list[Any]]:
    rows = []
    for r in range(SIZE):
        row: list[Any] = []
        for c in range(SIZE):
            laid = state.board[r * SIZE + c]
            if (r, c) in HOLES:
                row.append("#")
            elif laid is None:
                row.append(None)
            else:
                row.append({"id": str(laid.tile), "face": laid.face})
        rows.append(row)
    return rows
