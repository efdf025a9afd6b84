"""The protocol every game variant implements, its registry, and the shared result types."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Move = dict[str, Any]
Event = dict[str, Any]
"""A plain JSON dict: {"kind": str, "seat": int | None, "text": str, "points": int (when scoring),
...}. Every event is public: it never names a card that some seat may not see yet. `text` names
players by seat placeholders such as {p0} and {p1}; `describe` fills them in."""

SKUNK_NAMES = ("", "skunk", "double skunk")


class IllegalMove(Exception):
    """A move the rules do not allow now; the message says why, in words a player understands."""


class BadOptions(ValueError):
    """Match options that cannot be used; names the option and the reason."""

    def __init__(self, option: str, reason: str) -> None:
        super().__init__(f"{option}: {reason}")
        self.option = option
        self.reason = reason


class UnknownVariant(KeyError):
    """No variant is registered under that key."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown variant"


@dataclass(frozen=True)
class SideResult:
    """How one side (a player, or a partnership) finished."""

    seats: tuple[int, ...]
    score: int
    skunk: int = 0
    games_won: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": list(self.seats),
            "score": self.score,
            "skunk": self.skunk,
            "skunk_name": SKUNK_NAMES[self.skunk],
            "games_won": self.games_won,
        }


@dataclass(frozen=True)
class GameResult:
    """One finished game of a match: its number, the winning seats and every side's result."""

    number: int
    winners: tuple[int, ...]
    sides: tuple[SideResult, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "winners": list(self.winners),
            "sides": [side.to_json() for side in self.sides],
        }


@dataclass(frozen=True)
class Outcome:
    """The result of a whole match.

    `sides` gives each side's seats, its score in the last game, its skunk level in that game
    (0 none, 1 skunk, 2 double skunk) and the games it won; `games` lists every game played.
    `reason` is a short text with seat placeholders ("{p0} wins 121 to 87 (skunk)").
    """

    winners: tuple[int, ...]
    sides: tuple[SideResult, ...]
    reason: str
    games: tuple[GameResult, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "sides": [side.to_json() for side in self.sides],
            "reason": self.reason,
            "games": [game.to_json() for game in self.games],
        }


@runtime_checkable
class Variant(Protocol):
    """One game of the family. States are immutable; `apply` returns a new one and never mutates.

    `legal_moves(state, seat)` is empty exactly when `seat` is not in `to_move(state)`, and
    every move it lists is accepted by `apply` unchanged. `view(state, seat)` is the only thing
    a seat (or a spectator, seat None) is ever shown. `dump`/`load` round-trip exactly through
    JSON.
    """

    key: str
    name: str
    player_counts: tuple[int, ...]
    options_schema: dict[str, dict[str, Any]]

    def clean_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]: ...

    def teams(self, players: int) -> list[tuple[int, ...]]: ...

    def new_state(self, players: int, options: Mapping[str, Any] | None, seed: bytes) -> Any: ...

    def to_move(self, state: Any) -> frozenset[int]: ...

    def legal_moves(self, state: Any, seat: int) -> list[Move]: ...

    def apply(self, state: Any, seat: int, move: Move) -> tuple[Any, list[Event]]: ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def dump(self, state: Any) -> dict[str, Any]: ...

    def load(self, data: Mapping[str, Any]) -> Any: ...


VARIANTS: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    """Add a variant to the registry under its key (registering the same key twice is an error)."""
    existing = VARIANTS.get(variant.key)
    if existing is not None and existing is not variant:
        raise ValueError(f"a variant is already registered under {variant.key!r}")
    VARIANTS[variant.key] = variant
    return variant


def get_variant(key: str) -> Variant:
    """The variant registered under `key`; UnknownVariant (a KeyError) names the known keys."""
    try:
        return VARIANTS[key]
    except (KeyError, TypeError):
        known = ", ".join(variant_keys()) or "none"
        shown = repr(key) if len(repr(key)) <= 24 else repr(key)[:21] + "..."
        raise UnknownVariant(f"there is no game called {shown} (known: {known})") from None


def variant_keys() -> list[str]:
    return sorted(VARIANTS)


def describe(event: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    """The event's text with {p0}, {p1}... replaced by player names ("Player 1"... by default)."""
    return fill_names(str(event.get("text", "")), names)


def fill_names(text: str, names: Sequence[str] | None = None) -> str:
    """Replace the seat placeholders {p0}, {p1}... in any engine text (a prompt, a reason)."""
    return _SEAT_PLACEHOLDER.sub(lambda m: _seat_name(int(m.group(1)), names), text)


def seat_list(seats: Iterable[int]) -> str:
    """Placeholders for several seats joined in words: "{p0}", "{p0} and {p2}", "{p0}, {p1} and
    {p2}"."""
    marks = [f"{{p{seat}}}" for seat in seats]
    if len(marks) <= 1:
        return "".join(marks)
    return ", ".join(marks[:-1]) + " and " + marks[-1]


_SEAT_PLACEHOLDER = re.compile(r"\{p(\d+)\}")


def _seat_name(seat: int, names: Sequence[str] | None) -> str:
    if names is not None and seat < len(names) and names[seat]:
        return str(names[seat])
    return f"Player {seat + 1}"
