"""States of random matches, for tests that draw a game's regions in every phase."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from games.engine import computer_move, get_variant


def random_states(
    variant: str, players: int, options: dict, seed: int, every: int = 1
) -> Iterator[tuple[Any, bool]]:
    """Every `every`-th state of one random match played to its end, and the last one, each
    with whether the match is over."""
    game = get_variant(variant)
    rng = random.Random(seed)
    state = game.new_state(players, options, bytes(rng.randrange(256) for _ in range(32)))
    moves = 0
    while game.to_move(state) and moves < 3000:
        if moves % every == 0:
            yield state, False
        seat = min(game.to_move(state))
        state, _ = game.apply(state, seat, computer_move(game, state, seat, "random", rng))
        moves += 1
    yield state, True
