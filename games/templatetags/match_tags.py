"""Small filters for the match templates: pick a seat's name, repeat a thing N times,
and turn a legal move into the JSON a button posts."""

from __future__ import annotations

import json
from typing import Any

from django import template

register = template.Library()


@register.filter
def at(items: Any, index: Any) -> Any:
    """`{{ names|at:view.turn }}`: the item at a position, or '' when there is none."""
    try:
        return items[int(index)]
    except (TypeError, ValueError, IndexError, KeyError):
        return ""


@register.filter
def times(count: Any) -> range:
    """`{% for _ in count|times %}`: loop a number of times."""
    try:
        return range(max(0, int(count)))
    except (TypeError, ValueError):
        return range(0)


@register.filter
def move_json(move: dict[str, Any]) -> str:
    """A legal move as the JSON string a button's value carries (autoescaped in the page)."""
    return json.dumps(move, separators=(",", ":"), sort_keys=True)


@register.simple_tag
def legal_of(legal_moves: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """`{% legal_of view.legal_moves "play" as plays %}`: the legal moves of one type."""
    return [m for m in legal_moves or [] if m.get("type") == kind]


@register.filter
def duration(value) -> str:
    """A timedelta as a short length of play: '42 min', '1 h 05 min', '35 s'."""
    try:
        seconds = int(value.total_seconds())
    except AttributeError:
        return ""
    if seconds < 60:
        return f"{seconds} s"
    minutes = seconds // 60
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"
