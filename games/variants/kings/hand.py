"""The Kings Cribbage hand region, drawn in Python (named in the game's WebGame.regions):
hand_region(context) reads the match page's context for the region (match, view, seat, names,
oob, csrf_token).

A seat's rack and its move forms are its own, so unlike the board they are drawn for each seat
at every move; the template engine took about 0.4 ms to draw them. Every text is the
catalogue's, with the template's own message ids, and every value is escaped as the template
engine escapes it; tests/web/test_kings_regions.py holds the HTML to the template partial it
replaced (tests/web/kings_hand_reference.html), line for line. The live preview's answer is
still drawn by the table template's "preview" partial (games/variants/kings/views.py); before
any tiles are tried, the region writes its opening line here (`_preview_hint`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.utils.html import escape
from django.utils.translation import get_language, gettext

from cribsite.remembered_url import remembered_reverse
from games.markup import move_fields, text
from games.templatetags.match_tags import at, move_json
from games.variants.kings import texts

MOVE_KINDS = ("lay", "exchange", "pass", "joker", "accept")


@lru_cache(maxsize=16)
def _phrases(language: str) -> dict[str, str]:
    """The region's fixed words in `language` (the active one: it is the key), escaped: looked
    up once, not at every move (a lookup in the catalogue costs a few microseconds)."""
    words = {
        "rack": gettext("Your rack"),
        "watching": gettext("You are watching: the racks stay hidden until the game ends."),
        "pick": gettext("Your rack: pick a tile, then a square"),
        "empty": gettext("Your rack is empty."),
        "can lay": gettext("Pick a tile from your rack, then a square on the board."),
        "closing": gettext("The game ends once the last count is settled."),
        "no lay": gettext("No lay fits your rack now: exchange or pass."),
        "waiting": gettext("You may try lays while you wait; they are only sent on your turn."),
        "declare": gettext("Points you declare"),
        "lay": gettext("Lay these tiles"),
        "flip": gettext("Turn 6/9"),
        "recall": gettext("Recall tiles"),
        "exchange": gettext("Exchange tiles…"),
        "exchange them": gettext("Yes, exchange them"),
        "pass": gettext("Pass…"),
        "pass question": gettext("Pass this turn? If every player passes in turn, the game ends."),
        "yes pass": gettext("Yes, pass"),
        "joker": gettext("Joker! (they missed points)"),
        "accept": gettext("Let the count stand"),
    }
    return {name: escape(word) for name, word in words.items()}


def hand_region(context: Mapping[str, Any]) -> str:
    """The match page's hand region: the seat's rack and the moves it may make now (a spectator
    is told the racks stay hidden)."""
    oob = ' hx-swap-oob="true"' if context.get("oob") else ""
    words = _phrases(get_language())
    out = [f'<section id="hand" class="hand-area kings-hand"{oob} aria-label="{words["rack"]}">']
    seat = context.get("seat")
    if seat is None:
        out.append(f'<p class="muted">{words["watching"]}</p>')
    else:
        out += _rack_and_moves(context, seat, words)
    out.append("</section>")
    return "\n".join(out)


def _rack_and_moves(context: Mapping[str, Any], seat: int, words: dict[str, str]) -> list[str]:
    """The seat's rack, then the forms of the moves it may make."""
    match, view = context["match"], context["view"]
    moves = _first_of_each_kind(view.get("legal_moves"))
    url = text(remembered_reverse("match_move", match.pk))
    form = f'method="post" action="{url}" hx-post="{url}" hx-swap="none"'
    fields = move_fields(context, match)
    out = _rack(view, words)
    if view.get("phase") == "play":
        preview_url = text(remembered_reverse("kings_preview", match.pk))
        hint = words[_preview_hint(view, seat, "lay" in moves)]
        out += [
            f'<form id="kings-preview-form" class="kings-preview-form" hx-post="{preview_url}"'
            ' hx-trigger="kings-changed" hx-target="#kings-preview" hx-swap="outerHTML"'
            ' hx-sync="this:queue last">',
            f"{_csrf(fields)}<span data-kings-tiles></span>",
            "</form>",
            '<div id="kings-preview" class="kings-preview" aria-live="polite">',
            f'<p class="muted small">{hint}</p>',
            "</div>",
            '<div class="kings-lay-row">',
            *_lay_form(view, form, fields, "lay" in moves, words),
        ]
        if "exchange" in moves:
            out += _exchange_form(view, form, fields, words)
        if "pass" in moves:
            out += _pass_form(moves["pass"], form, fields, words)
        out.append("</div>")
    if "joker" in moves or "accept" in moves:
        out += _joker_form(view, context.get("names") or (), moves, form, fields, words)
    return out


def _first_of_each_kind(legal: list[dict[str, Any]] | None) -> dict[str, dict[str, Any]]:
    """The first legal move of each kind the hand offers, by kind."""
    first: dict[str, dict[str, Any]] = {}
    for move in legal or ():
        kind = move.get("type")
        if kind in MOVE_KINDS and kind not in first:
            first[kind] = move
    return first


def _csrf(fields: str) -> str:
    """The CSRF token's field alone, from the fields every move form posts (it comes first)."""
    return fields[: fields.index('<input type="hidden" name="seq"')]


