"""Helpers for immutable game states: fast copies with changes, and tuple updates."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")
_FIELDS: dict[type, tuple[str, ...]] = {}
_set_field = object.__setattr__


def evolve(state: T, **changes: Any) -> T:
    """A copy of a frozen dataclass `state` with some fields changed: `dataclasses.replace`,
    about twice as fast. The copy is made field by field without running __init__; an unknown
    field name raises AttributeError when the class has slots."""
    cls = type(state)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    new = object.__new__(cls)
    for name in names:
        _set_field(new, name, getattr(state, name))
    for name, value in changes.items():
        _set_field(new, name, value)
    return new


def with_item(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """A copy of the tuple with one item replaced."""
    return (*items[:index], value, *items[index + 1 :])


def next_seat(seat: int, players: int, step: int = 1) -> int:
    """The seat `step` places to the left (clockwise) of `seat`."""
    return (seat + step) % players


def seats_from(first: int, players: int) -> list[int]:
    """Every seat once, clockwise, starting with `first`."""
    return [(first + i) % players for i in range(players)]
