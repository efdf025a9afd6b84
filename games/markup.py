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
    if type(value) is int:
        return str(value)
    if isinstance(value, Promise):
        value = str(value)
    html = getattr(value, "__html__", None)
    return str(html()) if html is not None else escape(str(value))


def move_fields(context: Any, match: Any) -> str:
    """The hidden fields every move form posts (games/move_fields.html): the CSRF token, when
    the region is drawn for a page, and the seq of the board the move was chosen on."""
    token = context.get("csrf_token")
    csrf = (
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{text(token)}">'
        if token and token != "NOTPROVIDED"  # noqa: S105 (Django's mark for "no token here")
        else ""
    )
    return f'{csrf}<input type="hidden" name="seq" value="{text(match.seq)}">'
