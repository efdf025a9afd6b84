"""CrossCrib: Table Top Cribbage for two with a crib, changed only where its rules differ.

* 14 cards each; on exactly two of their turns each player puts the turned card face down in
  the dealer's crib instead of placing it (and must, when the turns left are only as many as
  the crib cards still owed). The turned card is seen by its owner alone until it is placed.
* A card may go on any empty square of the 5x5 grid, touching another or not.
* A line's flush counts with four cards of one suit (4 points) or five (5).
* The crib counts for the dealer with the centre card as its starter, as a classic crib.
* The side with more hand points (lines, and the crib for the dealer) gains the difference in
  game points; the first to the target (31) wins. Only one side gains in a deal, so a game
  never ends level, and there are no skunks.
"""

from __future__ import annotations

from typing import Any

from ..core.outcome import TournamentScoring
from ..core.text import gettext_noop
from ..core.variant import register
from ..tabletop import TableTop


class CrossCrib(TableTop):
    key = "crosscrib"
    name = gettext_noop("CrossCrib")
    player_counts = (2,)
    tournament = TournamentScoring(kind="race", stops_at_target=False, skunks=False)
    options_schema: dict[str, dict[str, Any]] = {
        "target": {
            "type": "int",
            "min": 5,
            "max": 121,
            "default": 31,
            "label": gettext_noop("Game points to win"),
            "help": gettext_noop("each deal the side with more hand points gains the difference"),
            "summary": gettext_noop("to {} game points"),
        },
    }
    cards_each = {2: 14}
    crib_each = 2
    must_touch = False
    flush_min = 4
    turned_public = False
    score_name = "game_points"
    move_types = ("continue", "crib", "place")  # two players: nobody advises
    unknown_move = gettext_noop("there is no move {move} in CrossCrib (moves: {moves})")

    def settle(self, hand: list[int], scores: tuple[int, ...]) -> tuple[int, ...]:
        """The side with more hand points gains the difference as game points."""
        high = max(hand)
        return tuple(high - min(hand) if points == high else 0 for points in hand)


CROSSCRIB = register(CrossCrib())
