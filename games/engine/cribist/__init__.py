"""Cribist: four players take tricks, trumps named by the opening lead, each trick counted as
a cribbage hand (the variant, its state, the play, muggins, the view and the computer)."""

from .game import CRIBIST, Cribist
from .state import State, position

__all__ = ["CRIBIST", "Cribist", "State", "position"]
