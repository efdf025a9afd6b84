"""The Table Top (and CrossCrib) hand region, drawn in Python (WebGame.regions["hand"]):
hand_region(context) reads the match page's context for the region (match, view, seat, names,
oob, csrf_token).

The card being placed and what this seat may do with it, the crib and the next-deal button: a
seat's own, so drawn for each viewer at every move (the template engine took about 0.25 ms to draw
it). Every text is the catalogue's, with the template's own message ids, and every value is
escaped as the template engine escapes it; tests/web/test_tabletop_hand.py holds the HTML to the
template partial it replaced (tests/web/tabletop_hand_reference.html), byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.html import escape
from django.utils.translation import gettext

from cribsite.remembered_url import remembered_reverse
from games.markup import move_fields, text
from games.templatetags.cards import card, card_back
from games.templatetags.match_tags import at, move_json


def hand_region(context: Mapping[str, Any]) -> str:
    """The match page's hand region: the turned card, what the seat may do with it (or whom the
    table waits for), the face-down stacks, the crib, and the next-deal button."""
    view, seat = context["view"], context.get("seat")
    rules = view.get("rules") or {}
    oob = ' hx-swap-oob="true"' if context.get("oob") else ""
    empty = view.get("phase") == "over" and not rules.get("crib_each") and seat is not None
    label = gettext("The card being placed")
    out = [
        "",
        f'<section id="hand" class="hand-area tt-hand{" is-empty" if empty else ""}"{oob}'
        f' aria-label="{label}">',
    ]
    moves = _moves_by_kind(view)
    if view.get("phase") == "place":
        out += _turned(context, view, seat, moves)
    if rules.get("crib_each"):
        out += _crib(view, context.get("names") or (), seat)
    if seat is None:
        watching = gettext("You are watching: face-down cards stay face down.")
        out.append(f'<p class="muted small">{watching}</p>')
    if moves.get("continue"):
        out += _form(context, "move-continue", moves["continue"][0], gettext("Next deal"))
    return "\n".join([*out, "</section>", ""])


def _moves_by_kind(view: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    kinds: dict[str, list[dict[str, Any]]] = {}
    for move in view.get("legal_moves") or ():
        kinds.setdefault(move.get("type"), []).append(move)
    return kinds


def _turned(context, view, seat, moves) -> list[str]:
    """The card the player to move has turned (face down where this seat may not see it), what
    this seat may do with it, and the stacks still to turn."""
    names, turn = context.get("names") or (), view.get("turn")
    player = text(at(names, turn))
    if view.get("turned"):
        shown = card(view["turned"], "large")
    elif view.get("turned_hidden"):
        shown = card_back("large", gettext("a card only its owner sees"))
    else:
        shown = ""
    title = (
        gettext("Your card") if turn == seat else gettext("%(player)s's card") % {"player": player}
    )
    title = f"<strong>{title}</strong>"
    if view.get("turned_hidden"):
        seen = gettext("(seen only by %(player)s until it is placed)") % {"player": player}
        title += f' <span class="muted small">{seen}</span>'
    out = [
        '<div class="tt-turned">',
        '<div class="tt-turned-card" data-source="turned">',
        shown,
        "</div>",
        '<div class="tt-turned-text">',
        f'<p class="tt-turned-title">{title}</p>',
        *_what_to_do(view, names, seat, player, moves),
    ]
    if moves.get("crib"):
        out += _form(context, "move-crib", moves["crib"][0], gettext("To the crib"))
    stacks = " · ".join(
        f"{text(at(names, index))} {text(n)}"
        for index, n in enumerate(view.get("stack_counts") or ())
    )
    still = gettext("Face down, still to turn:")
    out += [
        "</div>",
        "</div>",
        f'<p class="tt-stacks small muted">{still} {stacks}</p>',
    ]
    return out


def _what_to_do(view, names, seat, player: str, moves) -> list[str]:
    """What the seat to move may do with its card, or what its partner may suggest."""
    advice = view.get("advice")
    if view.get("turn") == seat:
        out = [_choose(moves, len(view.get("legal_moves") or ()))]
        if advice:
            suggests = gettext("%(partner)s suggests row %(row)s, column %(col)s.") % {
                "partner": text(at(names, advice["by"])),
                **_square(advice),
            }
            out.append(f'<p class="tt-advice-note">★ {suggests}</p>')
        return out
    if moves.get("advise"):
        tap = gettext(
            "Tap a square to suggest it to %(player)s; only your side sees it, and %(player)s "
            "decides."
        ) % {"player": player}
        return [f'<p class="small">{tap}</p>']
    if advice:
        suggested = gettext("You suggested row %(row)s, column %(col)s.") % _square(advice)
        return [f'<p class="tt-advice-note">★ {suggested}</p>']
    return []


def _choose(moves, legal: int) -> str:
    """What the seat to move may do with its card: place it, or crib it."""
    if moves.get("crib") and legal == 1:
        must = gettext(
            "You owe the crib as many cards as you have turns left: this one goes to the crib."
        )
        return f"<p>{must}</p>"
    if moves.get("crib"):
        choose = gettext("Choose a highlighted square, or put the card in the crib.")
    else:
        choose = gettext("Choose a highlighted square.")
    return f'<p class="small muted">{choose}</p>'


def _square(advice: Mapping[str, Any]) -> dict[str, str]:
    """The suggested square's row and column, counted from 1 (the template's `|add:1`)."""
    return {"row": text(advice["row"] + 1), "col": text(advice["col"] + 1)}


def _crib(view, names, seat) -> list[str]:
    """Whose crib it is, how many cards each has put in it, and this seat's own crib cards."""
    crib = view.get("crib") or {}
    dealer = gettext("%(dealer)s's crib") % {"dealer": text(at(names, view.get("dealer")))}
    each = text(crib.get("each"))
    counts = "".join(
        f'<span class="tt-crib-count">{_put(index, n, each, names, seat)}</span>'
        for index, n in enumerate(crib.get("counts") or ())
    )
    label = gettext("The crib")
    out = [
        f'<div class="tt-crib" aria-label="{label}">',
        f'<p class="small"><strong>{dealer}</strong>',
        counts,
        "</p>",
    ]
    if crib.get("mine"):
        cards = "".join(card(c, "small") for c in crib["mine"])
        mine = gettext("Yours in the crib:")
        out.append(
            f'<p class="small muted tt-crib-mine">{mine} <span class="fan">{cards}</span></p>'
        )
    return [*out, "</div>"]


def _put(index: int, n: Any, each: str, names, seat) -> str:
    if index == seat:
        return gettext("You have put %(n)s of %(each)s in the crib.") % {"n": text(n), "each": each}
    return gettext("%(name)s has put %(n)s of %(each)s in the crib.") % {
        "name": text(at(names, index)),
        "n": text(n),
        "each": each,
    }


def _form(context, form_id: str, move: Mapping[str, Any], button: str) -> list[str]:
    """A form of one button that sends `move`."""
    match = context["match"]
    url = escape(remembered_reverse("match_move", match.pk))
    return [
        f'<form id="{form_id}" class="hand-form" method="post" action="{url}" hx-post="{url}"'
        ' hx-swap="none">',
        move_fields(context, match),
        f'<button type="submit" name="move" value="{text(move_json(move))}" class="button">'
        f"{button}</button>",
        "</form>",
    ]
