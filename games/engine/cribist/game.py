"""Cribist: four players, each for themselves, take tricks and score each as a cribbage hand.

A match is a series of hands. For each, the 52 cards come from `shuffled_deck(seed,
"deal:<hand>")` and are dealt one at a time clockwise from the dealer's left, thirteen each;
the first dealer is drawn by lot from the seed and the deal then passes to the left. The seat
left of the dealer leads, and the suit of that opening lead is trumps for the hand. Players
follow suit when they can; the highest trump takes the trick, else the highest card of the
suit led (ace low). The winner scores the trick as a hand of four (scoring/trick.py) and leads
the next. At the end of a hand each player scores 1 a trick taken.

The match ends by its `ending` option: "deals" (after `deals` hands), "target" (the moment a
player reaches `target`; if several reach it together with the trick points of a hand, the
highest score wins) or "time" (after the hand in progress once `minutes` have passed). The
highest score wins; equal scores share the win.

Time without a clock. The engine never reads the clock: the site stamps the moves it accepts
with the server's time, as `"at": <whole seconds>` in the move, for matches where `timed`
says so (games/services.py, whatever the client sent; any move may carry it, and moves
without it are fine, as in tests and self-play). The first stamp starts the match's clock
(`started`), the latest is its `clock`, and the time is up once `clock >= started + 60 *
minutes`. It is
checked when a hand ends and again when the last player says they are ready for the next, so
a stamp arriving after the time is up ends the match at the end of the hand in progress. The
stamps are part of the move log, so a replay from the seed and the moves is exact. A timed
match also stops after TIME_DEAL_LIMIT deals, so it ends even when no move carries a time.

Muggins (option, off by default): see counting.py.

Moves (JSON dicts, exactly as `legal_moves` lists them, each optionally with "at"):
    {"type": "play", "card": "7C"}                       play a card to the trick
    {"type": "declare", "points": 8}                     muggins: count the trick you took
    {"type": "muggins", "points": 2,
     "items": [{"kind": "fifteen", "cards": ["7C", "8C"]}]}  muggins: call missed points
    {"type": "pass"}                                      muggins: let the count stand
    {"type": "continue"}                                  ready for the next deal

Event kinds: dealer, deal, lead, play, trick, declare, muggins, pass, unclaimed,
trick_points, match_over. Every event is public.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.events import Event, event, freeze_event
from ..core.options import clean_options
from ..core.outcome import Outcome, TournamentScoring
from ..core.state import evolve
from ..core.text import gettext_noop
from ..core.variant import BadOptions, IllegalMove, Move, register
from ..pieces.cards import FULL_DECK, shuffled_deck
from . import bot
from .counting import call_muggins, callers, declare_points, pass_call, single_claims
from .play import deal, next_deal, outcome, play_card, playable
from .state import (
    BY_DEALS,
    BY_TARGET,
    BY_TIME,
    CALLS,
    DECLARE,
    ENDINGS,
    HAND_OVER,
    LOG_LENGTH,
    MATCH_OVER,
    PLAY,
    PLAYERS,
    State,
    by_suit,
    dump,
    load,
    position,
)
from .view import build_view

__all__ = ["CRIBIST", "Cribist", "State", "position"]

MAX_STAMP = 10**12  # seconds; far beyond any real clock, keeps stamps sane


class Cribist:
    """Four players, tricks with trumps named by the opening lead, each trick counted."""

    key = "cribist"
    name = gettext_noop("Cribist")
    player_counts = (PLAYERS,)
    levels = bot.LEVELS
    tournament = TournamentScoring(kind="ranked", stops_at_target=False, skunks=False)
    options_schema: dict[str, dict[str, Any]] = {
        "ending": {
            "type": "choice",
            "choices": list(ENDINGS),
            "choice_labels": {
                BY_DEALS: gettext_noop("after a number of deals"),
                BY_TARGET: gettext_noop("at a target score"),
                BY_TIME: gettext_noop("when time is up"),
            },
            "default": BY_DEALS,
            "label": gettext_noop("The match ends"),
            "help": gettext_noop(
                "after a number of deals, when a player reaches a score, or when time is up"
            ),
        },
        "deals": {
            "type": "int",
            "min": 1,
            "max": 40,
            "default": 10,
            "label": gettext_noop("Deals"),
            "summary": gettext_noop("{} deals"),
            "summary_one": gettext_noop("{} deal"),
            "help": gettext_noop(
                "how many hands are dealt, when the match ends after a number of deals"
            ),
        },
        "target": {
            "type": "int",
            "min": 11,
            "max": 501,
            "default": 61,
            "label": gettext_noop("Target score"),
            "summary": gettext_noop("to {}"),
            "help": gettext_noop(
                "the first player to reach it wins, when the match ends at a score"
            ),
        },
        "minutes": {
            "type": "int",
            "min": 5,
            "max": 240,
            "default": 60,
            "label": gettext_noop("Minutes"),
            "summary": gettext_noop("{} minutes"),
            "help": gettext_noop(
                "when time is up the hand in progress is finished, and the match ends"
            ),
        },
        "muggins": {
            "type": "bool",
            "default": False,
            "label": gettext_noop("Muggins"),
            "help": gettext_noop(
                "trick winners count their own points, and the others may call any missed"
            ),
        },
    }

    def clean_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Check the options and fill in defaults; BadOptions names the option at fault."""
        if players != PLAYERS:
            raise BadOptions("players", f"cribist is for {PLAYERS} players, not {players}")
        return clean_options("cribist", self.options_schema, options)

    def teams(self, players: int) -> list[tuple[int, ...]]:
        """Every player for themselves."""
        return [(seat,) for seat in range(players)]

    def new_state(self, players: int, options: Mapping[str, Any] | None, seed: bytes) -> State:
        """Draw the first dealer by lot and deal the first hand."""
        if not isinstance(seed, bytes | bytearray):
            raise TypeError("the seed must be bytes")
        cleaned = self.clean_options(players, options)
        dealer = first_dealer(bytes(seed))
        events = [event("dealer", dealer, f"{{p{dealer}}} is drawn to deal first")]
        state = State(
            ending=cleaned["ending"],
            deal_limit=cleaned["deals"],
            target=cleaned["target"],
            minutes=cleaned["minutes"],
            muggins=cleaned["muggins"],
            seed=bytes(seed).hex(),
            phase=PLAY,
            hand=1,
            dealer=dealer,
            scores=(0,) * PLAYERS,
            sheet=(),
            held=((),) * PLAYERS,
            trump=None,
            leader=(dealer + 1) % PLAYERS,
            current=(),
            tricks=(),
            answered=(),
            ready=(),
            started=None,
            clock=None,
            finish="",
            log=(),
        )
        state = deal(state, events)
        return evolve(state, log=tuple(freeze_event(e) for e in events[-LOG_LENGTH:]))

    def to_move(self, state: State) -> frozenset[int]:
        phase = state.phase
        if phase == PLAY:
            return frozenset((state.turn,))
        if phase == DECLARE:
            return frozenset((state.tricks[-1].winner,))
        if phase == CALLS:
            return frozenset(callers(state))
        if phase == HAND_OVER:
            return frozenset(s for s in range(PLAYERS) if s not in state.ready)
        return frozenset()

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every move `seat` may make now (empty when it has nothing to do).

        A declaration is listed for every count up to the trick's worth, so a client that
        wants players to count for themselves should offer a number box. A muggins call may
        name any set of combinations; the list offers the calls naming one of the trick's
        combinations each (right or wrong depending on what is still unclaimed), and pass.
        """
        if seat not in self.to_move(state):
            return []
        phase = state.phase
        if phase == PLAY:
            return [{"type": "play", "card": str(card)} for card in by_suit(playable(state, seat))]
        if phase == DECLARE:
            worth = state.tricks[-1].points
            return [{"type": "declare", "points": n} for n in range(worth + 1)]
        if phase == CALLS:
            return [*single_claims(state, state.tricks[-1]), {"type": "pass"}]
        return [{"type": "continue"}]

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        """The state after `seat` makes `move`, and what happened; IllegalMove says why not."""
        if state.phase == MATCH_OVER:
            raise IllegalMove(gettext_noop("the match is over"))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise IllegalMove(
                gettext_noop("there is no seat {seat} at this table"), seat=repr(seat)
            )
        if not isinstance(move, Mapping):
            raise IllegalMove(
                gettext_noop('a move is an object with a type, such as {"type": "pass"}')
            )
        kind = move.get("type")
        handler = _HANDLERS.get((state.phase, kind)) if isinstance(kind, str) else None
        if handler is None:
            raise _out_of_place(state, kind)
        state = _stamp(state, move)
        events: list[Event] = []
        after = handler(state, seat, move, events)
        return _commit(state, after, events), events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator), ready for a template or JSON."""
        if seat is not None and not 0 <= seat < PLAYERS:
            raise ValueError(f"there is no seat {seat} at this table")
        to_move = self.to_move(state)
        legal = [] if seat is None else self.legal_moves(state, seat)
        return build_view(state, seat, to_move, legal, self.outcome(state))

    def timed(self, options: Mapping[str, Any]) -> bool:
        """Whether the site must stamp this match's moves with its clock (`"at"`, seconds)."""
        return options.get("ending") == BY_TIME

    def hidden(self, state: State, seat: int | None) -> set[str]:
        """Every card in another seat's hand (all of them for a spectator). Cards played are
        public, and nothing is left undealt."""
        return {
            str(card) for other in range(PLAYERS) if other != seat for card in state.held[other]
        }

    def outcome(self, state: State) -> Outcome | None:
        return outcome(state)

    def computer(self, state: State, seat: int, level: str, rng: Any) -> Move:
        """The computer's move for `seat`, chosen from that seat's view alone."""
        return bot.choose(self.view(state, seat), level, rng)

    def candidates(self, state: State, seat: int) -> list[Move]:
        return self.legal_moves(state, seat)

    def dump(self, state: State) -> dict[str, Any]:
        return dump(state)

    def load(self, data: Mapping[str, Any]) -> State:
        return load(data)

    position = staticmethod(position)


