"""Benchmark of Table Top Cribbage and CrossCrib: whole random games through the engine, the
computer's move time, and the strong computer against the easy one.

Run from the project root: .venv/bin/python tests/bench/bench_tabletop.py [--games N]
[--duel N] (defaults: 200 random games, 1,000 duels per game and player count).

"play" times a match of random legal moves (new_state, to_move, legal_moves, apply); "replay"
re-applies the recorded moves from the seed. "move" times `computer_move` at each level on the
positions of strong-against-easy matches (p50 and p99; target p99 < 50 ms on one core). "duel"
plays seeded matches of strong against easy, the strong side taking the first seat in every
other match, and prints strong's share of wins with a 95% Wilson interval (target >= 60%). The
duels run in one process per core. Times are the CPU time of the thread (time.thread_time), so
they measure one core's work even on a busy machine.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine import computer_move, get_variant  # noqa: E402

CASES = (("tabletop", 2), ("tabletop", 4), ("crosscrib", 2))
MOVE_P99_MS = 50.0
STRONG_SHARE = 0.60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="random games per case")
    parser.add_argument("--duel", type=int, default=1000, help="strong-easy matches per case")
    args = parser.parse_args()
    ok = True
    print(f"random matches through apply, {args.games} each, default options")
    for key, players in CASES:
        play_ms, replay_ms, moves = [], [], []
        rng = random.Random(f"{key}{players}")
        for n in range(args.games):
            seed = f"bench-{key}-{players}-{n}".encode()
            started = time.thread_time()
            history = random_match(key, players, seed, rng)
            play_ms.append(1000 * (time.thread_time() - started))
            started = time.thread_time()
            replay(key, players, seed, history)
            replay_ms.append(1000 * (time.thread_time() - started))
            moves.append(len(history))
        for label, times in (("play", play_ms), ("replay", replay_ms)):
            print(
                f"  {key:9} {players}p {label:>6}: median {statistics.median(times):6.2f} ms  "
                f"p95 {percentile(times, 95):6.2f} ms  ({statistics.fmean(moves):.0f} moves)"
            )
    workers = os.cpu_count() or 1
    print(f"\nstrong against easy, {args.duel} seeded matches each ({workers} processes)")
    for key, players in CASES:
        chunks = [range(i, args.duel, workers) for i in range(workers)]
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(duel_chunk, [(key, players, list(c)) for c in chunks]))
        wins = sum(part["wins"] for part in parts)
        times: dict[str, list[float]] = {"easy": [], "strong": []}
        for part in parts:
            for level, values in part["times"].items():
                times[level].extend(values)
        share = wins / args.duel if args.duel else 0.0
        low, high = wilson(wins, args.duel)
        verdict = "ok" if share >= STRONG_SHARE else "TOO WEAK"
        ok = ok and verdict == "ok"
        print(
            f"  {key:9} {players}p: strong wins {wins}/{args.duel} = {100 * share:.1f}% "
            f"(95% interval {100 * low:.1f}-{100 * high:.1f}%)  {verdict}"
        )
        for level, values in times.items():
            p99 = percentile(values, 99)
            fine = p99 < MOVE_P99_MS
            ok = ok and fine
            verdict = "ok" if fine else "TOO SLOW"
            print(
                f"    {level:6} move: median {statistics.median(values):5.2f} ms  p99 {p99:5.2f} ms"
                f"  max {max(values):6.2f} ms  ({len(values)} moves)  {verdict}"
            )
    if not ok:
        sys.exit(1)


def random_match(key: str, players: int, seed: bytes, rng: random.Random) -> list[tuple]:
    game = get_variant(key)
    state = game.new_state(players, {}, seed)
    history = []
    while to_move := sorted(game.to_move(state)):
        seat = rng.choice(to_move)
        move = rng.choice(game.legal_moves(state, seat))
        state, _ = game.apply(state, seat, move)
        history.append((seat, move))
    return history


def replay(key: str, players: int, seed: bytes, history: list[tuple]) -> None:
    game = get_variant(key)
    state = game.new_state(players, {}, seed)
    for seat, move in history:
        state, _ = game.apply(state, seat, move)


def duel_chunk(job: tuple[str, int, list[int]]) -> dict[str, Any]:
    """Play the numbered strong-against-easy matches; count strong's wins and time moves."""
    key, players, numbers = job
    game = get_variant(key)
    wins = 0
    times: dict[str, list[float]] = {"easy": [], "strong": []}
    warm = game.new_state(players, {}, b"warm up")
    computer_move(game, warm, warm.turn, "strong", random.Random(0))  # fills the bot's tables
    for n in numbers:
        strong_side = n % 2
        rng = random.Random(n)
        state = game.new_state(players, {}, f"duel-{key}-{players}-{n}".encode())
        while (result := game.outcome(state)) is None:
            # The player to place moves; partners' suggestions are left out of the duel.
            seat = state.turn if state.turn is not None else min(game.to_move(state))
            level = "strong" if seat % 2 == strong_side else "easy"
            started = time.thread_time()
            move = computer_move(game, state, seat, level, rng)
            if move["type"] != "continue":
                times[level].append(1000 * (time.thread_time() - started))
            state, _ = game.apply(state, seat, move)
        wins += result.winners[0] % 2 == strong_side
    return {"wins": wins, "times": times}


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share of wins."""
    if not games:
        return 0.0, 0.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(pct / 100 * len(ordered)) - 1))
    return ordered[index]


if __name__ == "__main__":
    main()
