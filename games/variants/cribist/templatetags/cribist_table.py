"""What the Cribist table asks of the engine's view: where each seat sits, the hand split by
suit, suit symbols and the kinds of combination a muggins call can name. The table's regions are
drawn in Python (games/variants/cribist/board.py and hand.py, which call these as functions); the
replay and the partials the regions replaced (the references of their tests) use the tags.

    {% load cribist_table %}
    {% table_seats view names seat as places %}   the four seats, the viewer at the bottom
    {% hand_cards view.hand view.trump view.legal_moves as cards %}  the hand, by suit
    {% trick_places view.last_trick seat as plays %}  a finished trick round the table
    {{ view.trump|suit_symbol }}                   ♥
    {{ view.trump|suit_name }}                     hearts (in the reader's language)
    {{ trick.count|count_words }}                  a trick's count said aloud
    {{ item.kind|kind_name }}                      a kind of combination ("fifteen")
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template

from games.engine.cribist.counting import CLAIM_KINDS
from games.templatetags.cards import SUIT_SYMBOLS, TEXT_STYLE
from games.texts import seat_name
from games.variants.cribist import CLAIM_ROWS, texts

register = template.Library()

PLACES = ("bottom", "left", "top", "right")  # clockwise from the viewer: the deal goes left


@register.simple_tag
def table_seats(view: dict[str, Any], names: Sequence[str], seat: int | None) -> list[dict]:
    """Each seat with its place at the table (the viewer, or seat 0 for a spectator, at the
    bottom; the next seat clockwise on the left), name, score, tricks taken, cards left, the
    card it has put on the trick in progress, and whether it deals or is to move."""
    me = seat if seat is not None else 0
    played = {play["seat"]: play["card"] for play in view["trick"]}
    places = []
    for index in range(view["players"]):
        places.append(
            {
                "seat": index,
                "place": PLACES[(index - me) % len(PLACES)],
                "name": seat_name(names, index),
                "score": view["scores"][index],
                "tricks": view["tricks_won"][index],
                "held": view["held_counts"][index],
                "card": played.get(index),
                "dealer": index == view["dealer"],
                "to_move": index in view["to_move"],
                "is_you": index == seat,
            }
        )
    return places


@register.simple_tag
def trick_places(trick: dict[str, Any] | None, seat: int | None) -> list[dict[str, Any]]:
    """The cards of a finished trick by place at the table, the winning card marked."""
    if not trick:
        return []
    me = seat if seat is not None else 0
    return [
        {
            "place": PLACES[(play["seat"] - me) % len(PLACES)],
            "card": play["card"],
            "winning": play["seat"] == trick["winner"],
        }
        for play in trick["plays"]
    ]


@register.simple_tag
def hand_cards(
    hand: Sequence[str] | None, trump: str | None, legal_moves: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The hand in its order (by suit), each card marked when it starts a new suit, is a trump,
    or may be played now."""
    playable = {move["card"] for move in legal_moves or [] if move.get("type") == "play"}
    cards = []
    previous = None
    for code in hand or []:
        suit = code[-1]
        cards.append(
            {
                "code": code,
                "new_suit": previous is not None and suit != previous,
                "trump": suit == trump,
                "playable": code in playable,
            }
        )
        previous = suit
    return cards


@register.filter
def suit_symbol(suit: str | None) -> str:
    """'H' -> '♥' (drawn as text, never as an emoji)."""
    symbol = SUIT_SYMBOLS.get(suit or "")
    return symbol + TEXT_STYLE if symbol else ""


@register.filter
def suit_name(suit: str | None) -> str:
    return texts.suit_name(suit)


@register.filter
def count_words(calls: Sequence[dict[str, Any]] | None) -> str:
    return texts.trick_count(calls)


@register.filter
def kind_name(kind: str) -> str:
    return texts.kind_name(kind)


@register.simple_tag
def claim_kinds() -> list[tuple[str, str]]:
    """The kinds of combination a muggins call can name: (value, words)."""
    return [(kind, texts.kind_name(kind)) for kind in CLAIM_KINDS]


@register.simple_tag
def claim_rows() -> range:
    return range(CLAIM_ROWS)
