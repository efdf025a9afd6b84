"""Cribist on the site: its four-seat table, its forms (a card to play, a declaration, a
muggins call naming where the points are) and its assets. Its two regions are drawn in Python
at every move (board.py and hand.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_lazy, pgettext

from games.variants import INT, TEXT, WebGame, register_web

CLAIM_ROWS = 6  # combinations a muggins form can name at once


@dataclass(frozen=True)
class CribistWeb(WebGame):
    """Reads a muggins call from the form's rows: `kind_0` with the checked `cards_0`, and so
    on; a row left empty is skipped."""

    def parse_move(self, data) -> dict[str, Any]:
        move = super().parse_move(data)
        if move.get("type") == "muggins" and "items" not in move:
            move["items"] = claim_items(data)
        return move


def claim_items(data) -> list[dict[str, Any]]:
    """The combinations named in a muggins form; ValueError says what is missing."""
    items = []
    for row in range(CLAIM_ROWS):
        kind = data.get(f"kind_{row}", "")
        cards = data.getlist(f"cards_{row}")
        if not kind and not cards:
            continue
        if not kind:
            raise ValueError(
                gettext("say what combination %(number)d is (a fifteen, a pair...)")
                % {"number": row + 1}
            )
        if not cards:
            raise ValueError(
                gettext("tick the cards of combination %(number)d") % {"number": row + 1}
            )
        items.append({"kind": kind, "cards": cards})
    if not items:
        raise ValueError(gettext("name at least one combination and its cards"))
    return items


def _seat_tags(view: dict[str, Any]) -> dict[int, list[str]]:
    return {view["dealer"]: [pgettext("seat tag", "dealer")]} if "dealer" in view else {}


WEB = register_web(
    CribistWeb(
        key="cribist",
        css=("games/cribist/table.css",),
        move_fields={"card": TEXT, "points": INT},
        seat_tags=_seat_tags,
        regions={
            "board": "games.variants.cribist.board.board_region",
            "hand": "games.variants.cribist.hand.hand_region",
        },
        description=gettext_lazy(
            "Four players, each for themselves: win tricks and score them as "
            "cribbage hands; the opening lead names trumps."
        ),
    )
)
