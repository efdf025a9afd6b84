"""Classic Cribbage on the site: its table (pegboard, crib, the play, the show), its forms and
its assets."""

from games.variants import INT, LIST, TEXT, WebGame, register_web

WEB = register_web(
    WebGame(
        key="cribbage",
        css=("games/cribbage/table.css",),
        move_fields={"cards": LIST, "card": TEXT, "points": INT},
        seat_tags=lambda view: {view["dealer"]: ["dealer"]} if "dealer" in view else {},
        description="The classic: two, three or four players (partners), to 121 or 61.",
    )
)
