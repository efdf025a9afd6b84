"""Benchmark of whole games of classic Cribbage through the engine, for 2, 3 and 4 players.

Run from the project root: .venv/bin/python tests/bench/bench_game.py [games]

"play" times a game with random legal moves (new_state, to_move, legal_moves and apply each
move); "replay" times re-applying the recorded moves from the seed, as the server does when it
rebuilds a match from its move log.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine.cribbage import CRIBBAGE  # noqa: E402

GAMES = 200
TARGET_MS = 20.0  # a full random two-player game


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES
    play_game(2, b"warm-up", random.Random(0))
    print(f"classic cribbage, {games} random games each, to 121 (target < {TARGET_MS:g} ms)")
    for players in (2, 3, 4):
        rng = random.Random(players)
        play_ms, replay_ms, moves = [], [], []
        for n in range(games):
            seed = f"bench-{players}-{n}".encode()
            started = time.perf_counter()
            history = play_game(players, seed, rng)
            play_ms.append(1000 * (time.perf_counter() - started))
            started = time.perf_counter()
            replay(players, seed, history)
            replay_ms.append(1000 * (time.perf_counter() - started))
            moves.append(len(history))
        for label, times in (("play", play_ms), ("replay", replay_ms)):
            mean, p95 = statistics.fmean(times), percentile(times, 95)
            verdict = "ok" if p95 < TARGET_MS else "TOO SLOW"
            print(
                f"{players} players {label:>6}: mean {mean:6.2f} ms  p95 {p95:6.2f} ms  "
                f"({statistics.fmean(moves):.0f} moves a game)  {verdict}"
            )


def play_game(players: int, seed: bytes, rng: random.Random) -> list[tuple[int, Any]]:
    """One game with random legal moves; returns the moves made."""
    state = CRIBBAGE.new_state(players, {}, seed)
    history = []
    while to_move := sorted(CRIBBAGE.to_move(state)):
        seat = rng.choice(to_move)
        move = rng.choice(CRIBBAGE.legal_moves(state, seat))
        state, _ = CRIBBAGE.apply(state, seat, move)
        history.append((seat, move))
    return history


def replay(players: int, seed: bytes, history: list[tuple[int, Any]]) -> None:
    state = CRIBBAGE.new_state(players, {}, seed)
    for seat, move in history:
        state, _ = CRIBBAGE.apply(state, seat, move)
    assert CRIBBAGE.outcome(state) is not None


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


if __name__ == "__main__":
    main()
