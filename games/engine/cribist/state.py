"""The state of a Cribist match: an immutable value, its JSON form and a builder for tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..core.events import Event, FrozenEvent, freeze_event, thaw_event
from ..pieces.cards import SUITS, Card, parse_cards

PLAYERS = 4
HAND_SIZE = 13  # cards dealt to each player, so tricks in a hand

# Phases.
PLAY = "play"  # a card to play to the trick
DECLARE = "declare"  # muggins: the winner of the trick declares what it is worth
CALLS = "calls"  # muggins: the other players may call points the winner missed, or pass
HAND_OVER = "hand_over"  # the hand is scored; every seat says when it is ready for the next
MATCH_OVER = "match_over"  # nothing more to do

# How the match ends (option `ending`).
BY_DEALS = "deals"
BY_TARGET = "target"
BY_TIME = "time"
ENDINGS = (BY_DEALS, BY_TARGET, BY_TIME)
TIME_DEAL_LIMIT = 60  # a timed match also stops after this many deals, clock or no clock

LOG_LENGTH = 24  # recent events kept in the state for the view


class Call(NamedTuple):
    """A muggins call on a trick: who called, the points claimed, the combinations named as
    (kind, cards), and whether the call stood (the caller scores) or failed (the caller pays)."""

    seat: int
    points: int
    items: tuple[tuple[str, tuple[Card, ...]], ...]
    correct: bool


class Trick(NamedTuple):
    """A finished trick: who led, the four cards in the order played, who took it and what it
    is worth (`points`, with the count in words). With muggins, `declared` is what the winner
    declared (None until then, and always None when tricks are scored automatically) and
    `calls` the muggins calls made on it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int
    breakdown: str
    declared: int | None = None
    calls: tuple[Call, ...] = ()

    def seat_of(self, position: int) -> int:
        """The seat that played the card at `position` (0 = the lead)."""
        return (self.leader + position) % PLAYERS

    @property
    def claimed(self) -> int:
        """Points taken by correct muggins calls."""
        return sum(call.points for call in self.calls if call.correct)

    @property
    def unclaimed(self) -> int:
        """Points neither declared by the winner nor taken by a correct call (0 before the
        declaration)."""
        if self.declared is None:
            return 0
        return self.points - self.declared - self.claimed


@dataclass(frozen=True, slots=True)
class State:
    """Everything about a match at one moment. Never mutated: moves make new states.

    `held` is what each seat still holds; `current` the cards of the trick in progress, led by
    `leader`; `tricks` the finished tricks of this hand; `trump` the suit of the hand's opening
    lead (None before it). `scores` are per seat; `sheet` holds the scores after each finished
    hand. `answered` lists the seats that called or passed on the trick open to muggins, and
    `ready` the seats ready for the next deal. `started` and `clock` are the times (seconds)
    carried by the first and the latest move that carried one (see the game's docstring).
    `finish` says why the match ended. `seed` (hex) never reaches a view.
    """

    ending: str
    deal_limit: int
    target: int
    minutes: int
    muggins: bool
    seed: str
    phase: str
    hand: int
    dealer: int
    scores: tuple[int, ...]
    sheet: tuple[tuple[int, ...], ...]
    held: tuple[tuple[Card, ...], ...]
    trump: str | None
    leader: int
    current: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    answered: tuple[int, ...]
    ready: tuple[int, ...]
    started: int | None
    clock: int | None
    finish: str
    log: tuple[FrozenEvent, ...]

    @property
    def players(self) -> int:
        return PLAYERS

    @property
    def turn(self) -> int | None:
        """The seat to play a card, during the play."""
        return (self.leader + len(self.current)) % PLAYERS if self.phase == PLAY else None

    @property
    def open_trick(self) -> Trick | None:
        """The trick being declared or open to muggins calls."""
        return self.tricks[-1] if self.phase in (DECLARE, CALLS) else None

    @property
    def deadline(self) -> int | None:
        """When a timed match's time is up (seconds), once the clock has started."""
        if self.ending != BY_TIME or self.started is None:
            return None
        return self.started + 60 * self.minutes

    def tricks_won(self) -> tuple[int, ...]:
        """How many tricks each seat has taken this hand."""
        won = [0] * PLAYERS
        for trick in self.tricks:
            won[trick.winner] += 1
        return tuple(won)

    def gone(self) -> tuple[Card, ...]:
        """Every card played this hand, finished tricks first, then the trick in progress."""
        return (*(card for trick in self.tricks for card in trick.cards), *self.current)

    def events(self) -> list[Event]:
        return [thaw_event(item) for item in self.log]


