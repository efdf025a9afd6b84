"""Helpers for the Cribist tests: moves in shorthand, playing them, random games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from games.engine.cribist import CRIBIST, State

MOVE_LIMIT = 5_000


def move(shorthand: str) -> dict[str, Any]:
    """'7C' -> play, 'pass', 'continue', 'declare 8', 'muggins 2 fifteen 7C 8C | pair 5H 5S'."""
    word, *rest = shorthand.split()
    if word in ("pass", "continue"):
        return {"type": word}
    if word == "declare":
        return {"type": "declare", "points": int(rest[0])}
    if word == "muggins":
        points, *named = rest
        items = []
        for part in " ".join(named).split("|"):
            words = part.split()
            cards = [w for w in words if len(w) == 2 and w[0] in "A23456789TJQK"]
            kind = " ".join(w for w in words if w not in cards)
            items.append({"kind": kind, "cards": cards})
        return {"type": "muggins", "points": int(points), "items": items}
    return {"type": "play", "card": word}


def run(state: State, *steps: tuple[int, str]) -> tuple[State, list[dict[str, Any]]]:
    """Apply (seat, shorthand) steps in order; returns the last state and all the events."""
    events: list[dict[str, Any]] = []
    for seat, shorthand in steps:
        state, new = CRIBIST.apply(state, seat, move(shorthand))
        events.extend(new)
    return state, events


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["kind"] for e in events]


def random_steps(
    state: State, rng: random.Random
) -> Iterator[tuple[State, int, dict[str, Any], State, list[dict[str, Any]]]]:
    """Play random legal moves to the end: yields (before, seat, move, after, events)."""
    for _ in range(MOVE_LIMIT):
        to_move = sorted(CRIBIST.to_move(state))
        if not to_move:
            return
        seat = rng.choice(to_move)
        chosen = rng.choice(CRIBIST.legal_moves(state, seat))
        after, events = CRIBIST.apply(state, seat, chosen)
        yield state, seat, chosen, after, events
        state = after
    raise AssertionError(f"no end after {MOVE_LIMIT} moves")


def play_out(state: State, rng: random.Random) -> State:
    """Random legal moves until the match is over."""
    for _before, _seat, _move, after, _events in random_steps(state, rng):
        state = after
    return state
