"""Small filters for the match templates: pick a seat's name, repeat a thing N times,
turn a legal move into the JSON a button posts, and say an engine's English text (a game's
name, an option's label) or a skunk in the reader's language."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext

from games import fragments
from games.texts import engine_text

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
        return gettext("%(seconds)d s") % {"seconds": seconds}
    minutes = seconds // 60
    if minutes < 60:
        return gettext("%(minutes)d min") % {"minutes": minutes}
    return gettext("%(hours)d h %(minutes)02d min") % {
        "hours": minutes // 60,
        "minutes": minutes % 60,
    }


@register.filter(name="engine_text")
def engine_text_filter(text: Any) -> str:
    """`{{ game.name|engine_text }}`: a text the engine marked with gettext_noop, in the
    reader's language (the English when the catalogue has none)."""
    return engine_text(str(text)) if text else ""


@register.filter
def skunk_words(side: dict[str, Any]) -> str:
    """`{{ side|skunk_words }}`: "skunk", "double skunk" or "" for a side of an outcome."""
    from games.presenters import skunk_text

    return skunk_text(side)


@register.filter
def players_words(count: Any) -> str:
    """`{{ match.players|players_words }}`: "2 players"."""
    try:
        number = int(count)
    except (TypeError, ValueError):
        return ""
    return ngettext("%(count)d player", "%(count)d players", number) % {"count": number}


@register.filter
def seat_tag_slot(index: int) -> str:
    """The place of a seat's "you" or "partner" tag in the shared players region."""
    return mark_safe(fragments.seat_tag_slot(int(index)))  # noqa: S308 (a comment made of a number)


class WithoutSeatNode(template.Node):
    def __init__(self, nodelist: template.NodeList, seat: Any) -> None:
        self.nodelist, self.seat = nodelist, seat

    def render(self, context: template.Context) -> str:
        html = self.nodelist.render(context)
        return mark_safe(fragments.without_seat(html, self.seat.resolve(context)))  # noqa: S308


@register.tag
def without_seat(parser, token) -> WithoutSeatNode:
    """`{% without_seat seat %}…{% endwithout_seat %}`: a drawing every viewer shares, each
    seat's own part marked <!--seat-part-N-->…<!--/seat-part-->, shown without the viewer's own
    part (a spectator's `seat` is None: every part is shown)."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError(f"'{bits[0]}' takes the viewer's seat")
    nodelist = parser.parse(("endwithout_seat",))
    parser.delete_first_token()
    return WithoutSeatNode(nodelist, parser.compile_filter(bits[1]))
