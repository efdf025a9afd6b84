"""Marking the engine's English words for the site's translations, without importing Django.

The engine speaks English only. Text the site shows to people (option labels, game names,
messages of an IllegalMove) is written as `gettext_noop("...")`: this returns the text
unchanged, and the site's message extraction (Django's makemessages, which knows the name
`gettext_noop`) lists it in the catalogue, so the site can look the same text up in the
reader's language. Templates keep named fields ("{card}"), filled in after the look-up.
"""

from __future__ import annotations


def gettext_noop(text: str) -> str:
    """The text itself; marks it for the site's catalogue."""
    return text
