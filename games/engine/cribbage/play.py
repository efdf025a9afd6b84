"""Classic Cribbage: the play to 31, with its go, its last card and the turn order."""

from __future__ import annotations

from ..core.events import event
from ..core.state import evolve, with_item
from ..core.text import gettext_noop
from ..core.variant import Event, IllegalMove, Move
from ..pieces.cards import Card, CardError, parse_card
from .pegging import peg_points
from .show import end_game, has_won, peg, start_show
from .state import State

COUNT_LIMIT = 31


def play_card(state: State, seat: int, move: Move, events: list[Event]) -> State:
    """Play a card to the count, peg what it makes, then end the count or pass the turn."""
    _check_turn(state, seat)
    name = move.get("card")
    if not isinstance(name, str):
        raise IllegalMove(
            gettext_noop("name the card to play, such as {example}"),
            example='{"type": "play", "card": "7C"}',
        )
    card = card_named(name)
    if card not in state.held[seat]:
        if card in state.played_by(seat):
            raise IllegalMove(gettext_noop("you have already played {card}"), card=str(card))
        raise IllegalMove(gettext_noop("you do not hold {card}"), card=str(card))
    total = state.count + card.value
    if total > COUNT_LIMIT:
        raise IllegalMove(
            gettext_noop("the count would be {total}: no card may take it past {limit}"),
            total=total,
            limit=COUNT_LIMIT,
        )
    state = evolve(
        state,
        held=with_item(state.held, seat, tuple(c for c in state.held[seat] if c != card)),
        current=(*state.current, (seat, card)),
        count=total,
    )
    events.append(
        event("play", seat, f"{{p{seat}}} plays {card} ({total})", card=str(card), count=total)
    )
    reasons = peg_points([c for _, c in state.current])
    if reasons:
        points = sum(p for _, p in reasons)
        state = peg(state, seat, points)
        text = f"{{p{seat}}} pegs {points} for {_reasons(reasons)}"
        events.append(event("peg", seat, text, points, reasons=reason_data(reasons), count=total))
        if has_won(state, seat):
            return end_game(state, seat, events)
    if not any(state.held):
        if total != COUNT_LIMIT:
            state = peg(state, seat, 1)
            events.append(event("last_card", seat, f"{{p{seat}}}: last card for 1", 1))
            if has_won(state, seat):
                return end_game(state, seat, events)
        state = evolve(state, earlier=(*state.earlier, state.current), current=(), count=0)
        return start_show(state, events)
    if total == COUNT_LIMIT:
        return _new_count(state, seat)
    return _next_turn(state, seat, events)


def say_go(state: State, seat: int, move: Move, events: list[Event]) -> State:
    """Say go: allowed only when no card in hand fits under 31."""
    _check_turn(state, seat)
    if playable(state, seat):
        raise IllegalMove(gettext_noop("you must play a card while you can"))
    state = evolve(state, gone=(*state.gone, seat))
    events.append(event("go", seat, f"{{p{seat}}} says go", count=state.count))
    return _next_turn(state, seat, events)


def playable(state: State, seat: int) -> list[Card]:
    """The cards `seat` holds that the count has room for."""
    room = COUNT_LIMIT - state.count
    return [card for card in state.held[seat] if card.value <= room]


def card_named(name: str) -> Card:
    """The card written as `name`; IllegalMove if it is not a card."""
    try:
        return parse_card(name)
    except CardError as error:
        if not isinstance(name, str):
            raise IllegalMove(str(error)) from None
        shown = name if len(name) <= 12 else name[:10] + "..."
        raise IllegalMove(
            gettext_noop(
                "'{token}' is not a card: write a rank (A 2-9 T J Q K, or 10) then a suit (C D H S)"
            ),
            token=shown,
        ) from None


def _next_turn(state: State, after: int, events: list[Event]) -> State:
    """Pass the turn on from `after` to the next seat still in this count.

    A seat that cannot play must say go itself, except the one who played the last card: when
    the turn comes back to that seat and it cannot play (or nobody is left), it pegs the go.
    """
    last = state.current[-1][0]
    n = state.players
    for step in range(1, n + 1):
        seat = (after + step) % n
        if state.held[seat] and seat not in state.gone:
            if seat == last and not playable(state, seat):
                break
            return evolve(state, turn=seat)
    state = peg(state, last, 1)
    events.append(event("go_point", last, f"{{p{last}}}: go for 1", 1))
    if has_won(state, last):
        return end_game(state, last, events)
    return _new_count(state, last)


def _new_count(state: State, last: int) -> State:
    """Start again from 0, led by the next seat after `last` that still holds cards."""
    n = state.players
    leader = next((last + step) % n for step in range(1, n + 1) if state.held[(last + step) % n])
    return evolve(
        state,
        earlier=(*state.earlier, state.current),
        current=(),
        count=0,
        gone=(),
        turn=leader,
    )


def _check_turn(state: State, seat: int) -> None:
    if seat != state.turn:
        raise IllegalMove(gettext_noop("it is not your turn to play"))


def _reasons(reasons: list[tuple[str, int]]) -> str:
    words = [
        f"a {name}" if name == "pair" or name.startswith("run") else name for name, _ in reasons
    ]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def reason_data(reasons: list[tuple[str, int]]) -> list[dict[str, object]]:
    """What a card pegged, as data for a page in another language: one item per reason,
    {"kind": "fifteen" | "thirty_one" | "pair" | "run", "size": cards, "points": points}; a
    "pair" item of size 3 is three of a kind, of size 4 four of a kind."""
    out: list[dict[str, object]] = []
    for name, points in reasons:
        if name == "fifteen":
            out.append({"kind": "fifteen", "size": 0, "points": points})
        elif name == "thirty-one":
            out.append({"kind": "thirty_one", "size": 0, "points": points})
        elif name.startswith("run of "):
            out.append({"kind": "run", "size": int(name.removeprefix("run of ")), "points": points})
        else:  # pair, three of a kind, four of a kind: 2 points a pair within them
            size = next(n for n in range(2, 9) if n * (n - 1) == points)
            out.append({"kind": "pair", "size": size, "points": points})
    return out
