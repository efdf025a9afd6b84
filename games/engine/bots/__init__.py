"""Computer players. A bot sees exactly what its seat's view shows, never the hidden state."""

from __future__ import annotations

import random
from typing import Any

from ..variant import Move, Variant
from . import simple_cribbage

_BOTS = {"cribbage": simple_cribbage.choose}


def choose_move(variant: Variant, state: Any, seat: int, rng: random.Random | None = None) -> Move:
    """A legal move for `seat`, chosen from its own view of the table."""
    view = variant.view(state, seat)
    legal = view.get("legal_moves") or variant.legal_moves(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no move to make")
    rng = rng or random.Random()  # noqa: S311 - choosing between equal moves, not dealing
    bot = _BOTS.get(variant.key)
    if bot is None:
        return rng.choice(legal)
    return bot(view, legal, rng)
