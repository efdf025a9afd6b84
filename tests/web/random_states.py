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


def play_moves(match_id: int, user_of: dict[int, Any], moves: int, seed: int) -> None:
    """Up to `moves` random moves of a match in the database, each by its seat's member
    (user_of: seat -> member) through services.match_play; stops when the match ends or a
    seat with no member in user_of is to move."""
    from games import services
    from games.models import Match

    rng = random.Random(seed)
    for _ in range(moves):
        match = services.read_match(match_id)
        if match.status != Match.Status.ACTIVE:
            return
        game = get_variant(match.variant)
        state = game.load(match.snapshot)
        seat = min(game.to_move(state))
        if seat not in user_of:
            return
        move = computer_move(game, state, seat, "random", rng)
        services.match_play(match_id=match_id, user=user_of[seat], seq=match.seq, move=move)
