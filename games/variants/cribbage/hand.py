"""The Cribbage hand region, drawn in Python (WebGame.regions["hand"]): hand_region(context)
reads the match page's context for the region (match, view, seat, names, oob, csrf_token).

A seat's hand and its move forms are its own, so unlike the board they are drawn for each seat
at every move; the template engine took about 0.2 ms to draw them. The show and the games so far
(the same for every viewer, and on the table only between deals) are still drawn by the table
template's "shows" partial. Every text is the catalogue's, with the template's own message ids,
and every value is escaped as the template engine escapes it; tests/web/test_cribbage_hand.py
holds the HTML to the template partial it replaced (tests/web/cribbage_hand_reference.html),
line for line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.html import escape
from django.utils.translation import get_language, gettext, ngettext, pgettext

from cribsite.remembered_url import remembered_reverse
from games import fragments
from games.markup import move_fields, text
from games.templatetags.cards import card
from games.templatetags.match_tags import at, move_json
from games.variants.cribbage.templatetags.cribbage_analysis import discard_link


def hand_region(context: Mapping[str, Any]) -> str:
    """The match page's hand region: the seat's cards and the moves it may make now (a
    spectator is told they are watching), then the show and the games so far."""
    match, view, seat = context["match"], context["view"], context.get("seat")
    oob = ' hx-swap-oob="true"' if context.get("oob") else ""
    label = escape(gettext("The last show") if match.is_over else gettext("Your hand"))
    hidden = " hidden" if match.is_over and not view.get("shows") else ""
    out = [f'<section id="hand" class="hand-area"{oob} aria-label="{label}"{hidden}>']
    if match.is_over:
        pass
    elif seat is None:
        watching = gettext("You are watching: only the cards on the table are shown.")
        out.append(f'<p class="muted">{escape(watching)}</p>')
    else:
        out += _moves(context, match, view, seat)
    options = view.get("options") or {}
    if view.get("shows") or view.get("results") and (options.get("games") or 0) > 1:
        out.append(
            fragments.region(
                "games/cribbage/table.html#shows",
                "cribbage-shows",
                dict(context),
                _tight_part,
                key=_shown,
            )
        )
    out.append("</section>")
    # Tight as drawn (the show too, tightened once when drawn): tests/web/test_fragments.py
    return fragments.Tight("\n".join(line for line in out if line))


def _tight_part(html: str) -> str:
    """A part of the region as it stands in it, one line or more: tight, and without the blank
    lines around it."""
    return fragments.tight(html).strip()


# The view's entries the show and the games so far are drawn from: the same in every viewer's
# view, so the part is drawn once a board and language for all of them.
SHOWN_FIELDS = ("shows", "starter", "seat_sides", "game", "hand_number", "results")


def _shown(context: Mapping[str, Any]) -> tuple:
    view = context["view"]
    games = (view.get("options") or {}).get("games")
    return (repr([view.get(field) for field in SHOWN_FIELDS]), games, tuple(context["names"]))


def _moves(context, match, view, seat: int) -> list[str]:
    """The seat's cards and its move forms."""
    legal = view.get("legal_moves") or []
    kinds: dict[str, list[dict[str, Any]]] = {}
    for move in legal:
        kinds.setdefault(move.get("type"), []).append(move)
    discards, gos = kinds.get("discard"), kinds.get("go")
    counts, claims, continues = kinds.get("count"), kinds.get("muggins"), kinds.get("continue")
    names, hand = context.get("names") or (), view.get("hand") or ()
    language = get_language()  # read once for every card drawn
    url = escape(remembered_reverse("match_move", match.pk))
    fields = move_fields(context, match)
    form = f'method="post" action="{url}" hx-post="{url}" hx-swap="none"'
    out = []
    if discards:
        need = len(discards[0]["cards"])
        if view.get("dealer") == seat:
            legend = ngettext(
                "Choose %(need)s card for your crib", "Choose %(need)s cards for your crib", need
            ) % {"need": text(need)}
        else:
            legend = ngettext(
                "Choose %(need)s card for %(player)s's crib",
                "Choose %(need)s cards for %(player)s's crib",
                need,
            ) % {"need": text(need), "player": text(at(names, view.get("dealer")))}
        note = escape(gettext("{chosen} of {need} chosen"))
        put = escape(gettext("Put in the crib"))
        picks = "".join(
            f'<label class="card-pick"><input type="checkbox" name="cards" value="{text(c)}">'
            f"{card(c, language=language)}</label>"
            for c in hand
        )
        out += [
            f'<form id="move-discard" class="hand-form" {form} data-need="{need}"'
            f' data-pick-note="{note}">',
            fields,
            '<input type="hidden" name="type" value="discard">',
            "<fieldset>",
            f"<legend>{legend}</legend>",
            '<div class="hand">',
            picks,
            "</div>",
            "</fieldset>",
            f'<p class="hand-actions"><button type="submit" class="button" data-pick-submit>'
            f"{put}</button>"
            ' <span class="pick-count muted small" aria-live="polite"></span></p>',
            "</form>",
        ]
    elif view.get("phase") == "play":
        playable = {m["card"] for m in legal if "card" in m}
        yours, none_left = escape(gettext("Your cards")), gettext("You have played all your cards.")
        buttons = (
            "".join(
                f'<button type="submit" name="card" value="{text(c)}" class="card-button"'
                f"{'' if c in playable else ' disabled'}>{card(c, language=language)}</button>"
                for c in hand
            )
            or f'<p class="muted small">{escape(none_left)}</p>'
        )
        out += [
            f'<form id="move-play" class="hand-form" {form}>',
            fields,
            '<input type="hidden" name="type" value="play">',
            f'<div class="hand" role="group" aria-label="{yours}">',
            buttons,
            "</div>",
        ]
        if gos:
            go = escape(pgettext("say go in the play", "Go"))
            out.append(
                f'<p class="hand-actions"><button type="submit" name="move"'
                f' value="{text(move_json(gos[0]))}" class="button">{go}</button></p>'
            )
        out.append("</form>")
    else:
        if hand:
            cards = "".join(card(c, language=language) for c in hand)
            yours = escape(gettext("Your cards"))
            out.append(f'<div class="hand" aria-label="{yours}">{cards}</div>')
        if view.get("discards"):
            mine = escape(gettext("In the crib from you:"))
            cards = "".join(card(c, "small", language=language) for c in view["discards"])
            out.append(f'<p class="muted small">{mine} {cards}</p>')
    counting = view.get("counting")
    if counting and (counts or claims):
        out += _counting(counting, view, names, seat, language)
    if counts:
        out += _points_form(
            "move-count", form, fields, "count", "count-points", gettext("Your count"), 0,
            pgettext("a button: count your hand", "Count"),
        )  # fmt: skip
    if claims:
        out += _points_form(
            "move-claim", form, fields, "muggins", "claim-points", gettext("Points missed"), 1,
            gettext("Muggins!"),
        )  # fmt: skip
    if continues:
        if claims:
            go_on = gettext("Let it go")
        elif view.get("phase") == "game_over":
            go_on = gettext("Next game")
        else:
            go_on = gettext("Next hand")
        out += [
            f'<form id="move-continue" class="hand-form" {form}>',
            fields,
            f'<button type="submit" name="move" value="{text(move_json(continues[0]))}"'
            f' class="button">{escape(go_on)}</button>',
            "</form>",
        ]
    out.append(str(discard_link(match, seat, view)))
    return out


