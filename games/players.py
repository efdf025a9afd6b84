"""The match page's "players" region (who is at the table, and the scores), drawn in Python.

It is drawn at nearly every move (whose turn it is changes), once for every viewer of the
board (presenters.players_region puts each viewer's own "you" and "partner" tags in), for every
game; the template engine took about 0.35 ms to draw it. Every text is the catalogue's, with the
template's own message ids, and every value is escaped as the template engine escapes it;
tests/web/test_players_region.py holds the HTML to the template partial it replaced
(tests/web/players_reference.html), line for line.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.utils.html import escape
from django.utils.text import slugify
from django.utils.translation import get_language, gettext, ngettext

from games import fragments
from games.markup import text
from games.templatetags.match_tags import at
from games.texts import engine_text


@lru_cache(maxsize=16)
def _phrases(language: str) -> dict[str, str]:
    """The region's fixed words in `language` (the active one: it is the key), escaped: looked
    up once, not at every drawing."""
    words = {
        "here": gettext("connected"),
        "gone": gettext("not connected"),
        "moving": gettext("to move"),
        "title": gettext("At the table"),
        "away": gettext("away"),
        "scores": gettext("Scores"),
    }
    return {name: escape(word) for name, word in words.items()}


def players_html(context: Mapping[str, Any]) -> str:
    """The region from the match page's context: seats (presenters.Seating), view, seat_tags,
    sides, show_games_won, away_limit, match and oob."""
    view = context.get("view")
    to_move = set(view.get("to_move") or ()) if view else set()
    match = context["match"]
    away_shown = not match.is_over and match.status == "active"
    words = _phrases(get_language())
    here, gone, moving = words["here"], words["gone"], words["moving"]
    tags_of = context.get("seat_tags") or {}
    oob = ' hx-swap-oob="true"' if context.get("oob") else ""
    out = [
        f'<section id="players" class="panel"{oob} aria-labelledby="players-title">',
        f'<h2 id="players-title">{words["title"]}</h2>',
        '<ul class="seats">',
    ]
    for s in context.get("seats") or ():
        mover = s.index in to_move
        name = text(s.name)
        out += [
            f'<li class="seat team-{text(s.team)}{" is-to-move" if mover else ""}"'
            f' data-to-move="{moving}">',
            f'<span class="presence {"is-here" if s.connected else "is-away"}"'
            f' title="{here if s.connected else gone}"></span>',
            '<span class="seat-name">',
            f'<a href="{text(s.profile_url)}">{name}</a>' if s.profile_url else name,
            fragments.seat_tag_slot(int(s.index)),
            f'<span class="tag">{text(s.computer_tag)}</span>' if s.computer_tag else "",
            "".join(
                f'<span class="tag tag-{text(slugify(tag))}">{text(_engine(tag))}</span>'
                for tag in at(tags_of, s.index) or ()
            ),
            "</span>",
            f'<span class="sr-only">{here if s.connected else gone}'
            f"{', ' + moving if mover else ''}</span>",
        ]
        if s.away_seconds is not None and away_shown:
            out.append(
                f'<span class="away" data-seat="{text(s.index)}"'
                f' data-away-left="{text(context.get("away_limit"))}"'
                f' data-away-seconds="{text(s.away_seconds)}">{words["away"]}</span>'
            )
        out.append("</li>")
    out.append("</ul>")
    sides = context.get("sides")
    if sides:
        games = context.get("show_games_won")
        scores = []
        for number, side in enumerate(sides):
            won = ""
            if games:
                count = side.get("games_won")
                said = ngettext("%(games)s game won", "%(games)s games won", count)
                won = f' <span class="muted small">({said % {"games": text(count)}})</span>'
            scores.append(
                f'<li class="score team-{number}"><span>{text(side.get("name", ""))}</span>'
                f" <strong>{text(side.get('score', ''))}</strong>{won}</li>"
            )
        out += [
            f'<ul class="scores{" with-games" if games else ""}" aria-label="{words["scores"]}">',
            "".join(scores),
            "</ul>",
        ]
    out.append("</section>")
    return "\n".join(out)


def _engine(tag: Any) -> str:
    return engine_text(str(tag)) if tag else ""
