"""Benchmark of show scoring: the fast hand count and the exact show distribution.

Run from the project root: .venv/bin/python tests/bench/bench_scoring.py
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine.pieces.cards import FULL_DECK, Card  # noqa: E402
from games.engine.scoring import score_hand, show_distribution  # noqa: E402

HANDS = 500_000
HANDS_PER_SECOND_TARGET = 200_000
DISTRIBUTION_SECONDS_TARGET = 2.0


def main() -> None:
    started = time.perf_counter()
    score_hand(FULL_DECK[:4], FULL_DECK[4])  # builds the rank table
    print(f"rank table built in {time.perf_counter() - started:.3f} s")

    deals = random_deals(HANDS, seed=2024)
    rate = HANDS / best_of(3, lambda: score_all(deals))
    verdict = "ok" if rate >= HANDS_PER_SECOND_TARGET else "TOO SLOW"
    print(
        f"score_hand: {rate:,.0f} hands/s over {HANDS:,} random hands "
        f"(target >= {HANDS_PER_SECOND_TARGET:,}/s) {verdict}"
    )

    for crib in (False, True):
        seconds = best_of(3, lambda crib=crib: show_distribution(crib=crib))
        label = "distribution --crib" if crib else "distribution"
        verdict = "ok" if seconds < DISTRIBUTION_SECONDS_TARGET else "TOO SLOW"
        print(
            f"{label}: {seconds:.3f} s best of 3 "
            f"(target < {DISTRIBUTION_SECONDS_TARGET:.0f} s) {verdict}"
        )


def random_deals(n: int, seed: int) -> list[tuple[list[Card], Card]]:
    rng = random.Random(seed)
    deals = []
    for _ in range(n):
        five = rng.sample(FULL_DECK, 5)
        deals.append((five[:4], five[4]))
    return deals


def score_all(deals: list[tuple[list[Card], Card]]) -> None:
    for hand, starter in deals:
        score_hand(hand, starter)


def best_of(repeats: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


if __name__ == "__main__":
    main()
