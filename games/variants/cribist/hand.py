"""The Cribist hand region, drawn in Python (WebGame.regions["hand"]): hand_region(context)
reads the match page's context for the region (match, view, seat, names, oob, csrf_token).

A seat's hand and its move forms are its own, drawn for each seat at every move from that
seat's view alone (a spectator is only told they are watching); the template engine took about
0.25 ms a viewer to draw them. Every text is the catalogue's, with the template's own message
ids, and every value is escaped as the template engine escapes it;
tests/web/test_cribist_regions.py holds the HTML to the template partial it replaced
(tests/web/cribist_hand_reference.html), line for line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.html import escape
from django.utils.translation import gettext

from cribsite.remembered_url import remembered_reverse
from games.markup import move_fields, text
from games.templatetags.cards import card
from games.templatetags.match_tags import at, move_json
from games.variants.cribist import texts as cribist_texts
from games.variants.cribist.templatetags.cribist_table import claim_kinds, claim_rows, hand_cards

MORE_FROM = 3  # the muggins form's rows from this one on are folded away ("Name more...")


def hand_region(context: Mapping[str, Any]) -> str:
    """The match page's hand region: the seat's cards and the moves it may make now."""
    match, view, seat = context["match"], context["view"], context.get("seat")
    oob = ' hx-swap-oob="true"' if context.get("oob") else ""
    hidden = " hidden" if match.is_over else ""
    label = escape(gettext("Your hand"))
    out = ["", f'<section id="hand" class="hand-area cx-hand"{oob} aria-label="{label}"{hidden}>']
    if seat is None:
        watching = gettext("You are watching: only the cards played are shown.")
        out.append(f'<p class="muted">{escape(watching)}</p>')
    else:
        out += _moves(context, match, view)
    out += ["</section>", ""]  # a line break at each end, as the partial it replaced had
    return "\n".join(out)


def _moves(context: Mapping[str, Any], match, view: Mapping[str, Any]) -> list[str]:
    """The seat's cards (buttons when it may play one) and its forms: declare a trick's worth,
    call muggins or let the count stand, go on to the next hand."""
    legal = view.get("legal_moves") or []
    kinds: dict[str, list[dict[str, Any]]] = {}
    for move in legal:
        kinds.setdefault(move.get("type"), []).append(move)
    url = escape(remembered_reverse("match_move", match.pk))
    form = f'method="post" action="{url}" hx-post="{url}" hx-swap="none"'
    fields = move_fields(context, match)
    out = _cards(view, legal, form, fields)
    if kinds.get("declare"):
        out += _declare_form(form, fields)
    if kinds.get("pass"):
        out += _muggins_form(view, context.get("names") or (), form, fields)
        out += _button_form("move-pass", form, fields, kinds["pass"][0], "button button-quiet",
                            gettext("Let the count stand"))  # fmt: skip
    if kinds.get("continue"):
        out += _button_form("move-continue", form, fields, kinds["continue"][0], "button",
                            gettext("Next hand"))  # fmt: skip
    return out


def _cards(view: Mapping[str, Any], legal, form: str, fields: str) -> list[str]:
    """The hand by suit: a button a card in the play (those it may not play disabled), else
    the cards alone, else a word that none are left."""
    trump = view.get("trump")
    cards = hand_cards(view.get("hand"), trump, legal)
    label = escape(gettext("Your cards, by suit"))
    if trump:
        label += "; " + gettext("%(suit)s are trumps") % {
            "suit": text(cribist_texts.suit_name(trump))
        }
    if view.get("phase") == "play" and legal and legal[0].get("type") == "play":
        buttons = "".join(
            f'<button type="submit" name="card" value="{text(c["code"])}"'
            f' class="card-button{_marks(c)}"{"" if c["playable"] else " disabled"}>'
            f"{card(c['code'])}{_trump_note(c)}</button>"
            for c in cards
        )
        return [
            f'<form id="move-play" class="hand-form" {form}>',
            fields,
            '<input type="hidden" name="type" value="play">',
            f'<div class="hand" role="group" aria-label="{label}">',
            buttons,
            "</div>",
            "</form>",
        ]
    if cards:
        held = "".join(
            f'<span class="cx-held-card{_marks(c)}">{card(c["code"])}{_trump_note(c)}</span>'
            for c in cards
        )
        return [f'<div class="hand" role="group" aria-label="{label}">', held, "</div>"]
    empty = escape(gettext("No cards left in this hand."))
    return [f'<p class="muted small">{empty}</p>']


def _marks(held: Mapping[str, Any]) -> str:
    """The classes of a card in hand: the first of its suit, a trump."""
    return (" cx-new-suit" if held["new_suit"] else "") + (" cx-is-trump" if held["trump"] else "")


def _trump_note(held: Mapping[str, Any]) -> str:
    """What a screen reader says after a trump's name."""
    if not held["trump"]:
        return ""
    said = escape(gettext("(trump)"))
    return f'<span class="sr-only"> {said}</span>'


