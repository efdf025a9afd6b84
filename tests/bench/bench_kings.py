"""Kings Cribbage figures: move generation speed, the computer's move time, and how often the
strong computer beats the easy one.

Run from the project root: .venv/bin/python tests/bench/bench_kings.py
(KINGS_GAMES=100 for a quicker, wider interval; KINGS_WORKERS sets the processes used.)

Times are CPU time of this process (time.process_time), what a move costs on one core: on a
shared machine the wall clock also counts the time other programs hold the cores, so it is
printed beside them for reference only.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine import computer_move  # noqa: E402
from games.engine.kings import KINGS, State  # noqa: E402

POSITIONS = 100
MOVEGEN_TARGET_MS = 100.0
COMPUTER_P99_TARGET_MS = 250.0
GAMES = int(os.environ.get("KINGS_GAMES", "500"))
WIN_TARGET = 0.60
MOVE_LIMIT = 1_000  # a game between computers always ends well before (see bot.stalled)


def main() -> None:
    positions = mid_game_positions(POSITIONS)
    times = [best_of(3, lambda s=state: KINGS.legal_moves(s, s.turn)) for state in positions]
    walls = [best_of(1, lambda s=state: KINGS.legal_moves(s, s.turn), time.perf_counter)
             for state in positions]  # fmt: skip
    counts = [len(KINGS.legal_moves(s, s.turn)) for s in positions]
    median = statistics.median(times)
    verdict = "ok" if median < MOVEGEN_TARGET_MS else "TOO SLOW"
    print(
        f"legal_moves, {len(positions)} mid-game positions (rack of 5): median {median:.1f} ms, "
        f"p95 {percentile(times, 95):.1f} ms, max {max(times):.1f} ms CPU "
        f"(wall clock median {statistics.median(walls):.1f} ms); "
        f"moves listed median {statistics.median(counts):.0f}, max {max(counts)} "
        f"(target median < {MOVEGEN_TARGET_MS:.0f} ms) {verdict}"
    )

    for level in ("easy", "strong"):
        spent = computer_times(positions, level)
        walls = computer_times(positions, level, time.perf_counter)
        p99 = percentile(spent, 99)
        verdict = "ok" if p99 < COMPUTER_P99_TARGET_MS else "TOO SLOW"
        print(
            f"computer move ({level}), {len(spent)} positions: median "
            f"{statistics.median(spent):.1f} ms, p95 {percentile(spent, 95):.1f} ms, p99 "
            f"{p99:.1f} ms CPU (wall clock p99 {percentile(walls, 99):.1f} ms) "
            f"(target p99 < {COMPUTER_P99_TARGET_MS:.0f} ms) {verdict}"
        )

    workers = int(os.environ.get("KINGS_WORKERS", str(os.cpu_count() or 1)))
    started = time.perf_counter()
    with Pool(workers) as pool:
        results = pool.map(strong_vs_easy, range(GAMES))
    wins = sum(results)
    rate = wins / GAMES
    low, high = wilson(wins, GAMES)
    verdict = "ok" if rate >= WIN_TARGET else "TOO WEAK"
    print(
        f"strong vs easy, {GAMES} seeded 2-player games ({GAMES // 2} seeds, each played from both "
        f"seats; a tie counts half): "
        f"strong wins {rate:.1%} (95% interval {low:.1%} to {high:.1%}) "
        f"in {time.perf_counter() - started:.0f} s (target >= {WIN_TARGET:.0%}) {verdict}"
    )


def mid_game_positions(n: int) -> list[State]:
    """Positions from seeded easy-vs-easy games: a lay already down, bag not empty, the
    player to move holding five tiles; at most four from each game."""
    found: list[State] = []
    game = 0
    while len(found) < n:
        rng = random.Random(game)
        state = KINGS.new_state(2, {}, f"bench position {game}".encode())
        taken = 0
        moves = 0
        while KINGS.outcome(state) is None and taken < 4 and len(found) < n:
            seat = state.turn
            if (
                moves >= 4
                and moves % 3 == 0
                and state.bag
                and len(state.racks[seat]) == 5
                and not state.first_lay
            ):
                found.append(state)
                taken += 1
            state, _ = KINGS.apply(state, seat, computer_move(KINGS, state, seat, "easy", rng))
            moves += 1
        game += 1
    return found


def computer_times(positions: list[State], level: str, clock=time.process_time) -> list[float]:
    rng = random.Random(1)
    spent = []
    for state in positions:
        started = clock()
        computer_move(KINGS, state, state.turn, level, rng)
        spent.append((clock() - started) * 1000)
    return spent


def strong_vs_easy(game: int) -> float:
    """1 if strong wins game `game`, 0.5 for a shared win, 0 otherwise. Games go in pairs on
    one seed, the seats swapped: each level meets the same bag from either seat, so the luck
    of the tiles weighs less in the rate."""
    rng = random.Random(game)
    strong = game % 2
    levels = {strong: "strong", 1 - strong: "easy"}
    state = KINGS.new_state(2, {}, f"strong vs easy {game // 2}".encode())
    for _ in range(MOVE_LIMIT):
        if KINGS.outcome(state) is not None:
            break
        seat = min(KINGS.to_move(state))
        state, _ = KINGS.apply(state, seat, computer_move(KINGS, state, seat, levels[seat], rng))
    else:
        raise RuntimeError(f"game {game} did not end in {MOVE_LIMIT} moves")
    winners = KINGS.outcome(state).winners
    if strong in winners:
        return 1.0 if len(winners) == 1 else 0.5
    return 0.0


def best_of(n: int, run, clock=time.process_time) -> float:
    best = math.inf
    for _ in range(n):
        started = clock()
        run()
        best = min(best, clock() - started)
    return best * 1000


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)) - 1)]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% with z = 1.96)."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


if __name__ == "__main__":
    main()
