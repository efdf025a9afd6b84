"""The Cribbage board region, drawn in Python (WebGame.regions["board"]): board_region(context)
reads the match page's context for the region (view, seat, names, side_names, seats, web, oob).

The one place of the Cribbage table whose markup is written in Python rather than in a template
(as the Kings board's squares are): it is drawn at every move of every match, for every viewer,
and the template engine took about 0.9 ms to draw it and 0.15 ms a viewer to find it in the
cache. Every text is the catalogue's, with the template's own message ids, and every value is
escaped as the template engine escapes it; tests/web/test_cribbage_board.py holds the HTML to
the template partial it replaced (tests/web/cribbage_board_reference.html), line for line.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, ngettext, pgettext

from cribsite.kept import Kept
from games import fragments, texts
from games.markup import text
from games.templatetags.cards import card, card_back
from games.templatetags.match_tags import at
from games.variants.cribbage.templatetags.cribbage_table import pegboard

# The view's entries the board is drawn from (all of them public: every seat's view and a
# spectator's hold the same values), and so the key of a drawing.
BOARD_FIELDS = (
    "options", "sides", "game", "hand_number", "dealer", "starter", "crib", "crib_count",
    "count", "phase", "current", "earlier", "seat_sides", "held_counts", "discarded", "hands",
)  # fmt: skip
TABLES_KEPT = 1024
ALL_SEATS = "all"  # a drawing's entry for every seat's hand, before one is left out
_tables = Kept(TABLES_KEPT)
tables_drawn = 0  # drawings made, not taken from _tables (for tests)


def board_region(context: Mapping[str, Any]) -> str:
    """The match page's board region, the table template's "board" partial drawn in Python
    (WebGame.regions): the section and what lies on the table."""
    oob = ' hx-swap-oob="true"' if context.get("oob") else ""
    label = _phrases(get_language())["board"]
    inner = cribbage_board(context)
    return fragments.Tight(
        f'<section id="board" class="board"{oob} aria-label="{label}">\n{inner}\n</section>'
    )


def cribbage_board(context: Mapping[str, Any]) -> SafeString:
    """What lies on the table: the pegboard, the deal, the starter, the crib, the count, the
    cards played and the other hands, as HTML for the board region.

    Built here rather than by the template engine: the board is drawn at every move, and the
    template took about 0.9 ms to draw it and 0.15 ms a viewer to find it in the cache
    (tests/web/test_cribbage_board.py holds this to the template it replaces). It is drawn once
    for every viewer, keyed by every entry of the view it shows, the names and the language;
    each seat's own hand among the others is then left out of what that seat is shown (and that
    is kept with the drawing, by seat, already tight: presenters.render_regions leaves a Tight
    region as it is).
    """
    view = context["view"]
    names = list(context.get("names") or ())
    side_names = list(context.get("side_names") or ())
    teams = tuple((s.index, s.team) for s in context.get("seats") or ())
    web = context.get("web")
    playing = view.get("phase") == "play"
    key = (
        get_language(),
        getattr(web, "key", None),
        tuple(names),
        tuple(side_names),
        teams,
        repr([view.get(field) for field in BOARD_FIELDS]),
        repr(view.get("events")) if playing else None,  # what the callouts say
    )
    drawn = _tables.get(key)
    if drawn is None:
        callout = _callouts(web, view, names, dict(teams)) if playing else None
        drawn = {ALL_SEATS: _board_html(view, names, side_names, callout)}
        global tables_drawn
        tables_drawn += 1
        _tables.put(key, drawn)
    seat = context.get("seat")
    shown = drawn.get(seat)
    if shown is None:  # what this seat is shown, kept with the drawing for the next push
        shown = drawn[seat] = mark_safe(  # noqa: S308 (escaped)
            fragments.tight(fragments.without_seat(drawn[ALL_SEATS], seat))
        )
    return shown


def _callouts(web, view, names, teams) -> dict[str, Any]:
    if web is None:
        return {"key": "", "said": []}
    found = texts.callouts(web, view, names)
    for said in found["said"]:
        said["team"] = teams.get(said["seat"], said["seat"])
    return found


def _board_html(view, names, side_names, callout) -> str:
    """The board as the template drew it, line for line (each seat's hand among the others
    marked as fragments.without_seat expects)."""
    options = view.get("options") or {}
    language = get_language()  # read once for every word and card drawn
    words = _phrases(language)
    dealer = text(at(names, view.get("dealer")))
    back = words["back"]
    pegs = pegboard(view["sides"], options.get("target"), side_names)
    out = [f'<div class="pegboard-wrap">{pegs}</div>']
    deal = ""
    if (options.get("games") or 0) > 1:
        deal = words["game"] % {"number": text(view.get("game"))} + " · "
    deal += words["hand"] % {"number": text(view.get("hand_number"))} + " · "
    deal += words["deals"] % {"player": dealer}
    out += ['<p class="deal-info muted small">', deal, "</p>", '<div class="felt">']
    starter = view.get("starter")
    crib_of = words["crib of"] % {"player": dealer}
    out += [
        '<div class="spot spot-starter">',
        f'<span class="spot-label">{words["starter"]}</span>',
        card(starter, language=language) if starter else card_back(label=back, language=language),
        "</div>",
        '<div class="spot spot-crib">',
        f'<span class="spot-label">{crib_of}</span>',
    ]
    if view.get("crib"):
        crib = "".join(card(c, "small", language=language) for c in view["crib"])
        out.append(f'<span class="fan">{crib}</span>')
    elif view.get("crib_count"):
        backs = card_back("small", back, language=language) * max(0, int(view["crib_count"]))
        out.append(f'<span class="fan" data-pile="crib">{backs}</span>')
    else:
        out.append(f'<span class="muted small">{words["empty crib"]}</span>')
    count = text(view.get("count"))
    out += [
        "</div>",
        '<div class="spot spot-count" aria-live="polite">',
        f'<span class="spot-label">{words["count"]}</span>',
        f'<strong class="count" data-count="{count}">{count}</strong>',
        "</div>",
    ]
    if view.get("phase") == "play":
        out += _plays_html(view, names, callout, language)
    out += [
        "</div>",
        f'<ul class="others" aria-label="{words["others"]}">',
    ]
    hands, discarded = view.get("hands"), view.get("discarded") or ()
    for seat, held in enumerate(view.get("held_counts") or ()):
        name = text(at(names, seat))
        out += [
            f"<!--seat-part-{seat}-->",
            f'<li data-source="seat-{seat}"><span class="other-name">{name}</span>',
        ]
        if hands:
            fan = "".join(card(c, "small", language=language) for c in at(hands, seat))
            out.append(f'<span class="fan">{fan}</span>')
        else:
            many = ngettext("%(n)s card", "%(n)s cards", held) % {"n": text(held)}
            backs = card_back("small", back, language=language) * max(0, int(held))
            out.append(f'<span class="fan" aria-label="{many}">{backs}</span>')
            if view.get("phase") == "discard" and not at(discarded, seat):
                out.append(f'<span class="muted small">{words["choosing"]}</span>')
        out += ["</li>", "<!--/seat-part-->"]
    out.append("</ul>")
    return "\n".join(out)


def _plays_html(view, names, callout, language: str) -> list[str]:
    """The play's spot: the cards of this count, the callouts and the earlier counts."""
    words = _phrases(language)
    out = [
        '<div class="spot spot-plays">',
        f'<span class="spot-label">{words["on the table"]}</span>',
    ]
    current, sides = view.get("current"), view.get("seat_sides") or ()
    if current:
        just = f'<span class="sr-only">{words["just played"]}</span>'
        plays = []
        for i, play in enumerate(current):
            last = i == len(current) - 1
            team = text(at(sides, play["seat"]))
            plays.append(
                f'<li class="play team-{team}{" is-last" if last else ""}"'
                f' data-from="seat-{text(play["seat"])}">'
                f"{card(play['card'], 'small', language=language)}"
                f'<span class="play-by">{text(at(names, play["seat"]))}{just if last else ""}'
                "</span></li>"
            )
        out += ['<ol class="plays">', "".join(plays), "</ol>"]
    elif view.get("earlier"):
        out.append(f'<span class="muted small">{words["new count"]}</span>')
    else:
        out.append(f'<span class="muted small">{words["none played"]}</span>')
    out.append(
        "".join(
            f'<p class="callout team-{text(said["team"])}" data-voice="{text(callout["key"])}">'
            f'<strong aria-hidden="true">+{text(said["points"])}</strong> <span class="say">'
            f"{text(said['who'])}: {text(said['text'])}</span></p>"
            for said in callout["said"]
        )
    )
    if view.get("earlier"):
        counts = "".join(
            '<span class="earlier-count">'
            + "".join(card(p["card"], "small", language=language) for p in count)
            + "</span>"
            for count in view["earlier"]
        )
        out += [
            f'<div class="earlier" aria-label="{words["earlier"]}">',
            counts,
            "</div>",
        ]
    out.append("</div>")
    return out


@lru_cache(maxsize=16)
def _phrases(language: str) -> dict[str, str]:
    """The board's fixed words in `language` (the active one: it is the key), looked up once,
    not at every drawing: those shown as they are escaped, those with a blank to fill in as the
    catalogue has them (the values put in are escaped)."""
    shown = {
        "board": gettext("The board"),
        "back": gettext("face-down card"),
        "starter": gettext("Starter"),
        "empty crib": pgettext("the crib", "empty"),
        "count": pgettext("the running total", "Count"),
        "others": gettext("Cards in the other hands"),
        "choosing": gettext("choosing…"),
        "on the table": gettext("On the table"),
        "just played": gettext(", just played"),
        "new count": gettext("A new count starts at 0."),
        "none played": gettext("No cards played yet."),
        "earlier": gettext("Earlier counts this hand"),
    }
    blanks = {
        "game": gettext("Game %(number)s"),
        "hand": gettext("Hand %(number)s"),
        "deals": gettext("%(player)s deals"),
        "crib of": gettext("%(player)s's crib"),
    }
    return {**{name: escape(word) for name, word in shown.items()}, **blanks}
