"""The state of a classic Cribbage match: an immutable value, its JSON form and a test builder."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..core.events import Event, FrozenEvent, freeze_event, thaw_event
from ..core.outcome import GameResult, SideResult
from ..pieces.cards import FULL_DECK, Card, parse_card, parse_cards

# Phases, in the order a hand goes through them.
DISCARD = "discard"  # every seat lays cards away to the crib, in any order
PLAY = "play"  # the play to 31
SHOW = "show"  # muggins only: owners count their hands, opponents may claim missed points
COUNTED = "counted"  # the hand is over; every seat sends continue before the next deal
GAME_OVER = "game_over"  # a game of a longer match is over; every seat sends continue
MATCH_OVER = "match_over"  # nothing more to do

LOG_LENGTH = 20  # events of the current hand kept in the state for the view


class Table(NamedTuple):
    """What changes with the number of players."""

    deal: int  # cards dealt to each player
    lay_away: int  # cards each player puts in the crib
    crib_from_deck: int  # cards dealt straight from the deck into the crib
    sides: tuple[tuple[int, ...], ...]  # seats that score together


TABLES: dict[int, Table] = {
    2: Table(deal=6, lay_away=2, crib_from_deck=0, sides=((0,), (1,))),
    3: Table(deal=5, lay_away=1, crib_from_deck=1, sides=((0,), (1,), (2,))),
    4: Table(deal=5, lay_away=1, crib_from_deck=0, sides=((0, 2), (1, 3))),
}


class Shown(NamedTuple):
    """One hand (or the crib) at the show: whose it is, its cards and what it is worth.

    `declared` is what the owner counted (muggins only; None when counted automatically);
    `claimed` is what an opponent took as missed points, and `claimer` who did.
    """

    owner: int
    crib: bool
    cards: tuple[Card, ...]
    points: int
    breakdown: str
    declared: int | None = None
    claimed: int = 0
    claimer: int | None = None


Play = tuple[int, Card]  # (seat, card) as played during the play


@dataclass(frozen=True, slots=True)
class State:
    """Everything about a match at one moment. Never mutated: moves make new states.

    `held` is what each seat still holds (its dealt cards before the discard, then its four to
    play); `discards` what each seat laid away; `crib` the crib (sorted, with the deck's card in
    three-handed play); `deck` the undealt cards, whose first card becomes the starter. During
    the play `current` holds the plays of the running count, `earlier` the finished counts of
    this hand, `turn` the seat to play and `gone` the seats that said go in this count.
    `scores`, `back_pegs` (each side's score before its last peg) and `games_won` are per side.
    `seed` (hex) and `deck` never reach a view.
    """

    players: int
    target: int
    match_games: int
    muggins: bool
    seed: str
    phase: str
    game: int
    hand: int
    dealer: int
    scores: tuple[int, ...]
    back_pegs: tuple[int, ...]
    games_won: tuple[int, ...]
    held: tuple[tuple[Card, ...], ...]
    discards: tuple[tuple[Card, ...], ...]
    crib: tuple[Card, ...]
    deck: tuple[Card, ...]
    starter: Card | None
    count: int
    current: tuple[Play, ...]
    earlier: tuple[tuple[Play, ...], ...]
    turn: int | None
    gone: tuple[int, ...]
    shows: tuple[Shown, ...]
    pending: Shown | None  # muggins: the hand being counted now
    ready: tuple[int, ...]  # seats that sent continue in this step
    results: tuple[GameResult, ...]
    log: tuple[FrozenEvent, ...]

    @property
    def table(self) -> Table:
        return TABLES[self.players]

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return TABLES[self.players].sides

    def side_of(self, seat: int) -> int:
        return seat % len(TABLES[self.players].sides)

    def played_by(self, seat: int) -> tuple[Card, ...]:
        """The cards `seat` has played so far this hand, in order."""
        plays = [card for count in self.earlier for s, card in count if s == seat]
        return (*plays, *(card for s, card in self.current if s == seat))

    def show_hand(self, seat: int) -> tuple[Card, ...]:
        """The four cards `seat` kept after the discard (held plus played), sorted."""
        return tuple(sorted(self.held[seat] + self.played_by(seat)))

    def events(self) -> list[Event]:
        """The recent events (this hand's, at most LOG_LENGTH) as fresh dicts."""
        return [thaw_event(item) for item in self.log]


# --- JSON ---------------------------------------------------------------------------------

FORMAT = 1


def dump(state: State) -> dict[str, Any]:
    """A JSON-ready dict holding the whole state (seed and deck included: for the server only)."""
    return {
        "format": FORMAT,
        "variant": "cribbage",
        "players": state.players,
        "target": state.target,
        "match_games": state.match_games,
        "muggins": state.muggins,
        "seed": state.seed,
        "phase": state.phase,
        "game": state.game,
        "hand": state.hand,
        "dealer": state.dealer,
        "scores": list(state.scores),
        "back_pegs": list(state.back_pegs),
        "games_won": list(state.games_won),
        "held": [_strs(cards) for cards in state.held],
        "discards": [_strs(cards) for cards in state.discards],
        "crib": _strs(state.crib),
        "deck": _strs(state.deck),
        "starter": None if state.starter is None else str(state.starter),
        "count": state.count,
        "current": _plays_json(state.current),
        "earlier": [_plays_json(count) for count in state.earlier],
        "turn": state.turn,
        "gone": list(state.gone),
        "shows": [shown_json(shown) for shown in state.shows],
        "pending": None if state.pending is None else shown_json(state.pending),
        "ready": list(state.ready),
        "results": [result.to_json() for result in state.results],
        "log": [thaw_event(item) for item in state.log],
    }


def load(data: Mapping[str, Any]) -> State:
    """The state `dump` wrote (raises ValueError on data that is not such a dump)."""
    if data.get("format") != FORMAT or data.get("variant") != "cribbage":
        raise ValueError("not a dump of a cribbage state")
    return State(
        players=int(data["players"]),
        target=int(data["target"]),
        match_games=int(data["match_games"]),
        muggins=bool(data["muggins"]),
        seed=str(data["seed"]),
        phase=str(data["phase"]),
        game=int(data["game"]),
        hand=int(data["hand"]),
        dealer=int(data["dealer"]),
        scores=_ints(data["scores"]),
        back_pegs=_ints(data["back_pegs"]),
        games_won=_ints(data["games_won"]),
        held=tuple(parse_cards(cards) for cards in data["held"]),
        discards=tuple(parse_cards(cards) for cards in data["discards"]),
        crib=parse_cards(data["crib"]),
        deck=parse_cards(data["deck"]),
        starter=None if data["starter"] is None else parse_card(data["starter"]),
        count=int(data["count"]),
        current=_plays_load(data["current"]),
        earlier=tuple(_plays_load(count) for count in data["earlier"]),
        turn=None if data["turn"] is None else int(data["turn"]),
        gone=_ints(data["gone"]),
        shows=tuple(_shown_load(item) for item in data["shows"]),
        pending=None if data["pending"] is None else _shown_load(data["pending"]),
        ready=_ints(data["ready"]),
        results=tuple(_result_load(item) for item in data["results"]),
        log=tuple(freeze_event(item) for item in data["log"]),
    )


def shown_json(shown: Shown) -> dict[str, Any]:
    return {
        "owner": shown.owner,
        "crib": shown.crib,
        "cards": _strs(shown.cards),
        "points": shown.points,
        "breakdown": shown.breakdown,
        "declared": shown.declared,
        "claimed": shown.claimed,
        "claimer": shown.claimer,
    }


# --- building positions for tests -------------------------------------------------------------


def position(
    hands: Sequence[str | Iterable[str]],
    starter: str | None,
    *,
    dealer: int = 0,
    crib: str | Iterable[str] = (),
    phase: str = PLAY,
    scores: Sequence[int] | None = None,
    target: int = 121,
    match_games: int = 1,
    muggins: bool = False,
    seed: bytes = b"position",
) -> State:
    """A crafted position, for tests and worked examples: `hands` are the cards each seat holds.

    With `phase="play"` (the default) the discard is over: each hand is what that seat will
    play, `crib` is the crib and `starter` the card cut; the seat left of the dealer leads (his
    heels is not scored here). With `phase="discard"` the hands are the dealt hands, `crib` is
    whatever went into the crib from the deck, and `starter` (optional) is the card that will be
    cut after the discard. Every other card is left in the deck. `scores` are per side.
    """
    players = len(hands)
    if players not in TABLES:
        raise ValueError(f"cribbage is for 2, 3 or 4 players, not {players}")
    if phase not in (DISCARD, PLAY):
        raise ValueError("a position starts in the discard or the play")
    held = tuple(parse_cards(hand) for hand in hands)
    crib_cards = tuple(sorted(parse_cards(crib)))
    cut = None if starter is None else parse_card(starter)
    if phase == PLAY and cut is None:
        raise ValueError("the play needs a starter")
    used = [card for hand in held for card in hand] + list(crib_cards) + ([cut] if cut else [])
    if len(set(used)) != len(used):
        raise ValueError("a card appears twice in the position")
    sides = len(TABLES[players].sides)
    start = tuple(scores) if scores is not None else (0,) * sides
    if len(start) != sides:
        raise ValueError(f"give {sides} scores, one per side")
    return State(
        players=players,
        target=target,
        match_games=match_games,
        muggins=muggins,
        seed=seed.hex(),
        phase=phase,
        game=1,
        hand=1,
        dealer=dealer,
        scores=start,
        back_pegs=start,
        games_won=(0,) * sides,
        held=held,
        discards=((),) * players,
        crib=crib_cards,
        deck=_deck(used, cut if phase == DISCARD else None),
        starter=cut if phase == PLAY else None,
        count=0,
        current=(),
        earlier=(),
        turn=(dealer + 1) % players if phase == PLAY else None,
        gone=(),
        shows=(),
        pending=None,
        ready=(),
        results=(),
        log=(),
    )


# --- helpers --------------------------------------------------------------------------------


def _deck(used: list[Card], top: Card | None) -> tuple[Card, ...]:
    """The cards not in use, in the deck's order, with `top` (the starter to come) first."""
    rest = tuple(card for card in FULL_DECK if card not in set(used))
    return rest if top is None else (top, *rest)


def _strs(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _ints(values: Iterable[Any]) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


def _plays_json(plays: Iterable[Play]) -> list[list[Any]]:
    return [[seat, str(card)] for seat, card in plays]


def _plays_load(plays: Iterable[Sequence[Any]]) -> tuple[Play, ...]:
    return tuple((int(seat), parse_card(card)) for seat, card in plays)


def _shown_load(data: Mapping[str, Any]) -> Shown:
    return Shown(
        owner=int(data["owner"]),
        crib=bool(data["crib"]),
        cards=parse_cards(data["cards"]),
        points=int(data["points"]),
        breakdown=str(data["breakdown"]),
        declared=None if data["declared"] is None else int(data["declared"]),
        claimed=int(data["claimed"]),
        claimer=None if data["claimer"] is None else int(data["claimer"]),
    )


def _result_load(data: Mapping[str, Any]) -> GameResult:
    return GameResult(
        number=int(data["number"]),
        winners=_ints(data["winners"]),
        sides=tuple(
            SideResult(
                seats=_ints(side["seats"]),
                score=int(side["score"]),
                skunk=int(side["skunk"]),
                games_won=int(side["games_won"]),
                place=int(side.get("place", 0)),
            )
            for side in data["sides"]
        ),
    )
