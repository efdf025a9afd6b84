"""Helpers for the classic Cribbage tests: moves in shorthand, playing them, random games."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from games.engine.cribbage import CRIBBAGE, State
from games.engine.cribbage.state import COUNTED, GAME_OVER, MATCH_OVER, SHOW
from games.engine.pieces.cards import FULL_DECK, Card

CARD_TOKEN = re.compile(r"\b[A2-9TJQK][CDHS]\b")
MOVE_LIMIT = 5_000


def move(shorthand: str) -> dict[str, Any]:
    """'7C' -> play, 'go', 'continue', 'discard 5H JD', 'count 8', 'muggins 2'."""
    word, *rest = shorthand.split()
    if word == "go" or word == "continue":
        return {"type": word}
    if word == "discard":
        return {"type": "discard", "cards": rest}
    if word in ("count", "muggins"):
        return {"type": word, "points": int(rest[0])}
    return {"type": "play", "card": word}


def run(state: State, *steps: tuple[int, str]) -> tuple[State, list[dict[str, Any]]]:
    """Apply (seat, shorthand) steps in order; returns the last state and all the events."""
    events: list[dict[str, Any]] = []
    for seat, shorthand in steps:
        state, new = CRIBBAGE.apply(state, seat, move(shorthand))
        events.extend(new)
    return state, events


def texts(events: list[dict[str, Any]], kind: str | None = None) -> list[str]:
    return [e["text"] for e in events if kind is None or e["kind"] == kind]


def random_steps(
    state: State, rng: random.Random
) -> Iterator[tuple[State, int, dict[str, Any], State, list[dict[str, Any]]]]:
    """Play random legal moves to the end: yields (before, seat, move, after, events)."""
    for _ in range(MOVE_LIMIT):
        to_move = sorted(CRIBBAGE.to_move(state))
        if not to_move:
            return
        seat = rng.choice(to_move)
        chosen = rng.choice(CRIBBAGE.legal_moves(state, seat))
        after, events = CRIBBAGE.apply(state, seat, chosen)
        yield state, seat, chosen, after, events
        state = after
    raise AssertionError(f"no end after {MOVE_LIMIT} moves")


def play_until(state: State, rng: random.Random, phase: str) -> State:
    """Random legal moves until the state reaches `phase` (fails if the match ends first)."""
    while state.phase != phase:
        assert state.phase != MATCH_OVER, f"the match ended before reaching {phase}"
        seat = rng.choice(sorted(CRIBBAGE.to_move(state)))
        state, _ = CRIBBAGE.apply(state, seat, rng.choice(CRIBBAGE.legal_moves(state, seat)))
    return state


def every_card(state: State) -> list[Card]:
    """Held + crib + played + starter + deck: each of the 52 cards exactly once, always."""
    cards = [card for hand in state.held for card in hand] + list(state.crib) + list(state.deck)
    cards += [card for count in (*state.earlier, state.current) for _, card in count]
    if state.starter is not None:
        cards.append(state.starter)
    return cards


def hidden_from(state: State, seat: int | None) -> set[str]:
    """The cards `seat` (None: a spectator) must not see in this state."""
    hidden = set(map(str, state.deck))
    if state.phase in (SHOW, COUNTED, GAME_OVER, MATCH_OVER):
        return hidden  # every hand and the crib are face up
    for other, hand in enumerate(state.held):
        if other != seat:
            hidden |= set(map(str, hand))
    own = set() if seat is None else set(map(str, state.discards[seat]))
    hidden |= set(map(str, state.crib)) - own
    return hidden


def assert_full_deck(state: State) -> None:
    cards = every_card(state)
    assert sorted(cards) == sorted(FULL_DECK), "cards lost or duplicated"
