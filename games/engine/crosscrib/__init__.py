"""CrossCrib for two players: Table Top Cribbage with a crib, cards anywhere on the grid,
four-card flushes in a line and game points from the difference of hand points. Importing
the package registers the variant."""

from .game import CROSSCRIB, CrossCrib

__all__ = ["CROSSCRIB", "CrossCrib"]
