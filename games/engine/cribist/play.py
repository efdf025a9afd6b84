"""Cribist's play: the deal, cards to tricks, scoring a trick, the end of a hand and the match.

Every score goes through `score`, which checks the target after it (option ending "target"),
so a match to a target ends the moment a player reaches it.
"""

from __future__ import annotations

from ..core.events import Event, event
from ..core.outcome import GameResult, Outcome, SideResult, places
from ..core.state import evolve
from ..core.text import gettext_noop
from ..core.variant import IllegalMove, Move, seat_list
from ..pieces.cards import SUIT_NAMES, Card, CardError, parse_card, shuffled_deck
from ..scoring.trick import score_trick, trick_winner
from .state import (
    BY_DEALS,
    BY_TARGET,
    BY_TIME,
    DECLARE,
    HAND_OVER,
    MATCH_OVER,
    PLAY,
    PLAYERS,
    TIME_DEAL_LIMIT,
    State,
    Trick,
    by_suit,
)

TRICK_POINT = 1  # scored at the end of a hand for every trick taken


# --- the deal -------------------------------------------------------------------------------


def deal(state: State, events: list[Event]) -> State:
    """Deal the hand from `shuffled_deck(seed, "deal:<hand>")`, one card at a time clockwise
    from the dealer's left, thirteen each; the seat left of the dealer leads."""
    deck = shuffled_deck(bytes.fromhex(state.seed), f"deal:{state.hand}")
    first = (state.dealer + 1) % PLAYERS
    held = tuple(by_suit(deck[(seat - first) % PLAYERS :: PLAYERS]) for seat in range(PLAYERS))
    events.append(
        event(
            "deal",
            state.dealer,
            f"Hand {state.hand}: {{p{state.dealer}}} deals; {{p{first}}} leads and names trumps",
            hand=state.hand,
            leader=first,
        )
    )
    return evolve(
        state,
        phase=PLAY,
        held=held,
        trump=None,
        leader=first,
        current=(),
        tricks=(),
        answered=(),
        ready=(),
    )


# --- the play -------------------------------------------------------------------------------


def playable(state: State, seat: int) -> tuple[Card, ...]:
    """The cards `seat` may play now: the suit led if it holds any, else any card."""
    held = state.held[seat]
    if state.current:
        led = state.current[0].suit
        following = tuple(card for card in held if card.suit == led)
        if following:
            return following
    return held


def play_card(state: State, seat: int, move: Move, events: list[Event]) -> State:
    """Play a card to the trick; the fourth card finishes it."""
    if seat != state.turn:
        raise IllegalMove(
            gettext_noop("it is the turn of {player} to play"), player=f"{{p{state.turn}}}"
        )
    card = card_named(move.get("card"))
    if card not in state.held[seat]:
        raise IllegalMove(gettext_noop("you do not hold {card}"), card=str(card))
    if card not in playable(state, seat):
        raise IllegalMove(FOLLOW_SUIT[state.current[0].suit])
    held = tuple(c for c in state.held[seat] if c != card)
    state = evolve(
        state,
        held=(*state.held[:seat], held, *state.held[seat + 1 :]),
        current=(*state.current, card),
    )
    if state.trump is None:
        state = evolve(state, trump=card.suit)
        events.append(
            event(
                "lead",
                seat,
                f"{{p{seat}}} leads {card}: {SUIT_NAMES[card.suit]} are trumps this hand",
                card=str(card),
                trump=card.suit,
            )
        )
    else:
        events.append(event("play", seat, f"{{p{seat}}} plays {card}", card=str(card)))
    if len(state.current) == PLAYERS:
        return _finish_trick(state, events)
    return state


FOLLOW_SUIT = {
    "C": gettext_noop("you must follow suit: clubs were led and you hold clubs"),
    "D": gettext_noop("you must follow suit: diamonds were led and you hold diamonds"),
    "H": gettext_noop("you must follow suit: hearts were led and you hold hearts"),
    "S": gettext_noop("you must follow suit: spades were led and you hold spades"),
}


def card_named(name: object) -> Card:
    if not isinstance(name, str):
        raise IllegalMove(
            gettext_noop('name the card to play, such as {"type": "play", "card": "7C"}')
        )
    return card_of(name)


def card_of(token: object) -> Card:
    """A card from its notation ('5H', '10D', 'js'); IllegalMove (with its template) if not."""
    try:
        return parse_card(token)  # type: ignore[arg-type]
    except CardError:
        if not isinstance(token, str):
            raise IllegalMove(
                gettext_noop("a card must be written as text like '5H', not {token}"),
                token=repr(token)[:20],
            ) from None
        raise IllegalMove(
            gettext_noop(
                "'{token}' is not a card: write a rank (A 2-9 T J Q K, or 10) then a suit (C D H S)"
            ),
            token=token if len(token) <= 12 else token[:10] + "...",
        ) from None


