"""Pure-Python rule engines for the cribbage family of games (no Django, no I/O).

The front door for programs, benchmarks and outside checks:
`from games.engine import get_variant, variant_keys, computer_move`. Importing the package
registers every game listed in GAMES (each a folder beside this file).
"""

from importlib import import_module

from .core import computer_move, get_variant, preview, table_view, variant_keys
from .core.variant import BadOptions, IllegalMove, UnknownVariant

GAMES = ("cribbage", "tabletop", "crosscrib", "kings", "cribist")

for _game in GAMES:
    import_module(f"{__name__}.{_game}")

__all__ = [
    "BadOptions", "IllegalMove", "UnknownVariant", "computer_move", "get_variant", "preview",
    "table_view", "variant_keys",
]  # fmt: skip
