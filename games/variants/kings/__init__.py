"""Kings Cribbage on the site: the drawn board, the rack with its lay, exchange and pass forms,
the live preview of a tentative lay, and the game's assets. Its two regions are drawn in Python
at every move (board.py, in parts a push may send alone, and hand.py)."""

from django.utils.translation import gettext_lazy

from games.variants import INT, LIST, WebGame, register_web

WEB = register_web(
    WebGame(
        key="kings",
        css=("games/kings/table.css",),
        js=("games/kings/table.js",),
        move_fields={"tiles": LIST, "points": INT},
        regions={
            "board": "games.variants.kings.board.board_region",
            "hand": "games.variants.kings.hand.hand_region",
        },
        description=gettext_lazy(
            "Cribbage hands laid as tiles on a 13x13 board: two to four players."
        ),
    )
)
