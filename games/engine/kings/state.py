"""The state of a Kings Cribbage game: an immutable value and its exact JSON form.

The log's events are frozen into tuples in a state and thawed back into dicts for its views. A
state is loaded from its JSON at every move and its views drawn for every viewer, and the log
(60 events) took most of both: an event met before is frozen and thawed once, not again at every
move (`_frozen_event`, `_thawed_event`). Thawed events are shared by the views that show them
and the JSON written of the state, which read them and never change them.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..core.events import Event, FrozenEvent, event_key, freeze_event, thaw_event
from ..core.kept import by_identity
from ..core.muggins import Declaration
from ..pieces.tiles import FULL_BAG, Laid, Tile, parse_tile
from .board import EMPTY_BOARD, SIZE, Board, index

PLAY = "play"
OVER = "over"
OUT = "out"  # a player laid every tile with the bag empty
PASSES = "passes"  # every player passed in succession
LOG_LENGTH = 60


class LastMove(NamedTuple):
    """The move before this position, for the page to highlight: who, what and where."""

    seat: int
    kind: str  # lay, exchange or pass
    squares: tuple[tuple[int, int], ...] = ()
    count: int = 0  # tiles exchanged


@dataclass(frozen=True, slots=True)
class State:
    """Everything about a game at one moment; never mutated, moves make new states.

    `board` holds the laid tiles (see board.py); `racks` each seat's tiles in the order drawn;
    `bag` the undrawn tiles in draw order (never shown); `turn` the seat to lay, exchange or
    pass; `number` counts the moves made (it labels the bag's shuffles); `passes` the passes
    in succession. With the joker option, `pending` is the last lay's declaration while other
    players may still call Joker, and `declined` the seats that let it go. `over` is None while
    the game goes on, else OUT or PASSES (`closing`: a rack is empty and only the Joker call is
    left); `penalties` the card points each rack cost at the end.
    """

    players: int
    centre_start: bool
    reduced_first_bonus: bool
    joker: bool
    seed: str
    starter: int
    turn: int
    number: int
    board: Board
    racks: tuple[tuple[Tile, ...], ...]
    bag: tuple[Tile, ...]
    scores: tuple[int, ...]
    passes: int
    last: LastMove | None
    pending: Declaration | None
    declined: tuple[int, ...]
    over: str | None
    penalties: tuple[int, ...]
    log: tuple[FrozenEvent, ...]

    @property
    def phase(self) -> str:
        return PLAY if self.over is None else OVER

    @property
    def closing(self) -> bool:
        """The last lay emptied its player's rack, but with the joker option the others may
        still call Joker on it: the game ends once each has called or let the count stand."""
        return self.over is None and not self.racks[self.turn]

    @property
    def first_lay(self) -> bool:
        """No tile is on the board yet: the next lay is the game's first."""
        return self.board == EMPTY_BOARD

    def events(self) -> list[Event]:
        return [_thawed_event(item) for item in self.log]


def _tile(identity: str) -> Tile:
    """parse_tile(identity), looked up for the 104 identities as the state writes them."""
    tile = _TILES.get(identity) if type(identity) is str else None
    return tile if tile is not None else parse_tile(identity)


_TILES = {str(tile): tile for tile in FULL_BAG}
EVENTS_KEPT = 10_000  # each: about 200 matches' logs
# An event's key (event_key) -> the event frozen. A plain dict, emptied when full: get, set and
# clear are atomic.
_frozen_events: dict[Hashable, FrozenEvent] = {}


def _frozen_event(item: Mapping[str, Any]) -> FrozenEvent:
    """freeze_event(item), the same tuple for the same JSON (so that it is thawed only once)."""
    key = event_key(item)
    frozen = _frozen_events.get(key)
    if frozen is None:
        if len(_frozen_events) >= EVENTS_KEPT:
            _frozen_events.clear()  # simpler than an LRU, and as good for a log that moves on
        frozen = _frozen_events[key] = freeze_event(item)
    return frozen


_thawed_event = by_identity(thaw_event, size=EVENTS_KEPT)  # each frozen event thawed once


# --- JSON ---------------------------------------------------------------------------------

FORMAT = 1


def dump(state: State) -> dict[str, Any]:
    """A JSON-ready dict of the whole state (seed, racks and bag included: server only)."""
    return {
        "format": FORMAT,
        "variant": "kings",
        "players": state.players,
        "centre_start": state.centre_start,
        "reduced_first_bonus": state.reduced_first_bonus,
        "joker": state.joker,
        "seed": state.seed,
        "starter": state.starter,
        "turn": state.turn,
        "number": state.number,
        "board": [
            [i // SIZE, i % SIZE, str(laid.tile), laid.rank]
            for i, laid in enumerate(state.board)
            if laid is not None
        ],
        "racks": [[str(tile) for tile in rack] for rack in state.racks],
        "bag": [str(tile) for tile in state.bag],
        "scores": list(state.scores),
        "passes": state.passes,
        "last": None
        if state.last is None
        else {
            "seat": state.last.seat,
            "kind": state.last.kind,
            "squares": [list(square) for square in state.last.squares],
            "count": state.last.count,
        },
        "pending": None if state.pending is None else list(state.pending),
        "declined": list(state.declined),
        "over": state.over,
        "penalties": list(state.penalties),
        "log": [_thawed_event(item) for item in state.log],  # read-only, as views' are
    }


def load(data: Mapping[str, Any]) -> State:
    """The state back from `dump` (ValueError on anything that is not such a dict)."""
    if data.get("variant") != "kings" or data.get("format") != FORMAT:
        raise ValueError("not a Kings Cribbage state")
    cells: list[Laid | None] = list(EMPTY_BOARD)
    for row, col, tile, rank in data["board"]:
        cells[index((row, col))] = Laid(_tile(tile), int(rank))
    last = data["last"]
    pending = data["pending"]
    return State(
        players=int(data["players"]),
        centre_start=bool(data["centre_start"]),
        reduced_first_bonus=bool(data["reduced_first_bonus"]),
        joker=bool(data["joker"]),
        seed=str(data["seed"]),
        starter=int(data["starter"]),
        turn=int(data["turn"]),
        number=int(data["number"]),
        board=tuple(cells),
        racks=tuple(tuple([_tile(t) for t in rack]) for rack in data["racks"]),
        bag=tuple([_tile(t) for t in data["bag"]]),
        scores=tuple(int(s) for s in data["scores"]),
        passes=int(data["passes"]),
        last=None
        if last is None
        else LastMove(
            int(last["seat"]),
            str(last["kind"]),
            tuple((int(r), int(c)) for r, c in last["squares"]),
            int(last["count"]),
        ),
        pending=None if pending is None else Declaration(*pending),
        declined=tuple(int(s) for s in data["declined"]),
        over=data["over"],
        penalties=tuple(int(p) for p in data["penalties"]),
        log=tuple([_frozen_event(e) for e in data["log"]]),
    )
