"""Checking that a page shown in Spanish has no English left in it.

`english_left(html)` returns the English-only words found in what a person reads on the page:
its text and the attributes read aloud or shown (title, aria-label, placeholder, alt, value of
buttons). Scripts, styles, URLs, names of people and card codes are not looked at. The list
holds common English words that are not also Spanish words, so a hit means a text that was
not translated.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

ENGLISH_ONLY = frozenset(
    re.findall(
        r"\S+",
        """
    the and your you with from for this that what when which who will would should
    play plays played playing player players game games match matches hand hands crib
    turn wins won lost lose draw deal dealer cards card score scores points point
    start started join waiting open seats seat table board show count counts
    new next back home log in out sign account password name rules history
    tournaments tournament round rounds standings results result leaderboards
    rating ratings computer easy strong level options option choose submit save
    please yes not none nothing only more less than then there their they them
    here how why about after before because been being both each every
    """,
    )
)
READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
IGNORED_TAGS = {"script", "style", "code", "kbd", "samp", "svg"}


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in IGNORED_TAGS:
            self._skip += 1
        attributes = dict(attrs)
        if attributes.get("translate") == "no" or "data-no-translate" in attributes:
            return
        self.parts.extend(str(attributes[a]) for a in READ_ATTRIBUTES if attributes.get(a))

    def handle_endtag(self, tag):
        if tag in IGNORED_TAGS and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def readable_text(html: str) -> str:
    reader = _Reader()
    reader.feed(html)
    return " ".join(reader.parts)


def english_left(html: str, *, allowed: frozenset[str] = frozenset()) -> list[str]:
    """English-only words in the readable text of `html` (lower-cased, each once)."""
    words = re.findall(r"[A-Za-z']+", readable_text(html))
    found = {w.lower() for w in words} & (ENGLISH_ONLY - allowed)
    return sorted(found)
