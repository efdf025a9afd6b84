"""Events: what a move made happen, public to every seat, in words and in data.

An event is a plain JSON dict: {"kind": str, "seat": int | None, "text": str} plus its
parameters (cards, points, seats, reasons) under their own keys, so a page can render it in
another language from the kind and parameters without parsing the English `text`. Every event
is public: it never names a piece that some seat may not see yet. `text` names players by seat
placeholders such as {p0} and {p1}; `describe` fills them in.
"""

from __future__ import annotations

import marshal
from collections.abc import Hashable, Mapping
from typing import Any

Event = dict[str, Any]
FrozenEvent = tuple[tuple[str, Any], ...]  # an event dict frozen into key/value pairs


def event(
    kind: str, seat: int | None, text: str, points: int | None = None, **params: object
) -> Event:
    """A public event; `text` names seats as {p0}, {p1}... and `params` carry its data."""
    data: Event = {"kind": kind, "seat": seat, "text": text}
    if points is not None:
        data["points"] = points
    data.update(params)
    return data


def freeze_event(item: Mapping[str, Any]) -> FrozenEvent:
    """An event as a hashable value for an immutable state (lists become tuples)."""
    return tuple(
        [(key, value if type(value) in _PLAIN else _frozen(value)) for key, value in item.items()]
    )


def thaw_event(item: FrozenEvent) -> Event:
    """The event dict back from `freeze_event`, JSON-ready."""
    return {key: value if type(value) in _PLAIN else _thawed(value) for key, value in item}


def event_key(item: Mapping[str, Any]) -> Hashable:
    """A hashable key that equal events share (to keep what is worked out from one): the event
    as marshal writes it, several times quicker than freezing it, and telling True from 1 and
    1 from 1.0, which == does not; for a value marshal cannot write, the event frozen."""
    try:
        return marshal.dumps(item, 2)
    except ValueError:
        return freeze_event(item)


# Values kept as they are: checked by exact type first, as a state loads every event of its log
# (most values are plain); a subclass of one of these goes the longer way, to the same answer.
_PLAIN = frozenset({str, int, float, bool, type(None)})


def _frozen(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is list or kind is tuple or isinstance(value, list | tuple):
        return tuple([_frozen(v) for v in value])
    if isinstance(value, dict):
        return ("__dict__", tuple([(k, _frozen(v)) for k, v in value.items()]))
    return value


def _thawed(value: Any) -> Any:
    if isinstance(value, tuple):
        if len(value) == 2 and value[0] == "__dict__":
            return {k: _thawed(v) for k, v in value[1]}
        return [_thawed(v) for v in value]
    return value
