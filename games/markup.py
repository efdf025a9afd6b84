"""Helpers for the regions drawn in Python rather than by templates (games/players.py, a game's
WebGame.regions): values written as Django's template engine writes them."""

from __future__ import annotations

from html import escape
from typing import Any

from django.utils.functional import Promise


def text(value: Any) -> str:
    """`value` as `{{ value }}` writes it: escaped (unless already safe).

    Django's conditional_escape, without its lazy-string wrapper around escape: a drawing
    writes a few dozen values a viewer, most of them plain strings and numbers
    (tests/web/test_markup.py holds the two to the same answers)."""
    if type(value) is str:
        return escape(value)
    if isinstance(value, Promise):
        value = str(value)
    html = getattr(value, "__html__", None)
    return str(html()) if html is not None else escape(str(value))
