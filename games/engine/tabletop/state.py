"""The state of a Table Top Cribbage (or CrossCrib) match: an immutable value and its JSON form.

The layout is 25 squares, row by row from the top left; square 12 (row 2, column 2) is the
centre. Each seat's face-down stack lists its cards top first; on a seat's turn the top card of
its stack is the turned card. `out` holds the cards out of play for the deal (never shown).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..core.events import Event, FrozenEvent, freeze_event, thaw_event
from ..pieces.cards import FULL_DECK, Card, parse_card, parse_cards
from ..pieces.grid import Grid, Square

# Phases
PLACE = "place"  # turn by turn, each player turns their top card and places it (or cribs it)
COUNTED = "counted"  # the deal is scored; every seat sends continue before the next deal
OVER = "over"  # the match is over

SIZE = 5
GRID = Grid(SIZE, SIZE)
CENTRE: Square = GRID.centre
LOG_LENGTH = 30  # events of the current deal kept in the state for the view


def index_of(square: Square) -> int:
    return square[0] * SIZE + square[1]


def square_of(index: int) -> Square:
    return divmod(index, SIZE)


class Line(NamedTuple):
    """One counted line at the end of a deal: "row" or "column", its number, the side scoring
    it, its cards (top to bottom or left to right), its total and the count in words."""

    kind: str
    number: int
    side: int
    cards: tuple[Card, ...]
    points: int
    breakdown: str


class DealScore(NamedTuple):
    """The count of a finished deal: every line, the crib (CrossCrib), each side's hand points
    and what each side gained on the scoreboard."""

    deal: int
    dealer: int
    lines: tuple[Line, ...]
    crib: tuple[Card, ...]
    crib_points: int
    crib_breakdown: str
    hand_points: tuple[int, ...]
    gained: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class State:
    """Everything about a match at one moment. Never mutated: moves make new states.

    `scores` are per side (Table Top: points; CrossCrib: game points). `board` holds the 25
    squares (None for empty). `stacks[seat]` is what that seat has still to turn, top first.
    `cribs[seat]` are the cards that seat put in the dealer's crib this deal. `advice` is the
    square the partner of the player to move suggested ((row, col), or None), `advised` the seats
    that have suggested one this turn. `last` is the count of the deal just finished. `seed`,
    `stacks` and `out` never reach a view as they are.
    """

    variant: str
    players: int
    target: int
    seed: str
    phase: str
    deal: int
    dealer: int
    turn: int | None
    scores: tuple[int, ...]
    board: tuple[Card | None, ...]
    stacks: tuple[tuple[Card, ...], ...]
    out: tuple[Card, ...]
    cribs: tuple[tuple[Card, ...], ...]
    advice: Square | None
    advised: tuple[int, ...]
    ready: tuple[int, ...]
    last: DealScore | None
    log: tuple[FrozenEvent, ...]

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return SIDES[self.players]

    def side_of(self, seat: int) -> int:
        return seat % 2

    @property
    def turned(self) -> Card | None:
        """The card the player to move has turned up (None outside a turn)."""
        if self.turn is None or not self.stacks[self.turn]:
            return None
        return self.stacks[self.turn][0]

    def filled(self) -> list[Square]:
        return [square_of(i) for i, card in enumerate(self.board) if card is not None]

    def empty(self) -> list[Square]:
        return [square_of(i) for i, card in enumerate(self.board) if card is None]

    def at(self, square: Square) -> Card | None:
        return self.board[index_of(square)]

    def line_cards(self, kind: str, number: int) -> tuple[Card, ...]:
        """The cards now in a row or column, in order (empty squares skipped)."""
        squares = GRID.row(number) if kind == ROW else GRID.column(number)
        return tuple(card for card in (self.at(sq) for sq in squares) if card is not None)

    def events(self) -> list[Event]:
        return [thaw_event(item) for item in self.log]


ROW = "row"
COLUMN = "column"
SIDES: dict[int, tuple[tuple[int, ...], ...]] = {2: ((0,), (1,)), 4: ((0, 2), (1, 3))}
LINE_KINDS = (COLUMN, ROW)  # side 0 (seat 0, and 2) scores the columns, side 1 the rows


# --- JSON ---------------------------------------------------------------------------------

FORMAT = 1


def dump(state: State) -> dict[str, Any]:
    """A JSON-ready dict holding the whole state (seed, stacks and out included: server only)."""
    return {
        "format": FORMAT,
        "variant": state.variant,
        "players": state.players,
        "target": state.target,
        "seed": state.seed,
        "phase": state.phase,
        "deal": state.deal,
        "dealer": state.dealer,
        "turn": state.turn,
        "scores": list(state.scores),
        "board": [None if card is None else str(card) for card in state.board],
        "stacks": [_strs(stack) for stack in state.stacks],
        "out": _strs(state.out),
        "cribs": [_strs(crib) for crib in state.cribs],
        "advice": None if state.advice is None else list(state.advice),
        "advised": list(state.advised),
        "ready": list(state.ready),
        "last": None if state.last is None else deal_score_json(state.last),
        "log": [thaw_event(item) for item in state.log],
    }


def load(data: Mapping[str, Any], variant: str) -> State:
    """The state `dump` wrote (ValueError on data that is not such a dump of `variant`)."""
    if data.get("format") != FORMAT or data.get("variant") != variant:
        raise ValueError(f"not a dump of a {variant} state")
    advice = data["advice"]
    return State(
        variant=variant,
        players=int(data["players"]),
        target=int(data["target"]),
        seed=str(data["seed"]),
        phase=str(data["phase"]),
        deal=int(data["deal"]),
        dealer=int(data["dealer"]),
        turn=None if data["turn"] is None else int(data["turn"]),
        scores=_ints(data["scores"]),
        board=tuple(None if c is None else parse_card(c) for c in data["board"]),
        stacks=tuple(parse_cards(stack) for stack in data["stacks"]),
        out=parse_cards(data["out"]),
        cribs=tuple(parse_cards(crib) for crib in data["cribs"]),
        advice=None if advice is None else (int(advice[0]), int(advice[1])),
        advised=_ints(data["advised"]),
        ready=_ints(data["ready"]),
        last=None if data["last"] is None else _deal_score_load(data["last"]),
        log=tuple(freeze_event(item) for item in data["log"]),
    )


def deal_score_json(score: DealScore) -> dict[str, Any]:
    return {
        "deal": score.deal,
        "dealer": score.dealer,
        "lines": [
            {
                "kind": line.kind,
                "number": line.number,
                "side": line.side,
                "cards": _strs(line.cards),
                "points": line.points,
                "breakdown": line.breakdown,
            }
            for line in score.lines
        ],
        "crib": _strs(score.crib),
        "crib_points": score.crib_points,
        "crib_breakdown": score.crib_breakdown,
        "hand_points": list(score.hand_points),
        "gained": list(score.gained),
    }


def _deal_score_load(data: Mapping[str, Any]) -> DealScore:
    return DealScore(
        deal=int(data["deal"]),
        dealer=int(data["dealer"]),
        lines=tuple(
            Line(
                kind=str(line["kind"]),
                number=int(line["number"]),
                side=int(line["side"]),
                cards=parse_cards(line["cards"]),
                points=int(line["points"]),
                breakdown=str(line["breakdown"]),
            )
            for line in data["lines"]
        ),
        crib=parse_cards(data["crib"]),
        crib_points=int(data["crib_points"]),
        crib_breakdown=str(data["crib_breakdown"]),
        hand_points=_ints(data["hand_points"]),
        gained=_ints(data["gained"]),
    )


def _strs(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _ints(values: Sequence[Any]) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


# --- building positions for tests -------------------------------------------------------------


def position(
    variant: str,
    board: str,
    stacks: Sequence[str],
    *,
    dealer: int = 0,
    turn: int | None = None,
    cribs: Sequence[str] | None = None,
    scores: Sequence[int] | None = None,
    target: int = 121,
    deal: int = 1,
    seed: bytes = b"position",
) -> State:
    """A crafted position in the middle of a deal, for tests and worked examples.

    `board` is 25 tokens row by row from the top left, a card or "." for an empty square (the
    13th, the centre, must be a card); `stacks` are what each seat has still to turn, top
    first; `cribs` what each seat has put in the crib. The player to move is `turn` (by default
    the dealer's left). Every other card is out of play.
    """
    tokens = board.split()
    if len(tokens) != SIZE * SIZE:
        raise ValueError(f"a board has {SIZE * SIZE} squares, not {len(tokens)}")
    laid = tuple(None if t == "." else parse_card(t) for t in tokens)
    if laid[index_of(CENTRE)] is None:
        raise ValueError("the centre square holds the centre card")
    players = len(stacks)
    held = tuple(parse_cards(stack) for stack in stacks)
    put = tuple(parse_cards(crib) for crib in (cribs or [""] * players))
    used = [c for c in laid if c is not None] + [c for s in (*held, *put) for c in s]
    if len(set(used)) != len(used):
        raise ValueError("a card appears twice in the position")
    return State(
        variant=variant,
        players=players,
        target=target,
        seed=seed.hex(),
        phase=PLACE,
        deal=deal,
        dealer=dealer,
        turn=(dealer + 1) % players if turn is None else turn,
        scores=tuple(scores) if scores is not None else (0,) * len(SIDES[players]),
        board=laid,
        stacks=held,
        out=tuple(card for card in FULL_DECK if card not in set(used)),
        cribs=put,
        advice=None,
        advised=(),
        ready=(),
        last=None,
        log=(),
    )
