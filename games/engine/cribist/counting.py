"""Muggins in Cribist: the winner of a trick declares its points, and the others may call.

After the declaration each other player may once, before the next lead, call muggins: name
the points the winner missed and where they are (the combinations, by kind and cards). A call
stands when every combination named is one the trick holds, the points stated are what those
combinations are worth, and no more than the points still unclaimed: the caller scores them.
Any other call costs the caller the points stated. Once the three others have called or
passed, or nothing is left unclaimed, the winner leads the next trick. The shared muggins
mechanism (`core.muggins`) checks the declaration and judges the amount of a call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.events import Event, event
from ..core.muggins import Declaration, declare, judge_call
from ..core.state import evolve
from ..core.text import gettext_noop
from ..core.variant import IllegalMove, Move
from ..pieces.cards import Card
from ..scoring import FIFTEEN_KIND, FLUSH_KIND, PAIR_KIND, RUN_KIND, ScoreItem
from ..scoring.trick import TRUMP_JACK_KIND, score_trick
from .play import card_of, next_trick, score
from .state import CALLS, MATCH_OVER, PLAYERS, Call, State, Trick

CLAIM_KINDS = (FIFTEEN_KIND, PAIR_KIND, RUN_KIND, FLUSH_KIND, TRUMP_JACK_KIND)
MAX_ITEMS = 20  # more combinations than any trick holds

Named = tuple[str, tuple[Card, ...]]  # a combination named in a call: (kind, cards)


def trick_items(state: State, trick: Trick) -> tuple[ScoreItem, ...]:
    """Every scoring combination of a trick."""
    assert state.trump is not None
    return score_trick(trick.cards, state.trump).items


def declare_points(state: State, seat: int, move: Move, events: list[Event]) -> State:
    """The winner's declaration: the trick's worth or less (over-counting is refused)."""
    trick = state.tricks[-1]
    if seat != trick.winner:
        raise IllegalMove(
            gettext_noop("{player} took this trick and counts it"), player=f"{{p{trick.winner}}}"
        )
    given = move.get("points")
    if isinstance(given, bool) or not isinstance(given, int) or given < 0:
        raise IllegalMove(gettext_noop("give the points as a whole number, 0 or more"))
    if given > trick.points:  # the shared rule's refusal, with its template
        raise IllegalMove(gettext_noop("that trick does not hold {points}"), points=given)
    points = declare(Declaration(seat, trick.points), given, "trick").declared
    assert points is not None
    trick = trick._replace(declared=points)
    state = _with_last_trick(state, trick)
    text = f"{{p{seat}}} declares {points} for trick {len(state.tricks)}"
    events.append(event("declare", seat, text, points, trick=len(state.tricks)))
    state = score(state, seat, points, events)
    if state.phase == MATCH_OVER:
        return state
    if trick.unclaimed == 0:
        return _close(state, events)
    return evolve(state, phase=CALLS, answered=())


def call_muggins(state: State, seat: int, move: Move, events: list[Event]) -> State:
    """A muggins call: the points and the combinations that make them."""
    trick = _callable(state, seat)
    points = move.get("points")
    if isinstance(points, bool) or not isinstance(points, int) or points < 1:
        raise IllegalMove(gettext_noop("state the points you claim: a whole number, 1 or more"))
    named = _named_items(move.get("items"), trick)
    correct = claim_stands(state, trick, points, named)
    trick = trick._replace(calls=(*trick.calls, Call(seat, points, named, correct)))
    state = evolve(_with_last_trick(state, trick), answered=(*state.answered, seat))
    where = "; ".join(_named_text(kind, cards) for kind, cards in named)
    items = [{"kind": kind, "cards": [str(c) for c in cards]} for kind, cards in named]
    if correct:
        text = f"{{p{seat}}} calls muggins: {points} missed ({where}) and scores them"
        events.append(event("muggins", seat, text, points, items=items, correct=True))
        state = score(state, seat, points, events)
    else:
        text = f"{{p{seat}}} calls muggins for {points} ({where}), wrongly, and loses {points}"
        events.append(event("muggins", seat, text, -points, items=items, correct=False))
        state = score(state, seat, -points, events)
    if state.phase == MATCH_OVER:
        return state
    return _maybe_close(state, events)


def pass_call(state: State, seat: int, move: Move, events: list[Event]) -> State:
    """Let the trick's missed points go."""
    _callable(state, seat)
    state = evolve(state, answered=(*state.answered, seat))
    events.append(event("pass", seat, f"{{p{seat}}} lets the count stand"))
    return _maybe_close(state, events)