def _finish_trick(state: State, events: list[Event]) -> State:
    """Four cards are down: the highest trump (else the highest of the suit led) takes them,
    and the trick is scored as a hand, at once or, with muggins, by the winner's declaration."""
    assert state.trump is not None
    cards = state.current
    position = trick_winner(cards, state.trump)
    winner = (state.leader + position) % PLAYERS
    count = score_trick(cards, state.trump)
    trick = Trick(state.leader, cards, winner, count.total, count.text())
    state = evolve(state, tricks=(*state.tricks, trick), current=(), leader=winner)
    number = len(state.tricks)
    params = {
        "cards": [str(c) for c in cards],
        "leader": trick.leader,
        "winner": winner,
        "trick": number,
        "card": str(cards[position]),
    }
    if state.muggins:
        params["trump"] = state.trump
        text = f"{{p{winner}}} takes trick {number} with {cards[position]}, and counts it"
        events.append(event("trick", winner, text, **params))
        return evolve(state, phase=DECLARE, answered=())
    detail = f": {count.text()}" if count.total else ""
    text = f"{{p{winner}}} takes trick {number} with {cards[position]} for {count.total}{detail}"
    params.update(trump=state.trump, calls=count.calls())
    events.append(event("trick", winner, text, count.total, breakdown=count.breakdown(), **params))
    state = score(state, winner, count.total, events)
    if state.phase == MATCH_OVER:
        return state
    return next_trick(state, events)


def next_trick(state: State, events: list[Event]) -> State:
    """The trick is settled: its winner leads the next, or, the cards all played, the hand is
    over."""
    if any(state.held):
        return evolve(state, phase=PLAY, answered=())
    return _end_hand(state, events)


# --- scores and the end of the match ----------------------------------------------------------


def score(state: State, seat: int, points: int, events: list[Event]) -> State:
    """Add `points` (negative for a failed muggins call; a score never drops below 0) and,
    in a match to a target, end it the moment a seat reaches the target."""
    scores = list(state.scores)
    scores[seat] = max(0, scores[seat] + points)
    state = evolve(state, scores=tuple(scores))
    if state.ending == BY_TARGET and points > 0 and scores[seat] >= state.target:
        return _match_over(evolve(state, phase=MATCH_OVER, finish=BY_TARGET), events)
    return state


def _end_hand(state: State, events: list[Event]) -> State:
    """Each seat scores a point a trick taken; then the match ends or waits for the next deal."""
    won = state.tricks_won()
    scores = tuple(score + TRICK_POINT * n for score, n in zip(state.scores, won, strict=True))
    text = "Tricks taken: " + ", ".join(f"{{p{s}}} {n}" for s, n in enumerate(won))
    events.append(event("trick_points", None, text, tricks=list(won)))
    state = evolve(state, scores=scores, sheet=(*state.sheet, scores), phase=HAND_OVER, ready=())
    finish = _finished(state)
    if finish:
        return _match_over(evolve(state, phase=MATCH_OVER, finish=finish), events)
    return state


def next_deal(state: State, events: list[Event]) -> State:
    """Every seat is ready: the deal passes to the left (unless the time is up now)."""
    if time_up(state):
        return _match_over(evolve(state, phase=MATCH_OVER, finish=BY_TIME), events)
    state = evolve(state, hand=state.hand + 1, dealer=(state.dealer + 1) % PLAYERS)
    return deal(state, events)


def time_up(state: State) -> bool:
    """A timed match's time is up: the latest clock a move carried has reached the deadline."""
    deadline = state.deadline
    return deadline is not None and state.clock is not None and state.clock >= deadline


def _finished(state: State) -> str:
    """Why the match ends at the end of this hand ("" when it goes on)."""
    if state.ending == BY_TARGET and max(state.scores) >= state.target:
        return BY_TARGET
    if state.ending == BY_DEALS and state.hand >= state.deal_limit:
        return BY_DEALS
    if state.ending == BY_TIME and (time_up(state) or state.hand >= TIME_DEAL_LIMIT):
        return BY_TIME
    return ""


def _match_over(state: State, events: list[Event]) -> State:
    result = outcome(state)
    assert result is not None
    events.append(
        event(
            "match_over",
            None,
            result.reason,
            winners=list(result.winners),
            top=max(state.scores),
            finish=state.finish,
            target=state.target,
            deals=state.hand,
            time_up=time_up(state),
        )
    )
    return evolve(state, ready=())


def outcome(state: State) -> Outcome | None:
    """The result once the match is over: the highest score wins (ties share the win), and
    every seat is placed by its score. In a match to a target the first to reach it has the
    highest score, since the match stopped the moment they did."""
    if state.phase != MATCH_OVER:
        return None
    top = max(state.scores)
    winners = tuple(seat for seat, points in enumerate(state.scores) if points == top)
    ranks = places(state.scores)
    sides = tuple(
        SideResult(seats=(seat,), score=points, place=ranks[seat])
        for seat, points in enumerate(state.scores)
    )
    return Outcome(
        winners=winners,
        sides=sides,
        reason=_reason(state, winners, top),
        games=(GameResult(1, winners, sides),),
    )


def _reason(state: State, winners: tuple[int, ...], top: int) -> str:
    why = {
        BY_TARGET: f"reaching {state.target}",
        BY_DEALS: f"after {state.hand} {'deal' if state.hand == 1 else 'deals'}",
        BY_TIME: "when time was called"
        if time_up(state)
        else f"after {state.hand} deals (the most a timed match plays)",
    }[state.finish]
    if len(winners) == 1:
        return f"{{p{winners[0]}}} wins with {top}, {why}"
    return f"{seat_list(winners)} share the win with {top}, {why}"
