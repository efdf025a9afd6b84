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
            "board": lambda context: _region("board", context),
            "hand": lambda context: _region("hand", context),
        },
        description=gettext_lazy(
            "The classic: two, three or four players (partners), to 121 or 61."
        ),
    )
)


def _region(name: str, context):
    """The board and the hand, drawn in Python (board.py, hand.py): imported on first use, as
    they draw with the site's models and templates, not loaded yet when this app is."""
    drawer = _drawers.get(name)
    if drawer is None:
        from games.variants.cribbage import board, hand

        _drawers.update(board=board.board_region, hand=hand.hand_region)
        drawer = _drawers[name]
    return drawer(context)


_drawers = {}