def callers(state: State) -> tuple[int, ...]:
    """The seats that may still call on the trick open to muggins."""
    if state.phase != CALLS:
        return ()
    winner = state.tricks[-1].winner
    return tuple(s for s in range(PLAYERS) if s != winner and s not in state.answered)


def claim_stands(state: State, trick: Trick, points: int, named: Sequence[Named]) -> bool:
    """Whether a call is right: every combination named is in the trick, the points stated are
    their worth, and that many points are still unclaimed."""
    real = {(item.kind, frozenset(item.cards)): item.points for item in trick_items(state, trick)}
    worth = 0
    for kind, cards in named:
        value = real.get((kind, frozenset(cards)))
        if value is None:
            return False
        worth += value
    accounted = (trick.declared or 0) + trick.claimed  # declared, or taken by earlier calls
    return worth == points and judge_call(
        Declaration(trick.winner, trick.points, accounted), points
    )


def single_claims(state: State, trick: Trick) -> list[Move]:
    """A muggins call naming one combination of the trick, for each combination it holds."""
    return [
        {
            "type": "muggins",
            "points": item.points,
            "items": [{"kind": item.kind, "cards": [str(c) for c in item.cards]}],
        }
        for item in trick_items(state, trick)
    ]


# --- helpers --------------------------------------------------------------------------------


def _callable(state: State, seat: int) -> Trick:
    trick = state.tricks[-1]
    if seat == trick.winner:
        raise IllegalMove(gettext_noop("you cannot call muggins on your own count"))
    if seat in state.answered:
        raise IllegalMove(gettext_noop("you have already called or passed on this trick"))
    return trick


def _maybe_close(state: State, events: list[Event]) -> State:
    if not callers(state) or state.tricks[-1].unclaimed == 0:
        return _close(state, events)
    return state


def _close(state: State, events: list[Event]) -> State:
    trick = state.tricks[-1]
    if trick.unclaimed:
        text = f"{trick.unclaimed} of trick {len(state.tricks)} went unclaimed"
        events.append(event("unclaimed", None, text, trick.unclaimed, trick=len(state.tricks)))
    return next_trick(state, events)


def _with_last_trick(state: State, trick: Trick) -> State:
    return evolve(state, tricks=(*state.tricks[:-1], trick))


def _named_items(items: Any, trick: Trick) -> tuple[Named, ...]:
    """The combinations a call names, checked for form (kinds known, cards of this trick)."""
    if not isinstance(items, list | tuple) or not items:
        raise IllegalMove(
            gettext_noop("name where the points are: combinations, each a kind and cards")
        )
    if len(items) > MAX_ITEMS:
        raise IllegalMove(gettext_noop("name at most {most} combinations"), most=MAX_ITEMS)
    named: list[Named] = []
    for item in items:
        if not isinstance(item, dict):
            raise IllegalMove(
                gettext_noop('each combination is an object like {"kind": "pair", "cards": [...]}')
            )
        kind = item.get("kind")
        if kind not in CLAIM_KINDS:
            raise IllegalMove(
                gettext_noop("the kinds of combination are {kinds}"), kinds=", ".join(CLAIM_KINDS)
            )
        cards = item.get("cards")
        if not isinstance(cards, list | tuple) or not cards or len(cards) > len(trick.cards):
            raise IllegalMove(
                gettext_noop("name the cards of the {kind} from this trick"), kind=kind
            )
        chosen: list[Card] = []
        for name in cards:
            card = card_of(name)
            if card not in trick.cards:
                raise IllegalMove(gettext_noop("{card} is not in this trick"), card=str(card))
            if card in chosen:
                raise IllegalMove(
                    gettext_noop("you named {card} twice in one {kind}"), card=str(card), kind=kind
                )
            chosen.append(card)
        entry = (kind, tuple(chosen))
        if any(k == kind and set(c) == set(chosen) for k, c in named):
            raise IllegalMove(_SAME_TWICE[kind])
        named.append(entry)
    return tuple(named)


_SAME_TWICE = {  # a call may name a combination once (whole sentences, one a kind)
    FIFTEEN_KIND: gettext_noop("you named the same fifteen twice"),
    PAIR_KIND: gettext_noop("you named the same pair twice"),
    RUN_KIND: gettext_noop("you named the same run twice"),
    FLUSH_KIND: gettext_noop("you named the same flush twice"),
    TRUMP_JACK_KIND: gettext_noop("you named the same jack of trumps twice"),
}


def _named_text(kind: str, cards: Sequence[Card]) -> str:
    return f"{kind} {' '.join(str(c) for c in cards)}"
