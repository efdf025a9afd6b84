"""Drawn playing cards, shared by every card game of the site.

Link the styles once on the page (after site.css, which also has a generic `.card` panel class
that these styles override for playing cards)::

    <link rel="stylesheet" href="{% static 'css/table.css' %}">

Cards::

    {% card "5H" %}                          five of hearts, normal size
    {% card card_code size="small" %}        size: "small" or "large" (default: normal)
    {% card "TD" classes="is-selected" %}    extra classes on the card
    {% card_back %}  {% card_back size="small" label="4 cards face down" %}

Notation is games.engine.pieces.cards': "5H", "TD", "10D", "js" (or a Card). Bad notation raises
TemplateSyntaxError naming the token. A card is one empty <span class="card playing-card"
role="img" aria-label="five of hearts" data-card="5H"> (named in the reader's language); table.css
draws its corners and centre pip from data-card (rank first, suit last), so it may sit inside a
<button>::

    <div class="hand">
      <button type="button" class="card-button" aria-pressed="true">{% card "5H" %}</button>
      <button type="button" class="card-button" disabled>{% card "KS" %}</button>
    </div>

or picked with a checkbox (the box is visually hidden, still focusable)::

    <label class="card-pick"><input type="checkbox" name="cards" value="5H">{% card "5H" %}</label>

States: a card inside `[aria-pressed="true"]` or `.is-selected`, or right after a checked box, is
raised with an outline, and its button or label shows a tick; `.card.is-selected` on the card
itself raises it too (its tick then takes the place of the lower corner). `.card.is-disabled`, a
card in a disabled button or `[aria-disabled="true"]`, or after a disabled box, is dimmed (opaque,
so overlaps stay clean). Keyboard focus on the button or box rings the card. `.hand` lays cards out
in a row that wraps, and overlaps on phones leaving each corner showing.

A card's markup never changes, so each is drawn once per (token, size, classes, language) and
kept: a hand costs a dictionary look-up a card.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from games.engine.pieces.cards import Card, CardError, parse_card
from games.texts import card_name

register = template.Library()

# Suits and ranks as text, for tags that name a card in a line (cards draw theirs in CSS).
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
TEXT_STYLE = "\ufe0e"  # variation selector 15: draw suits as text, never as emoji
RANK_LABELS = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}
CARD_SIZES = {None: "", "": "", "normal": "", "small": "card-small", "large": "card-large"}


def draw(template_name: str, context: dict[str, Any]) -> SafeString:
    """Render one of this library's templates (autoescaped, so still safe once trimmed)."""
    return mark_safe(render_to_string(template_name, context).strip())  # noqa: S308


@register.simple_tag
def card(
    token: str | Card, size: str | None = None, classes: str = "", language: str | None = None
) -> SafeString:
    """A face-up playing card (one span: it may sit inside a <button>). `language`, when given,
    is the active one, read once by a caller drawing many cards."""
    key = ("face", token, size, classes, language or get_language())
    drawn = _drawn.get(key)
    if drawn is None:
        drawn = _keep(key, _face(token, size, classes))
    return drawn


@register.simple_tag
def card_back(
    size: str | None = None, label: str = "", classes: str = "", language: str | None = None
) -> SafeString:
    """A face-down card; `label` is its accessible name ("face-down card" when not given).
    `language` as for `card`."""
    key = ("back", str(label), size, classes, language or get_language())
    drawn = _drawn.get(key)
    if drawn is None:
        context = {
            "back": True,
            "name": label or gettext("face-down card"),
            "size": _size(size),
            "classes": classes,
        }
        drawn = _keep(key, draw("games/pieces/card.html", context))
    return drawn


# Drawn cards by (kind, token or label, size, classes, language). Bounded: extra classes and labels
# come from templates, a few dozen in all; past the bound a card is drawn each time, still right.
_drawn: dict[tuple[Any, ...], SafeString] = {}
DRAWN_LIMIT = 5000


def _keep(key: tuple[Any, ...], html: SafeString) -> SafeString:
    if len(_drawn) < DRAWN_LIMIT:
        _drawn[key] = html
    return html


def _face(token: str | Card, size: str | None, classes: str) -> SafeString:
    if isinstance(token, Card):
        parsed = token
    else:
        try:
            parsed = parse_card(token)
        except CardError as error:
            raise template.TemplateSyntaxError(f"card: {error}") from error
    context = {
        "code": str(parsed),
        "name": card_name(parsed.rank, parsed.suit),
        "size": _size(size),
        "classes": classes,
    }
    return draw("games/pieces/card.html", context)


def _size(size: str | None) -> str:
    if size not in CARD_SIZES:
        raise template.TemplateSyntaxError(
            f'card: size must be "small" or "large" (or left out), not {size!r}'
        )
    return CARD_SIZES[size]