def _declare_form(form: str, fields: str) -> list[str]:
    """The winner of a trick says what it is worth (muggins)."""
    ask, declare = gettext("You took the trick: what is it worth?"), gettext("Declare")
    return [
        f'<form id="move-declare" class="hand-form inline-form" {form}>',
        fields,
        '<input type="hidden" name="type" value="declare">',
        f'<label for="declare-points">{escape(ask)}</label>',
        '<input id="declare-points" type="number" name="points" min="0" max="32"'
        ' inputmode="numeric" required>',
        f'<button type="submit" class="button">{escape(declare)}</button>',
        "</form>",
    ]


def _muggins_form(view: Mapping[str, Any], names: Sequence[str], form: str, fields: str):
    """A muggins call: rows naming a kind of combination and ticking its cards (the later
    rows folded away), and the points missed."""
    counting = view.get("counting") or {}
    legend = gettext("Muggins: name the points %(name)s missed") % {
        "name": text(at(names, counting.get("winner")))
    }
    how = gettext(
        "Tick the cards of each combination you find and say what it is. A right call scores "
        "for you; a wrong one costs you the points you claim."
    )
    rows = claim_rows()
    out = [
        f'<form id="move-muggins" class="hand-form cx-muggins" {form}>',
        fields,
        '<input type="hidden" name="type" value="muggins">',
        "<fieldset>",
        f"<legend>{legend}</legend>",
        f'<p class="small muted">{escape(how)}</p>',
    ]
    kinds = "".join(
        f'<option value="{text(value)}">{text(words)}</option>' for value, words in claim_kinds()
    )
    for number, row in enumerate(rows, start=1):
        if number == MORE_FROM:
            more = escape(gettext("Name more combinations"))
            out.append(f'<details class="cx-more"><summary>{more}</summary>')
        out += _claim_row(row, number, kinds, counting.get("cards") or ())
        if number == len(rows) and number >= MORE_FROM:
            out.append("</details>")
    missed, call = escape(gettext("Points missed")), escape(gettext("Muggins!"))
    out += [
        f'<p class="inline-form"><label for="claim-points">{missed}</label>',
        '<input id="claim-points" type="number" name="points" min="1" max="32"'
        ' inputmode="numeric" required>',
        f'<button type="submit" class="button">{call}</button></p>',
        "</fieldset>",
        "</form>",
    ]
    return out


def _claim_row(row: int, number: int, kinds: str, cards: Sequence[str]) -> list[str]:
    """One combination of a muggins call: its kind and the cards ticked for it."""
    combination = gettext("Combination %(number)s") % {"number": text(number)}
    first = gettext("Which…") if number == 1 else gettext("Another…")
    picks = "".join(_pick(code, row, number) for code in cards)
    return [
        '<div class="cx-claim-row">',
        f'<label class="cx-kind"><span class="sr-only">{combination}</span>',
        f'<select name="kind_{text(row)}"><option value="">{escape(first)}</option>{kinds}'
        "</select>",
        "</label>",
        f'<span class="cx-claim-cards">{picks}</span>',
        "</div>",
    ]


def _pick(code: str, row: int, number: int) -> str:
    """A card to tick for a combination of a muggins call."""
    named = gettext("%(card)s in combination %(number)s") % {
        "card": text(code),
        "number": text(number),
    }
    return (
        f'<label class="card-pick"><input type="checkbox" name="cards_{text(row)}"'
        f' value="{text(code)}" aria-label="{named}">{card(code, "small")}</label>'
    )


def _button_form(form_id: str, form: str, fields: str, move, classes: str, words: str):
    """A form of one button that sends a whole move (pass, continue)."""
    return [
        f'<form id="{form_id}" class="hand-form" {form}>',
        fields,
        f'<button type="submit" name="move" value="{text(move_json(move))}" class="{classes}">'
        f"{escape(words)}</button>",
        "</form>",
    ]
