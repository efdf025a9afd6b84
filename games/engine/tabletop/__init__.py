"""Table Top Cribbage for 2 players or 4 in partnerships: cards turned one at a time onto a
5x5 layout, one side scoring the columns and the other the rows. Importing the package
registers the variant."""

from .game import TABLETOP, TableTop
from .state import State, position

__all__ = ["TABLETOP", "State", "TableTop", "position"]