def _rack(view: Mapping[str, Any], words: dict[str, str]) -> list[str]:
    """The seat's tiles, each a button to pick (a 6 or a 9 may be turned round)."""
    language = get_language()
    tiles = [
        _rack_button(language, tile["id"], tile["face"], bool(tile.get("flips")))
        for tile in view.get("rack") or ()
    ]
    if not tiles:
        tiles = [f'<p class="muted small">{words["empty"]}</p>']
    return [
        f'<div class="kings-rack" role="group" aria-label="{words["pick"]}" data-kings-rack>',
        *tiles,
        "</div>",
    ]


@lru_cache(maxsize=1024)
def _rack_button(language: str, identity: str, face: str, flips: bool) -> str:
    """A tile of the rack as a button, in `language` (the active one: it is the key)."""
    turns = ""
    if flips:
        turns = " " + escape(
            gettext("(turns into a 9)") if face[:1] == "6" else gettext("(turns into a 6)")
        )
    return (
        f'<button type="button" class="tile rack-tile suit-{text(face[1:])}"'
        f' data-id="{text(identity)}" data-face="{text(face)}"'
        f' data-flips="{"1" if flips else "0"}" aria-pressed="false"'
        f' aria-label="{text(texts.tile_words(face))}{turns}">'
        f'<span class="tile-rank{" underlined" if flips else ""}">'
        f"{text(texts.tile_rank(face))}</span></button>"
    )


def _preview_hint(view: Mapping[str, Any], seat: int, can_lay: bool) -> str:
    """The preview's line before any tiles are tried (the name of its phrase): what the seat
    may do now."""
    if can_lay:
        return "can lay"
    if view.get("closing"):
        return "closing"
    if view.get("turn") == seat:
        return "no lay"
    return "waiting"


def _lay_form(view, form: str, fields: str, can_lay: bool, words: dict[str, str]) -> list[str]:
    """The lay's form (the tiles go in as the player places them), and the rack's tools."""
    out = [
        f'<form id="kings-lay" class="hand-form" {form}>',
        fields,
        '<input type="hidden" name="type" value="lay">',
        "<span data-kings-tiles></span>",
    ]
    if (view.get("options") or {}).get("joker"):
        out += [
            f'<label for="kings-declare">{words["declare"]}</label>',
            '<input id="kings-declare" type="number" name="points" min="0" max="200"'
            ' inputmode="numeric" required>',
        ]
    waiting = "" if can_lay else " data-not-turn"
    quiet = 'type="button" class="button button-quiet"'
    return [
        *out,
        f'<button type="submit" class="button" data-kings-lay disabled{waiting}>'
        f"{words['lay']}</button>",
        "</form>",
        '<p class="kings-tools">',
        f"<button {quiet} data-kings-flip disabled>{words['flip']}</button>",
        f"<button {quiet} data-kings-recall disabled>{words['recall']}</button>",
        "</p>",
    ]


def _exchange_form(view, form: str, fields: str, words: dict[str, str]) -> list[str]:
    """Put tiles back in the bag and draw as many, behind a confirmation."""
    legend = gettext("Tiles to put back in the bag (it holds %(count)s)") % {
        "count": text(view.get("bag"))
    }
    language = get_language()
    picks = "".join(_exchange_pick(language, tile["face"]) for tile in view.get("rack") or ())
    return [
        '<details class="confirm kings-exchange">',
        f'<summary class="button button-quiet">{words["exchange"]}</summary>',
        f'<form id="kings-exchange" {form}>',
        fields,
        '<input type="hidden" name="type" value="exchange">',
        "<fieldset>",
        f"<legend>{legend}</legend>",
        picks,
        "</fieldset>",
        f'<button type="submit" class="button">{words["exchange them"]}</button>',
        "</form>",
        "</details>",
    ]


@lru_cache(maxsize=256)
def _exchange_pick(language: str, face: str) -> str:
    """A tile's box in the exchange form, in `language` (the active one: it is the key)."""
    return (
        f'<label class="tile-pick"><input type="checkbox" name="tiles" value="{text(face)}">'
        f'<span class="tile suit-{text(face[1:])}" aria-hidden="true">'
        f"{text(texts.tile_rank(face))}</span>"
        f'<span class="sr-only">{text(texts.tile_words(face))}</span></label>'
    )


def _pass_form(move: dict[str, Any], form: str, fields: str, words: dict[str, str]) -> list[str]:
    """Pass the turn, behind a confirmation."""
    return [
        '<details class="confirm kings-pass">',
        f'<summary class="button button-quiet">{words["pass"]}</summary>',
        f'<form id="kings-pass" {form}>',
        fields,
        f"<p>{words['pass question']}</p>",
        f'<button type="submit" name="move" value="{text(move_json(move))}" class="button">'
        f"{words['yes pass']}</button>",
        "</form>",
        "</details>",
    ]


def _joker_form(view, names, moves, form: str, fields: str, words: dict[str, str]) -> list[str]:
    """With the Joker option: call Joker on the last count, or let it stand."""
    declaration = view.get("declaration") or {}
    said = gettext("%(name)s declared %(points)s.") % {
        "name": text(at(names, declaration.get("scorer"))),
        "points": text(declaration.get("declared", "")),
    }
    out = [
        f'<form id="kings-joker" class="hand-form inline-form" {form}>',
        fields,
        f"<p>{said}</p>",
    ]
    for kind, quiet in (("joker", ""), ("accept", " button-quiet")):
        if kind in moves:
            out.append(
                f'<button type="submit" name="move" value="{text(move_json(moves[kind]))}"'
                f' class="button{quiet}">{words[kind]}</button>'
            )
    out.append("</form>")
    return out
