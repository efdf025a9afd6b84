"""CrossCrib on the site: Table Top Cribbage's table and replay (which show the crib action and
the crib counts when the game has a crib), with its own rules page."""

from django.utils.translation import gettext_lazy

from games.variants import register_web
from games.variants.tabletop import REGIONS, GridWeb, seat_tags

WEB = register_web(
    GridWeb(
        key="crosscrib",
        templates_of="tabletop",
        css=("games/tabletop/table.css",),
        js=("games/tabletop/table.js",),
        seat_tags=seat_tags,
        regions=REGIONS,
        description=gettext_lazy(
            "Two players build a 5x5 layout with a crib on the side; the bigger count "
            "each deal wins the difference in game points, first to 31."
        ),
    )
)