def by_suit(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards sorted by suit (clubs, diamonds, hearts, spades), then rank: a hand as held."""
    return tuple(sorted(cards, key=lambda card: (SUITS.index(card.suit), card.rank)))


# --- JSON ---------------------------------------------------------------------------------

FORMAT = 1


def dump(state: State) -> dict[str, Any]:
    """A JSON-ready dict holding the whole state (the seed included: for the server only)."""
    return {
        "format": FORMAT,
        "variant": "cribist",
        "ending": state.ending,
        "deal_limit": state.deal_limit,
        "target": state.target,
        "minutes": state.minutes,
        "muggins": state.muggins,
        "seed": state.seed,
        "phase": state.phase,
        "hand": state.hand,
        "dealer": state.dealer,
        "scores": list(state.scores),
        "sheet": [list(row) for row in state.sheet],
        "held": [strs(cards) for cards in state.held],
        "trump": state.trump,
        "leader": state.leader,
        "current": strs(state.current),
        "tricks": [trick_json(trick) for trick in state.tricks],
        "answered": list(state.answered),
        "ready": list(state.ready),
        "started": state.started,
        "clock": state.clock,
        "finish": state.finish,
        "log": [thaw_event(item) for item in state.log],
    }


def load(data: Mapping[str, Any]) -> State:
    """The state `dump` wrote (raises ValueError on data that is not such a dump)."""
    if data.get("format") != FORMAT or data.get("variant") != "cribist":
        raise ValueError("not a dump of a cribist state")
    return State(
        ending=str(data["ending"]),
        deal_limit=int(data["deal_limit"]),
        target=int(data["target"]),
        minutes=int(data["minutes"]),
        muggins=bool(data["muggins"]),
        seed=str(data["seed"]),
        phase=str(data["phase"]),
        hand=int(data["hand"]),
        dealer=int(data["dealer"]),
        scores=_ints(data["scores"]),
        sheet=tuple(_ints(row) for row in data["sheet"]),
        held=tuple(parse_cards(cards) for cards in data["held"]),
        trump=None if data["trump"] is None else str(data["trump"]),
        leader=int(data["leader"]),
        current=parse_cards(data["current"]),
        tricks=tuple(_trick_load(item) for item in data["tricks"]),
        answered=_ints(data["answered"]),
        ready=_ints(data["ready"]),
        started=None if data["started"] is None else int(data["started"]),
        clock=None if data["clock"] is None else int(data["clock"]),
        finish=str(data["finish"]),
        log=tuple(freeze_event(item) for item in data["log"]),
    )


def trick_json(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "cards": strs(trick.cards),
        "winner": trick.winner,
        "points": trick.points,
        "breakdown": trick.breakdown,
        "declared": trick.declared,
        "calls": [call_json(call) for call in trick.calls],
    }


def call_json(call: Call) -> dict[str, Any]:
    return {
        "seat": call.seat,
        "points": call.points,
        "items": [{"kind": kind, "cards": strs(cards)} for kind, cards in call.items],
        "correct": call.correct,
    }


# --- building positions for tests -------------------------------------------------------------


def position(
    hands: Sequence[str | Iterable[str]],
    *,
    dealer: int = 3,
    trump: str | None = None,
    leader: int | None = None,
    scores: Sequence[int] | None = None,
    ending: str = BY_DEALS,
    deal_limit: int = 10,
    target: int = 61,
    minutes: int = 60,
    muggins: bool = False,
    hand: int = 1,
    seed: bytes = b"position",
) -> State:
    """A crafted position in the play, for tests and worked examples.

    `hands` are the four seats' cards (any number each, the same for all seats when the hand
    is to be played out); the seat left of the dealer leads unless `leader` says otherwise.
    With `trump` None the next lead names trumps; give a suit to start part-way through a hand.
    """
    if len(hands) != PLAYERS:
        raise ValueError(f"cribist is for {PLAYERS} players, not {len(hands)}")
    held = tuple(by_suit(parse_cards(cards)) for cards in hands)
    used = [card for cards in held for card in cards]
    if len(set(used)) != len(used):
        raise ValueError("a card appears twice in the position")
    start = tuple(scores) if scores is not None else (0,) * PLAYERS
    if len(start) != PLAYERS:
        raise ValueError(f"give {PLAYERS} scores, one per seat")
    return State(
        ending=ending,
        deal_limit=deal_limit,
        target=target,
        minutes=minutes,
        muggins=muggins,
        seed=seed.hex(),
        phase=PLAY,
        hand=hand,
        dealer=dealer,
        scores=start,
        sheet=(),
        held=held,
        trump=trump,
        leader=(dealer + 1) % PLAYERS if leader is None else leader,
        current=(),
        tricks=(),
        answered=(),
        ready=(),
        started=None,
        clock=None,
        finish="",
        log=(),
    )


# --- helpers --------------------------------------------------------------------------------


def strs(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _ints(values: Iterable[Any]) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


def _trick_load(data: Mapping[str, Any]) -> Trick:
    return Trick(
        leader=int(data["leader"]),
        cards=parse_cards(data["cards"]),
        winner=int(data["winner"]),
        points=int(data["points"]),
        breakdown=str(data["breakdown"]),
        declared=None if data["declared"] is None else int(data["declared"]),
        calls=tuple(_call_load(item) for item in data["calls"]),
    )


def _call_load(data: Mapping[str, Any]) -> Call:
    return Call(
        seat=int(data["seat"]),
        points=int(data["points"]),
        items=tuple(
            (str(item["kind"]), parse_cards(item["cards"], distinct=False))
            for item in data["items"]
        ),
        correct=bool(data["correct"]),
    )
