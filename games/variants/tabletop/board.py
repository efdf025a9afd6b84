"""The Table Top (and CrossCrib) board region, drawn in Python (WebGame.regions["board"]):
board_region(context) reads the match page's context for the region (match, view, names, sides,
seats, oob, csrf_token).

The board is drawn at every move for every seat and a spectator, and the table template's
"board" partial took about 0.5 ms a viewer to draw it. Here it is drawn once for all who see the
same board: the seats with no square to choose and the spectators are shown the same layout, so
a drawing is kept under everything it shows (the squares this seat may choose included) and the
reader's language. Every text is the catalogue's, with the template's own message ids, and every
value is escaped as the template engine escapes it; tests/web/test_tabletop_board.py holds the
HTML to the partial, which still draws the replay's board, byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.html import escape
from django.utils.translation import get_language, gettext, ngettext, pgettext

from cribsite.kept import CSRF_SLOT, Kept
from cribsite.remembered_url import remembered_reverse
from games.markup import move_fields, text
from games.templatetags.cards import card
from games.templatetags.match_tags import at
from games.templatetags.voice import callouts
from games.variants.tabletop.templatetags.tabletop_table import (
    choices,
    deal_sides,
    layout_squares,
)
from games.variants.tabletop.texts import MOVES

# The view's entries the board is drawn from, besides the seat's own choices on the layout.
BOARD_FIELDS = (
    "deal", "dealer", "sides", "running", "board", "centre", "open_squares", "advice", "last",
    "previous", "rules",
)  # fmt: skip
CHOICES = ("place", "advise")  # the moves the layout's squares post
BOARDS_KEPT = 1024
_boards = Kept(BOARDS_KEPT)
boards_drawn = 0  # drawings made, not taken from _boards (for tests)


def board_region(context: Mapping[str, Any]) -> str:
    """The match page's board region, as the table template's "board" partial draws it: the
    deal, each side's lines and scores, the layout and, after a deal, its count."""
    if context.get("csrf_token", CSRF_SLOT) != CSRF_SLOT:
        return _board_html(context)  # a form with a request's own token: never kept
    key = _board_key(context)
    drawn = _boards.get(key)
    if drawn is None:
        drawn = _board_html(context)
        global boards_drawn
        boards_drawn += 1
        _boards.put(key, drawn)
    return drawn


def _board_key(context: Mapping[str, Any]) -> tuple:
    """Everything the board shows: the view's public entries, the squares this seat may choose,
    the names, the game and its latest move's events (what the callouts say), the match's move
    address and seq, the forms' token (a page's slot; none for a socket), out of band or not,
    and the language."""
    view, match = context["view"], context["match"]
    choices = [move for move in view.get("legal_moves") or () if move.get("type") in CHOICES]
    return (
        get_language(),
        getattr(context.get("web"), "key", None),
        bool(context.get("oob")),
        context.get("csrf_token"),
        match.pk,
        match.seq,
        tuple(context.get("names") or ()),
        tuple(side["name"] for side in context.get("sides") or ()),
        tuple((s.index, s.team) for s in context.get("seats") or ()),
        repr([view.get(field) for field in BOARD_FIELDS]),
        repr(choices),
        repr(_latest_move(view.get("events") or [])),
    )


def _latest_move(events: list[Any]) -> list[Any]:
    """The events of the latest move, which the callouts tell (as games.texts.callouts reads
    them)."""
    start = max((i for i, e in enumerate(events) if e.get("kind") in MOVES), default=0)
    return events[start:]


def _board_html(context: Mapping[str, Any]) -> str:
    """The board as the partial draws it, line for line (the template's blank lines and
    indentation as fragments.tight leaves them)."""
    view, names, sides = context["view"], context.get("names") or (), context.get("sides") or ()
    oob = ' hx-swap-oob="true"' if context.get("oob") else ""
    deal = gettext("Deal %(deal)s · %(dealer)s deals") % {
        "deal": text(view.get("deal")),
        "dealer": text(at(names, view.get("dealer"))),
    }
    label = gettext("The layout")
    out = [
        "",
        f'<section id="board" class="board tt-board"{oob} aria-label="{label}">',
        f'<p class="deal-info muted small">{deal}</p>',
        *_scores(sides),
        *_layout(context, view),
        *_callouts(context),
        *_count(view, sides),
        "</section>",
        "",
    ]
    return "\n".join(out)


def _scores(sides) -> list[str]:
    """Each side's lines (the colour of its totals on the layout), this deal's points so far
    and its score."""
    rows = "".join(
        f'<tr class="team-{index}"><th scope="row">{text(side["name"])}</th>'
        f'<td class="tt-lines">{_lines_word(side["lines"])}</td>'
        f"<td>{text(side['running'])}</td><td>{text(side['score'])}</td></tr>"
        for index, side in enumerate(sides)
    )
    this_deal, score = gettext("This deal"), gettext("Score")
    return [
        '<table class="tt-scores" data-scores>',
        f'<thead><tr><td></td><td></td><th scope="col">{this_deal}</th>'
        f'<th scope="col">{score}</th></tr></thead>',
        "<tbody>",
        rows,
        "</tbody>",
        "</table>",
    ]