CRIBIST = register(Cribist())


def first_dealer(seed: bytes) -> int:
    """The first dealer, drawn by lot: the seat whose number comes first in a seeded shuffle."""
    lots = shuffled_deck(seed, "first-dealer", FULL_DECK[:PLAYERS])
    return lots[0].rank - 1


# --- continue -------------------------------------------------------------------------------


def _continue(state: State, seat: int, move: Move, events: list[Event]) -> State:
    if seat in state.ready:
        raise IllegalMove(gettext_noop("you have already said you are ready for the next deal"))
    state = evolve(state, ready=(*state.ready, seat))
    if len(state.ready) < PLAYERS:
        return state
    return next_deal(state, events)


_HANDLERS = {
    (PLAY, "play"): play_card,
    (DECLARE, "declare"): declare_points,
    (CALLS, "muggins"): call_muggins,
    (CALLS, "pass"): pass_call,
    (HAND_OVER, "continue"): _continue,
}

# Why a move of another phase is refused now, by phase and move (whole sentences, so that
# each can be said naturally in another language).
_OUT_OF_PLACE = {
    (PLAY, "declare"): gettext_noop(
        "you cannot declare now: now is the play: play a card to the trick"
    ),
    (PLAY, "muggins"): gettext_noop(
        "you cannot muggins now: now is the play: play a card to the trick"
    ),
    (PLAY, "pass"): gettext_noop("you cannot pass now: now is the play: play a card to the trick"),
    (PLAY, "continue"): gettext_noop(
        "you cannot continue now: now is the play: play a card to the trick"
    ),
    (DECLARE, "play"): gettext_noop("you cannot play now: the winner of the trick is counting it"),
    (DECLARE, "muggins"): gettext_noop(
        "you cannot muggins now: the winner of the trick is counting it"
    ),
    (DECLARE, "pass"): gettext_noop("you cannot pass now: the winner of the trick is counting it"),
    (DECLARE, "continue"): gettext_noop(
        "you cannot continue now: the winner of the trick is counting it"
    ),
    (CALLS, "play"): gettext_noop(
        "you cannot play now: the count is open to muggins: call or pass"
    ),
    (CALLS, "declare"): gettext_noop(
        "you cannot declare now: the count is open to muggins: call or pass"
    ),
    (CALLS, "continue"): gettext_noop(
        "you cannot continue now: the count is open to muggins: call or pass"
    ),
    (HAND_OVER, "play"): gettext_noop(
        "you cannot play now: the hand is over: continue to the next deal"
    ),
    (HAND_OVER, "declare"): gettext_noop(
        "you cannot declare now: the hand is over: continue to the next deal"
    ),
    (HAND_OVER, "muggins"): gettext_noop(
        "you cannot muggins now: the hand is over: continue to the next deal"
    ),
    (HAND_OVER, "pass"): gettext_noop(
        "you cannot pass now: the hand is over: continue to the next deal"
    ),
}


