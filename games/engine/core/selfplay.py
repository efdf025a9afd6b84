"""Self-play: whole games between players who pick random legal moves, and a summary of them."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .variant import Variant, candidates, get_variant

MOVE_LIMIT = 20_000  # far beyond any real match; a game that gets here counts as unfinished


def run_selfplay(
    variant: str,
    players: int,
    games: int,
    seed: str,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Play `games` matches of `variant` with random legal moves and summarise them.

    `random.Random(seed)` picks the moves and the deal seed of every match, so the same
    arguments give the same summary. A match that raises or runs past MOVE_LIMIT moves is
    counted (as an error or as unfinished) instead of stopping the run. Bad arguments (an
    unknown variant, a player count the game does not take, bad options) raise ValueError.
    """
    game = _variant(variant)
    if players not in game.player_counts:
        *rest, last = [str(n) for n in game.player_counts]
        counts = f"{', '.join(rest)} or {last}" if rest else last
        raise ValueError(f"{game.name} is for {counts} players, not {players}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError("the number of games must be a whole number, 0 or more")
    cleaned = game.clean_options(players, options)
    sides = game.teams(players)
    rng = random.Random(seed)
    totals = [0] * len(sides)
    wins = [0] * len(sides)
    finished = unfinished = skunks = double_skunks = moves_made = 0
    errors: list[str] = []
    for _ in range(games):
        match_seed = rng.getrandbits(256).to_bytes(32, "big")
        try:
            outcome, moves = _play_one(game, players, cleaned, match_seed, rng)
        except Exception as error:  # a bug in an engine must not stop the run; report it
            errors.append(f"{type(error).__name__}: {error}")
            continue
        moves_made += moves
        if outcome is None:
            unfinished += 1
            continue
        finished += 1
        for index, side in enumerate(outcome.sides):
            totals[index] += side.score
            wins[index] += side.seats == outcome.winners
        for result in outcome.games:
            skunks += sum(1 for side in result.sides if side.skunk == 1)
            double_skunks += sum(1 for side in result.sides if side.skunk == 2)
    played = finished + unfinished
    return {
        "variant": game.key,
        "players": players,
        "options": cleaned,
        "seed": seed,
        "games": games,
        "finished": finished,
        "unfinished": unfinished,
        "errors": len(errors),
        "first_error": errors[0] if errors else None,
        "sides": [
            {
                "seats": list(seats),
                "wins": wins[index],
                "mean_final_score": round(totals[index] / finished, 2) if finished else None,
            }
            for index, seats in enumerate(sides)
        ],
        "skunks": skunks,
        "double_skunks": double_skunks,
        "mean_moves": round(moves_made / played, 2) if played else None,
    }


def _variant(key: str) -> Variant:
    try:
        return get_variant(key)
    except KeyError as error:
        raise ValueError(str(error)) from None


def _play_one(
    game: Variant,
    players: int,
    options: Mapping[str, Any],
    seed: bytes,
    rng: random.Random,
) -> tuple[Any, int]:
    """One match to its end (or to MOVE_LIMIT): the outcome (None if unfinished), moves made."""
    state = game.new_state(players, options, seed)
    for moves in range(MOVE_LIMIT):
        outcome = game.outcome(state)
        if outcome is not None:
            return outcome, moves
        to_move = sorted(game.to_move(state))
        if not to_move:
            return None, moves
        seat = rng.choice(to_move)
        state, _ = game.apply(state, seat, rng.choice(candidates(game, state, seat)))
    return game.outcome(state), MOVE_LIMIT
