"""Classic Cribbage for 2, 3 or 4 players: the variant, its options, the deal and the discard.

A match is one game, or with the option `games` = N it goes to the first side to win more than
half of N games (best of N; with three players, or an even N, that can take more than N games).
Each game is dealt hand after hand until a side pegs out at the target (121 or 61); that ends
the game at once, wherever it happens: pegging, his heels or part-way through the show. The
first dealer is cut for; the deal then passes to the left; the next game is dealt by the side
that lost (with three players, the lowest score; see `next_game_dealer`). The state is a
frozen `State` (see cribbage_state); every deal comes from
`shuffled_deck(seed, "deal:<game>:<hand>")`, so a seed and the moves replay a match.

Moves (JSON dicts, exactly as `legal_moves` lists them):
    {"type": "discard", "cards": ["5H", "JD"]}   lay cards away to the crib (all seats at once)
    {"type": "play", "card": "7C"}                play a card to the count
    {"type": "go"}                                 say go: no card fits under 31
    {"type": "count", "points": 8}                 muggins: count your hand or crib
    {"type": "muggins", "points": 2}               muggins: claim points the owner missed
    {"type": "continue"}                           next hand / next game / let missed points go

Event kinds: cut, cut_tie, dealer, deal, discard, starter, heels, play, peg, go, go_point,
last_card, show, count, muggins, game_over, match_over. Every event is public.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from ..core.events import Event, event, freeze_event
from ..core.options import clean_options
from ..core.outcome import Outcome, TournamentScoring
from ..core.state import evolve, with_item
from ..core.text import gettext_noop
from ..core.variant import BadOptions, IllegalMove, Move, register, seat_list
from ..pieces.cards import JACK, Card, shuffled_deck
from . import bot
from .play import card_named, play_card, playable, say_go
from .show import (
    claim,
    claimers,
    count,
    end_game,
    has_won,
    let_go,
    next_game_dealer,
    outcome,
    peg,
)
from .state import (
    COUNTED,
    DISCARD,
    GAME_OVER,
    LOG_LENGTH,
    MATCH_OVER,
    PLAY,
    SHOW,
    TABLES,
    State,
    dump,
    load,
    position,
)
from .view import REVEALED, build_view

__all__ = ["CRIBBAGE", "Cribbage", "State", "cut_for_deal", "position"]

TARGETS = (121, 61)
MAX_GAMES = 21


class Cribbage:
    """The classic game: deal, discard to the crib, cut the starter, the play, the show."""

    key = "cribbage"
    name = gettext_noop("Cribbage")
    player_counts = (2, 3, 4)
    levels = bot.LEVELS
    # Pegging out ends the game at once, so the winner's score is the target exactly.
    tournament = TournamentScoring(kind="race", stops_at_target=True, skunks=True)
    options_schema: dict[str, dict[str, Any]] = {
        "target": {
            "type": "choice",
            "choices": list(TARGETS),
            "default": 121,
            "label": gettext_noop("Game to"),
            "summary": gettext_noop("game to {}"),
            "help": gettext_noop("121 points (twice round the board) or the short game of 61"),
        },
        "games": {
            "type": "int",
            "min": 1,
            "max": MAX_GAMES,
            "default": 1,
            "label": gettext_noop("Games in the match"),
            "summary": gettext_noop("best of {} games"),
            "help": gettext_noop(
                "the match goes to the first side to win more than half of these games"
            ),
        },
        "muggins": {
            "type": "bool",
            "default": False,
            "label": gettext_noop("Muggins"),
            "summary": gettext_noop("muggins"),
            "help": gettext_noop(
                "players count their own hands, and opponents may take any points missed"
            ),
        },
    }

    def clean_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Check the options and fill in defaults; BadOptions names the option at fault."""
        if players not in self.player_counts:
            raise BadOptions("players", f"cribbage is for 2, 3 or 4 players, not {players}")
        return clean_options("cribbage", self.options_schema, options)

    def teams(self, players: int) -> list[tuple[int, ...]]:
        """The sides: every player alone, except four players (seats 0 and 2 against 1 and 3)."""
        return list(TABLES[players].sides)

    def new_state(self, players: int, options: Mapping[str, Any] | None, seed: bytes) -> State:
        """Cut for the first deal and deal the first hand."""
        if not isinstance(seed, bytes | bytearray):
            raise TypeError("the seed must be bytes")
        cleaned = self.clean_options(players, options)
        dealer, events = cut_for_deal(bytes(seed), players)
        sides = len(TABLES[players].sides)
        state = State(
            players=players,
            target=cleaned["target"],
            match_games=cleaned["games"],
            muggins=cleaned["muggins"],
            seed=bytes(seed).hex(),
            phase=DISCARD,
            game=1,
            hand=1,
            dealer=dealer,
            scores=(0,) * sides,
            back_pegs=(0,) * sides,
            games_won=(0,) * sides,
            held=((),) * players,
            crib=(),
            deck=(),
            results=(),
            log=(),
            **_fresh_hand(players),
        )
        state = _deal(state, events)
        return evolve(state, log=tuple(freeze_event(e) for e in events[-LOG_LENGTH:]))

    def to_move(self, state: State) -> frozenset[int]:
        phase = state.phase
        if phase == DISCARD:
            return frozenset(s for s in range(state.players) if not state.discards[s])
        if phase == PLAY:
            return frozenset(() if state.turn is None else (state.turn,))
        if phase == SHOW:
            assert state.pending is not None
            if state.pending.declared is None:
                return frozenset((state.pending.owner,))
            return frozenset(s for s in claimers(state) if s not in state.ready)
        if phase in (COUNTED, GAME_OVER):
            return frozenset(s for s in range(state.players) if s not in state.ready)
        return frozenset()

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every move `seat` may make now (empty when it is not that seat's turn).

        In a muggins count this lists every count up to the true one, so a client that wants
        players to count for themselves should offer a number box rather than this list.
        """
        if seat not in self.to_move(state):
            return []
        phase = state.phase
        if phase == DISCARD:
            held = sorted(state.held[seat])
            return [
                {"type": "discard", "cards": [str(c) for c in chosen]}
                for chosen in combinations(held, state.table.lay_away)
            ]
        if phase == PLAY:
            cards = playable(state, seat)
            if not cards:
                return [{"type": "go"}]
            return [{"type": "play", "card": str(card)} for card in sorted(cards)]
        if phase == SHOW:
            pending = state.pending
            assert pending is not None
            if pending.declared is None:
                return [{"type": "count", "points": n} for n in range(pending.points + 1)]
            missed = pending.points - pending.declared
            claims = [{"type": "muggins", "points": n} for n in range(1, missed + 1)]
            return [*claims, {"type": "continue"}]
        return [{"type": "continue"}]

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        """The state after `seat` makes `move`, and what happened; IllegalMove says why not."""
        if state.phase == MATCH_OVER:
            raise IllegalMove(gettext_noop("the match is over"))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
            raise IllegalMove(
                gettext_noop("there is no seat {seat} at this table"), seat=repr(seat)
            )
        if not isinstance(move, Mapping):
            raise IllegalMove(
                gettext_noop("a move is an object with a type, such as {example}"),
                example='{"type": "go"}',
            )
        kind = move.get("type")
        if not isinstance(kind, str):
            raise IllegalMove(
                gettext_noop('a move needs a "type" such as "play", "go" or "discard"')
            )
        handler = _HANDLERS.get((state.phase, kind))
        if handler is None:
            raise _out_of_place(state, kind)
        events: list[Event] = []
        after = handler(state, seat, move, events)
        return _commit(state, after, events), events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator), ready for a template or JSON."""
        if seat is not None and not 0 <= seat < state.players:
            raise ValueError(f"there is no seat {seat} at this table")
        to_move = self.to_move(state)
        legal = [] if seat is None else self.legal_moves(state, seat)
        result = self.outcome(state)
        return build_view(state, seat, to_move, legal, result)

    def hidden(self, state: State, seat: int | None) -> set[str]:
        """Cards `seat` must not see: the undealt deck (the starter once cut is not in it) and,
        until the hands are shown, every other seat's cards and the face-down crib. Cards cut for
        the first deal were shown to everyone and went back into the pack before the shuffle, so
        naming them tells nothing of where they are now; they are not counted as hidden."""
        secret = {str(card) for card in state.deck}
        if state.phase in REVEALED:
            return secret - _cut_cards(state)
        own = set() if seat is None else {*state.held[seat], *state.discards[seat]}
        for other in range(state.players):
            if other != seat:
                secret.update(str(card) for card in state.held[other])
        secret.update(str(card) for card in state.crib if card not in own)
        return secret - _cut_cards(state)

    def outcome(self, state: State) -> Outcome | None:
        return outcome(state)

    def computer(self, state: State, seat: int, level: str, rng: Any) -> Move:
        """The computer's move for `seat`, chosen from that seat's view alone."""
        return bot.choose(self.view(state, seat), level, rng)

    def dump(self, state: State) -> dict[str, Any]:
        return dump(state)

    def load(self, data: Mapping[str, Any]) -> State:
        return load(data)

    position = staticmethod(position)


CRIBBAGE = register(Cribbage())


def cut_for_deal(seed: bytes, players: int) -> tuple[int, list[Event]]:
    """Each seat cuts a card; the lowest (ace low) deals first. Seats tied for lowest cut again,
    from a fresh shuffle ("cut:0", "cut:1"...). Returns the dealer and the events."""
    events: list[Event] = []
    cutting = list(range(players))
    for attempt in range(1000):
        deck = shuffled_deck(seed, f"cut:{attempt}")
        cuts = dict(zip(cutting, deck, strict=False))
        for seat, card in cuts.items():
            events.append(event("cut", seat, f"{{p{seat}}} cuts {card}", card=str(card)))
        low = min(card.rank for card in cuts.values())
        lowest = [seat for seat, card in cuts.items() if card.rank == low]
        if len(lowest) == 1:
            events.append(event("dealer", lowest[0], f"{{p{lowest[0]}}} cuts lowest and deals"))
            return lowest[0], events
        text = f"{seat_list(lowest)} tie for lowest and cut again"
        events.append(event("cut_tie", None, text, seats=list(lowest)))
        cutting = lowest
    raise RuntimeError("the cut for the deal never settled")  # pragma: no cover


def _cut_cards(state: State) -> set[str]:
    return {str(e["card"]) for e in state.events() if e["kind"] == "cut"}


# --- the deal and the discard ----------------------------------------------------------------


def _deal(state: State, events: list[Event]) -> State:
    """Deal the hand: one card at a time from the dealer's left, then the deck's crib card."""
    n = state.players
    table = state.table
    deck = shuffled_deck(bytes.fromhex(state.seed), f"deal:{state.game}:{state.hand}")
    dealt = n * table.deal
    hands = [deck[(i - state.dealer - 1) % n : dealt : n] for i in range(n)]
    crib = deck[dealt : dealt + table.crib_from_deck]
    text = f"game {state.game}, hand {state.hand}: {{p{state.dealer}}} deals"
    if table.crib_from_deck:
        text += ", and one card goes from the deck to the crib"
    events.append(
        event(
            "deal",
            state.dealer,
            text,
            game=state.game,
            hand=state.hand,
            from_deck=table.crib_from_deck,
        )
    )
    return evolve(
        state,
        phase=DISCARD,
        held=tuple(tuple(sorted(hand)) for hand in hands),
        crib=tuple(sorted(crib)),
        deck=deck[dealt + table.crib_from_deck :],
        **_fresh_hand(n),
    )


def _fresh_hand(players: int) -> dict[str, Any]:
    """The parts of the state that every new hand starts afresh (besides the cards dealt)."""
    return {
        "discards": ((),) * players,
        "starter": None,
        "count": 0,
        "current": (),
        "earlier": (),
        "turn": None,
        "gone": (),
        "shows": (),
        "pending": None,
        "ready": (),
    }


def _discard(state: State, seat: int, move: Move, events: list[Event]) -> State:
    if state.discards[seat]:
        raise IllegalMove(gettext_noop("you have already laid away your cards for this crib"))
    need = state.table.lay_away
    names = move.get("cards")
    if not isinstance(names, list | tuple) or len(names) != need:
        if need == 1:
            raise IllegalMove(gettext_noop("you must discard exactly 1 card"))
        raise IllegalMove(gettext_noop("you must discard exactly {count} cards"), count=need)
    chosen = _own_cards(state, seat, names)
    held = tuple(card for card in state.held[seat] if card not in chosen)
    state = evolve(
        state,
        held=with_item(state.held, seat, held),
        discards=with_item(state.discards, seat, tuple(sorted(chosen))),
        crib=tuple(sorted(state.crib + chosen)),
    )
    text = f"{{p{seat}}} lays {need} {_cards(need)} in the crib"
    events.append(event("discard", seat, text, count=need, dealer=state.dealer))
    if all(state.discards):
        return _cut_starter(state, events)
    return state


def _cut_starter(state: State, events: list[Event]) -> State:
    starter = state.deck[0]
    dealer = state.dealer
    state = evolve(
        state,
        phase=PLAY,
        starter=starter,
        deck=state.deck[1:],
        turn=(dealer + 1) % state.players,
    )
    events.append(event("starter", None, f"the starter is {starter}", card=str(starter)))
    if starter.rank == JACK:
        state = peg(state, dealer, 2)
        events.append(
            event(
                "heels", dealer, f"his heels: 2 to the dealer {{p{dealer}}}", 2, card=str(starter)
            )
        )
        if has_won(state, dealer):
            return end_game(state, dealer, events)
    return state


# --- the show, continue ---------------------------------------------------------------------


def _count(state: State, seat: int, move: Move, events: list[Event]) -> State:
    pending = state.pending
    assert pending is not None
    if seat != pending.owner or pending.declared is not None:
        raise IllegalMove(gettext_noop("it is not your turn to count"))
    return count(state, seat, _points_of(move), events)


def _muggins(state: State, seat: int, move: Move, events: list[Event]) -> State:
    pending = state.pending
    assert pending is not None
    if pending.declared is None:
        raise IllegalMove(gettext_noop("wait until the hand has been counted"))
    if seat not in claimers(state):
        raise IllegalMove(gettext_noop("only the other side may claim points missed in this count"))
    if seat in state.ready:
        raise IllegalMove(gettext_noop("you have already let these points go"))
    return claim(state, seat, _points_of(move), events)


def _continue(state: State, seat: int, move: Move, events: list[Event]) -> State:
    if state.phase == SHOW:
        pending = state.pending
        assert pending is not None
        if pending.declared is None or seat not in claimers(state):
            raise IllegalMove(gettext_noop("it is not your turn here"))
        if seat in state.ready:
            raise IllegalMove(gettext_noop("you have already let these points go"))
        return let_go(state, seat, events)
    if seat in state.ready:
        raise IllegalMove(gettext_noop("you have already said you are ready"))
    state = evolve(state, ready=(*state.ready, seat))
    if len(state.ready) < state.players:
        return state
    if state.phase == GAME_OVER:
        n = len(state.sides)
        dealer = next_game_dealer(state)
        state = evolve(
            state,
            game=state.game + 1,
            hand=1,
            dealer=dealer,
            scores=(0,) * n,
            back_pegs=(0,) * n,
        )
        return _deal(state, events)
    state = evolve(state, hand=state.hand + 1, dealer=(state.dealer + 1) % state.players)
    return _deal(state, events)


_HANDLERS = {
    (DISCARD, "discard"): _discard,
    (PLAY, "play"): play_card,
    (PLAY, "go"): say_go,
    (SHOW, "count"): _count,
    (SHOW, "muggins"): _muggins,
    (SHOW, "continue"): _continue,
    (COUNTED, "continue"): _continue,
    (GAME_OVER, "continue"): _continue,
}

_EXPECTED = {
    DISCARD: gettext_noop("you cannot {move} now: now is the time to lay cards away to the crib"),
    PLAY: gettext_noop("you cannot {move} now: now is the play: play a card or say go"),
    SHOW: gettext_noop("you cannot {move} now: now is the count of the hands"),
    COUNTED: gettext_noop("you cannot {move} now: the hand is over: continue to the next deal"),
    GAME_OVER: gettext_noop("you cannot {move} now: the game is over: continue to the next game"),
}


# --- helpers ----------------------------------------------------------------------------------


def _commit(before: State, after: State, events: list[Event]) -> State:
    """Keep the recent events of the current hand in the state (a new deal starts afresh)."""
    start = max((i for i, e in enumerate(events) if e["kind"] == "deal"), default=None)
    if start is None:
        log = before.log + tuple(freeze_event(e) for e in events)
    else:
        log = tuple(freeze_event(e) for e in events[start:])
    return evolve(after, log=log[-LOG_LENGTH:])


def _out_of_place(state: State, kind: object) -> IllegalMove:
    known = {k for _, k in _HANDLERS}
    if not isinstance(kind, str) or kind not in known:
        return IllegalMove(
            gettext_noop("there is no move {move} in Cribbage (moves: {moves})"),
            move=_short(kind),
            moves=", ".join(sorted(known)),
        )
    return IllegalMove(_EXPECTED[state.phase], move=kind)


def _short(value: object) -> str:
    """A value from a move, quoted and cut short, for a message."""
    text = repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


def _own_cards(state: State, seat: int, names: Any) -> tuple[Card, ...]:
    chosen: list[Card] = []
    for name in names:
        if not isinstance(name, str):
            raise IllegalMove(
                gettext_noop("{value} is not a card: write cards like '5H'"), value=_short(name)
            )
        card = card_named(name)
        if card in chosen:
            raise IllegalMove(gettext_noop("you named {card} twice"), card=str(card))
        if card not in state.held[seat]:
            raise IllegalMove(gettext_noop("you do not hold {card}"), card=str(card))
        chosen.append(card)
    return tuple(chosen)


def _points_of(move: Move) -> int:
    points = move.get("points")
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise IllegalMove(gettext_noop("give the points as a whole number, 0 or more"))
    return points


def _cards(n: int) -> str:
    return "card" if n == 1 else "cards"