# --- helpers --------------------------------------------------------------------------------


def _stamp(state: State, move: Move) -> State:
    """Take the time a move carries (`at`, whole seconds stamped by the site), if any."""
    if "at" not in move:
        return state
    at = move["at"]
    if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at < MAX_STAMP:
        raise IllegalMove(gettext_noop('"at" is the time of the move in whole seconds'))
    started = at if state.started is None else state.started
    clock = at if state.clock is None else max(state.clock, at)
    return evolve(state, started=started, clock=clock)


def _commit(before: State, after: State, events: list[Event]) -> State:
    """Keep the recent events of the current hand in the state (a new deal starts afresh)."""
    start = max((i for i, e in enumerate(events) if e["kind"] == "deal"), default=None)
    if start is None:
        log = before.log + tuple(freeze_event(e) for e in events)
    else:
        log = tuple(freeze_event(e) for e in events[start:])
    return evolve(after, log=log[-LOG_LENGTH:])


def _out_of_place(state: State, kind: object) -> IllegalMove:
    known = sorted({k for _, k in _HANDLERS})
    if not isinstance(kind, str) or kind not in known:
        shown = repr(kind) if len(repr(kind)) <= 24 else repr(kind)[:21] + "..."
        return IllegalMove(
            gettext_noop("there is no move {move} in Cribist (moves: {moves})"),
            move=shown,
            moves=", ".join(known),
        )
    return IllegalMove(_OUT_OF_PLACE[(state.phase, kind)])
