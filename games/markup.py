"""Helpers for the regions drawn in Python rather than by templates (games/players.py, a game's
WebGame.regions): values written as Django's template engine writes them."""

from __future__ import annotations

from typing import Any

from django.utils.html import conditional_escape


def text(value: Any) -> str:
    """`value` as `{{ value }}` writes it: escaped (unless already safe)."""
    return str(conditional_escape(value))