def _counting(counting, view, names, seat, language: str) -> list[str]:
    """The hand being counted, with the starter (muggins)."""
    owner = text(at(names, counting.get("owner")))
    crib = counting.get("crib")
    if crib:
        label = gettext("%(player)s's crib being counted") % {"player": owner}
    else:
        label = gettext("%(player)s's hand being counted") % {"player": owner}
    if counting.get("owner") == seat:
        title = escape(
            gettext("Your crib, with the starter")
            if crib
            else gettext("Your hand, with the starter")
        )
    elif crib:
        title = gettext("%(player)s's crib, with the starter") % {"player": owner}
    else:
        title = gettext("%(player)s's hand, with the starter") % {"player": owner}
    starter = view.get("starter")
    cards = "".join(card(c, language=language) for c in counting.get("cards") or ())
    if starter:
        cards += f'<span class="with-starter">{card(starter, language=language)}</span>'
    return [
        f'<div class="counting" aria-label="{label}">',
        f'<p class="counting-title">{title}</p>',
        f'<span class="fan">{cards}</span>',
        "</div>",
    ]


def _points_form(form_id, form, fields, kind, field_id, label, least, button) -> list[str]:
    """A form that sends a number of points: the seat's own count, or the points it claims."""
    return [
        f'<form id="{form_id}" class="hand-form inline-form" {form}>',
        fields,
        f'<input type="hidden" name="type" value="{kind}">',
        f'<label for="{field_id}">{escape(label)}</label>',
        f'<input id="{field_id}" type="number" name="points" min="{least}" max="29"'
        ' inputmode="numeric" required>',
        f'<button type="submit" class="button">{escape(button)}</button>',
        "</form>",
    ]
