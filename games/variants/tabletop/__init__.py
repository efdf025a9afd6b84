"""Table Top Cribbage on the site: the 5x5 layout with its clickable squares and running line
totals, the card being placed, and each line's count at the end of a deal. CrossCrib draws its
table with these templates and regions too (see `GridWeb`). The match page's regions are drawn
in Python at every move (board.py, hand.py); the replay's board by the table template."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from games.variants import WebGame, register_web
from games.variants.tabletop.texts import lines_word


@dataclass(frozen=True)
class GridWeb(WebGame):
    """A grid game's web adapter: its table and replay may come from another game's folder
    (`templates_of`), while its rules page stays its own."""

    templates_of: str = ""

    @property
    def table_template(self) -> str:
        return f"games/{self.templates_of or self.key}/table.html"

    @property
    def replay_template(self) -> str:
        return f"games/{self.templates_of or self.key}/replay.html"


def seat_tags(view: dict[str, Any]) -> dict[int, list[str]]:
    """Beside each seat, in the reader's language: the lines its side scores, and the dealer."""
    tags: dict[int, list[str]] = {}
    for seat, side in enumerate(view.get("seat_sides", [])):
        tags[seat] = [lines_word(view["sides"][side]["lines"])]
    if "dealer" in view:
        tags.setdefault(view["dealer"], []).append(gettext("dealer"))
    return tags


# The table's regions, drawn in Python at every move rather than by table.html's partials.
REGIONS = {
    "board": "games.variants.tabletop.board.board_region",
    "hand": "games.variants.tabletop.hand.hand_region",
}

WEB = register_web(
    GridWeb(
        key="tabletop",
        css=("games/tabletop/table.css",),
        js=("games/tabletop/table.js",),
        seat_tags=seat_tags,
        regions=REGIONS,
        description=gettext_lazy(
            "Two players, or four in partnerships: build a 5x5 layout card by card, "
            "one side scoring the rows and the other the columns."
        ),
    )
)
