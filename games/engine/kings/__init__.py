"""Kings Cribbage: the tile game on a 13x13 board, every line a cribbage hand."""

from .game import KINGS, Kings, State

__all__ = ["KINGS", "Kings", "State"]
