"""Classic Cribbage on the site: its table (pegboard, crib, the play, the show), its forms and
its assets."""

from django.utils.translation import gettext_lazy

from games.variants import INT, LIST, TEXT, WebGame, register_web
from games.variants.cribbage.texts import dealer_tag

WEB = register_web(
    WebGame(
        key="cribbage",
        css=("games/cribbage/table.css",),
        move_fields={"cards": LIST, "card": TEXT, "points": INT},
        seat_tags=lambda view: {view["dealer"]: [dealer_tag()]} if "dealer" in view else {},
        regions={
            "board": "games.variants.cribbage.board.board_region",
            "hand": "games.variants.cribbage.hand.hand_region",
        },
        description=gettext_lazy(
            "The classic: two, three or four players (partners), to 121 or 61."
        ),
    )
)
