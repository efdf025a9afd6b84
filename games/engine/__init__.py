"""Pure-Python rule engines for the cribbage family of games (no Django, no I/O).

Importing the package registers every variant, so `variant.get_variant("cribbage")` works.
"""

from . import cribbage as cribbage  # registers "cribbage"
