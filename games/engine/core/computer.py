"""The computer player's one entry point for every game, with named levels.

Each variant plays its own computer through `variant.computer(state, seat, level, rng)`; the
level "random" (a legal move at random, for beginners' practice and tests) works for every
game. A bot sees only what its seat's view shows, never the hidden state.
"""

from __future__ import annotations

import random
from typing import Any

from .text import gettext_noop
from .variant import Move, Variant, candidates, get_variant

RANDOM = gettext_noop("random")
DEFAULT_LEVEL = "strong"
# The level names the games use are also what a player reads when choosing an opponent: marked
# here for the site's catalogue (a game with a level of another name marks it in its own bot).
LEVEL_NAMES = (RANDOM, gettext_noop("easy"), gettext_noop("strong"))


def levels(variant: Variant) -> tuple[str, ...]:
    """The levels a game's computer plays at, weakest first ("random" always among them)."""
    return (RANDOM, *variant.levels)


def default_level(variant: Variant) -> str:
    """ "strong" where the game has it, else its best level."""
    return DEFAULT_LEVEL if DEFAULT_LEVEL in variant.levels else levels(variant)[-1]


def computer_move(
    variant: str | Variant,
    state: Any,
    seat: int,
    level: str | None = None,
    rng: random.Random | None = None,
) -> Move:
    """A legal move for `seat` at `level` (the game's default level when None).

    Raises ValueError for an unknown level or a seat that has nothing to do.
    """
    game = get_variant(variant) if isinstance(variant, str) else variant
    level = level or default_level(game)
    if level not in levels(game):
        known = ", ".join(levels(game))
        raise ValueError(f"{game.name} has no computer level {level!r} (levels: {known})")
    if seat not in game.to_move(state):
        raise ValueError(f"seat {seat} has no move to make")
    rng = rng or random.Random()  # noqa: S311 - choosing between moves, not dealing
    if level == RANDOM:
        return rng.choice(candidates(game, state, seat))
    return game.computer(state, seat, level, rng)
