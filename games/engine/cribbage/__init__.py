"""Classic Cribbage for 2, 3 or 4 players (partnerships): the deal, the crib, the starter, the
play to 31 and the show. Importing the package registers the variant."""

from .game import CRIBBAGE, Cribbage, cut_for_deal
from .state import State, position

__all__ = ["CRIBBAGE", "Cribbage", "State", "cut_for_deal", "position"]
