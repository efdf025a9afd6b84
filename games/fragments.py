"""The match page's shared regions, each drawn once for what it shows, whoever reads it.

A region's key is everything its fragment is drawn from (the names of games/match.html's
partials read, in the reader's language), so two viewers shown the same thing share one drawing,
and a region a move leaves alone (the actions, the error line, most of the time the log) is not
drawn again. A region whose key cannot be told (the game's own regions, the end of a match) is
drawn every time. The key holds the very data drawn, never less: a seat's entry can only ever be
handed to a viewer who would have drawn the same HTML from their own view, so no one is shown
what they may not see.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from cribsite.kept import CSRF_SLOT, Kept

# Regions drawn for a page are shared too: their forms hold CSRF_SLOT (the kept pieces' and
# pages'), where each request puts its own token (presenters.page_regions, kept_page).
CACHE_SIZE = 8192
_cache = Kept(CACHE_SIZE)
drawn: Counter[str] = Counter()  # region -> times drawn (not taken from the cache), for tests


def seat_tag_slot(index: int) -> str:
    """Where a seat's "you" or "partner" tag goes in the players region, which is drawn once
    for every viewer (presenters.players_region fills it in for each)."""
    return f"<!--seat-{index}-tag-->"


# A seat's own part of a drawing shared by every viewer (the other hands on a board): marked
# <!--seat-part-N-->...<!--/seat-part-->, and cut out for seat N itself (without_seat).
SEAT_PART = re.compile(r"<!--seat-part-(\d+)-->(.*?)<!--/seat-part-->", re.DOTALL)


def without_seat(html: str, seat: int | None) -> str:
    """`html` with seat's own marked part left out and every other part kept, unmarked."""
    own = None if seat is None else str(seat)
    return SEAT_PART.sub(lambda part: "" if part[1] == own else part[2], html)


def _seen(context: dict[str, Any]) -> tuple:
    """What every region shows of the match itself."""
    match = context["match"]
    return (match.pk, match.status, match.is_over)


def _status(context: dict[str, Any]) -> tuple | None:
    if context["match"].is_over:
        return None  # the outcome: drawn from much of the match, once at the end
    return (*_seen(context), context["your_turn"], context["prompt"])


def _players(context: dict[str, Any]) -> tuple:
    view = context["view"]
    return (
        *_seen(context),
        tuple(context["seats"]),  # frozen dataclasses (presenters.Seating), hashable
        tuple(view["to_move"]) if view else None,
        repr(context["seat_tags"]),
        tuple((s["name"], s["score"], s.get("games_won")) for s in context["sides"]),
        context["show_games_won"],
        context["away_limit"],
    )


def _events(context: dict[str, Any]) -> tuple:
    return tuple(context["events"])


def _actions(context: dict[str, Any]) -> tuple:
    match = context["match"]
    return (
        *_seen(context),
        context["is_player"],
        context["is_creator"],
        tuple(s.name for s in context["claimable"]),
        len(context["seats"]),
        len(context["sides"]),
        context["can_abort"],
        context["can_resign"],
        match.seed_sha256,
        match.seed if match.is_over else None,
    )


def _error(context: dict[str, Any]) -> tuple:
    return (str(context["move_error"] or ""),)


def _seq(context: dict[str, Any]) -> tuple:
    return (context["match"].seq,)


KEYS: dict[str, Callable[[dict[str, Any]], tuple | None]] = {
    "seq": _seq,
    "you_tag": lambda context: (),
    "partner_tag": lambda context: (),
    "status": _status,
    "players": _players,
    "events": _events,
    "actions": _actions,
    "error": _error,
}


class Tight(str):
    """A region's HTML that is tight already (see `tight`), drawn so by a game's Python drawer or
    put together from tight pieces: it is not gone over again at every push."""


def tight(html: str) -> str:
    """A fragment without its templates' indentation: each run of white space that holds a line
    break becomes one line break, which HTML renders alike (about 15% fewer bytes a push). Left
    whole where white space is kept as written. (The regular expression \\s*\\n\\s* does the
    same, four times slower: tests/web/test_fragments.py holds them to the same answers.) A
    region that is Tight (a Parted one too) is left as it is."""
    if isinstance(html, Tight) or "<pre" in html or "<textarea" in html:
        return html
    lines = html.split("\n")
    if len(lines) == 1:
        return html
    last = len(lines) - 1
    kept = [lines[0].rstrip()]
    kept += [line for line in (middle.strip() for middle in lines[1:last]) if line]
    kept.append(lines[last].lstrip())
    return "\n".join(kept)


def region(
    template: str,
    name: str,
    context: dict[str, Any],
    finish: Callable[[str], str] = str,
    *,
    draw: Callable[[dict[str, Any]], str] | None = None,
    key: Callable[[dict[str, Any]], tuple | None] | None = None,
    language: str | None = None,
) -> str:
    """The region `name` drawn by `template` from `context` (with its "oob" flag) and passed
    through `finish`, taken from the cache when the same was drawn before in the same language.
    A context made for one request (its own CSRF token in the forms) is drawn every time.
    `draw`, when given, draws the region in Python in place of the template (`template` then
    only names it in the cache). `key`, when given, says what a game's own part is drawn from
    (as KEYS does for the page's shared regions). `language`, when given, is the active one,
    read once by a caller drawing many regions."""
    if draw is None:
        draw = partial(render_to_string, template)
    key_of = key or KEYS.get(name)
    private = "request" in context or context.get("csrf_token", CSRF_SLOT) != CSRF_SLOT
    part = key_of(context) if key_of is not None and not private else None
    if part is None:
        drawn[name] += 1
        return finish(draw(context))
    key = (template, bool(context.get("oob")), language or translation.get_language(), part)
    html = _cache.get(key)
    if html is not None:
        return html
    html = finish(draw(context))
    drawn[name] += 1
    _cache.put(key, html)
    return html


# --- regions sent in parts ------------------------------------------------------------------

OUT_OF_BAND = ' hx-swap-oob="true"'


class Parted(Tight):
    """A region's HTML that a push may send a part at a time: a large region of which a move
    changes little (the Kings board: 13 rows of 13 squares, a tile or a few laid at a time).

    `parts` are (id, html) pairs, each html one whole element of the region with that id, in
    the order they stand; `frame` stands for everything of the region outside its parts. Two
    drawings with the same frame and the same part ids differ only inside their parts, so a
    page that shows one becomes the other when it is sent the parts that changed (`changes`).
    A game's region drawer (WebGame.regions) returns one, already tight."""

    frame: str
    parts: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, html: str, frame: str, parts: tuple[tuple[str, str], ...]) -> Parted:
        drawn = cls(html)
        drawn.frame, drawn.parts = frame, parts
        return drawn


def changes(before: str | None, after: str) -> str:
    """What a page showing the region `before` (None: nothing sent yet) must be sent to show
    `after`: the parts that changed, each swapped by its id, when both are Parted with the same
    frame; otherwise the whole region."""
    if (
        isinstance(after, Parted)
        and isinstance(before, Parted)
        and before.frame == after.frame
        and len(before.parts) == len(after.parts)
    ):
        changed = []
        for (old_id, old), (new_id, new) in zip(before.parts, after.parts, strict=True):
            if old_id != new_id:
                return after
            if old is not new and old != new:
                changed.append(new.replace(">", OUT_OF_BAND + ">", 1))
        return "".join(changed)
    return after