def _lines_word(lines: str) -> str:
    if lines == "rows":
        return pgettext("the lines of the layout", "rows")
    return pgettext("the lines of the layout", "columns")


def _layout(context: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
    """The layout's form: its squares (buttons where this seat may choose) and line totals."""
    _, action = choices(view)
    url = escape(remembered_reverse("match_move", context["match"].pk))
    if action == "place":
        label = gettext("The 5x5 layout: choose a highlighted square for your card")
    elif action == "advise":
        label = gettext("The 5x5 layout: suggest a square to your partner")
    else:
        label = gettext("The 5x5 layout")
    choosing = " is-choosing" if action else ""
    return [
        f'<form id="move-square" class="tt-form" method="post" action="{url}" hx-post="{url}"'
        ' hx-swap="none">',
        move_fields(context, context["match"]),
        f'<div class="tt-grid{choosing}" data-from="turned" role="group" aria-label="{label}"'
        f' data-action="{text(action or "")}">',
        layout_squares(view),
        "</div>",
        "</form>",
    ]


def _callouts(context: Mapping[str, Any]) -> list[str]:
    """What the table calls out for the latest move (games/callout.html): nothing when it made
    no points, as most moves do."""
    latest = _latest_move(context["view"].get("events") or [])
    if not any(int(event.get("points") or 0) > 0 for event in latest):
        return []
    callout = callouts(context)
    if not callout["said"]:
        return []
    voice = text(callout["key"])
    return [
        "".join(
            f'<p class="callout team-{text(said["team"])}" data-voice="{voice}">'
            f'<strong aria-hidden="true">+{text(said["points"])}</strong> '
            f'<span class="say">{text(said["who"])}: {text(said["text"])}</span></p>'
            for said in callout["said"]
        )
    ]


def _count(view: Mapping[str, Any], sides) -> list[str]:
    """The count of the deal just finished, line by line for each side; during a deal, the
    points of the one before."""
    counted = deal_sides(view.get("last"), sides)
    if counted:
        deal = text(view["last"]["deal"])
        label = gettext("The count of deal %(deal)s") % {"deal": deal}
        title = gettext("Deal %(deal)s: the count") % {"deal": deal}
        out = [
            f'<section class="tt-count" aria-label="{label}">',
            f"<h2>{title}</h2>",
            '<div class="tt-count-sides">',
        ]
        for side in counted:
            out += _counted_side(side, bool((view.get("rules") or {}).get("crib_each")))
        return [*out, "</div>", "</section>"]
    if view.get("previous"):
        points = view["previous"]["hand_points"]
        each = ", ".join(
            f"{text(side['name'])} {text(at(points, index))}" for index, side in enumerate(sides)
        )
        last = gettext("Last deal:")
        return [f'<p class="muted small">{last} {each}.</p>']
    return []


def _counted_side(side: Mapping[str, Any], game_points: bool) -> list[str]:
    """One side's lines as counted (and the dealer's crib), with the game points it gains."""
    lines = gettext("the rows") if side["lines"] == "rows" else gettext("the columns")
    out = [
        f'<section class="tt-count-side team-{text(side["side"])}">',
        f'<h3>{text(side["name"])} <span class="muted small">{lines}</span>'
        f' <span class="tt-count-points">{text(side["hand_points"])}</span></h3>',
        '<ol class="tt-lines">',
    ]
    for line in side["items"]:
        out += _counted_line(
            "tt-line", text(line["title"]), line["cards"], line["points"], text(line["count"])
        )
    crib = side["crib"]
    if crib:
        count = gettext("with the centre card as starter: %(count)s") % {
            "count": text(crib["breakdown"])
        }
        out += _counted_line(
            "tt-line tt-crib-line", gettext("Crib"), crib["cards"], crib["points"], count
        )
    out.append("</ol>")
    if game_points:
        out.append(f'<p class="small">{_gains(side["gained"])}</p>')
    return [*out, "</section>"]


def _counted_line(classes: str, name: str, cards, points, count: str) -> list[str]:
    """A counted line (or the crib): its name, its cards, its points and its count in words."""
    return [
        f'<li class="{classes}">',
        f'<span class="tt-line-name">{name}</span>',
        f'<span class="fan">{"".join(card(c, "small") for c in cards)}</span>',
        f'<strong class="tt-line-points">{text(points)}</strong>',
        f'<span class="breakdown small">{count}</span>',
        "</li>",
    ]


def _gains(gained: Any) -> str:
    """The game points a side gains from the deal (CrossCrib)."""
    if not gained:
        return gettext("No game points this deal.")
    return ngettext(
        "Gains <strong>%(gained)s</strong> game point.",
        "Gains <strong>%(gained)s</strong> game points.",
        gained,
    ) % {"gained": text(gained)}
