"""Speed of tournament pairing and standings (pure Python; no Django needed).

.venv/bin/python tests/bench/bench_tournament.py
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.tournaments import pairing as p  # noqa: E402

ENTRANTS = 500
TARGET_SECONDS = 1.0


def scores(rng: random.Random) -> tuple[int, int]:
    loser = rng.choice([rng.randint(91, 120)] * 8 + [rng.randint(61, 90), rng.randint(40, 60)])
    return (121, loser) if rng.random() < 0.5 else (loser, 121)


def build_event(rounds: int, rng: random.Random):
    """`rounds` rounds of a 500-entrant Swiss event, paired by standings, with results."""
    ids = list(range(ENTRANTS))
    met: set[frozenset] = set()
    byes: set[int] = set()
    results: list[p.Result] = []
    rules = p.Points()
    for number in range(rounds):
        ranked = [line.entrant for line in p.standings(ids, results)]
        pairs, bye = p.swiss_round(ranked, met, byes, first=number == 0, seed=1)
        for a, b in pairs:
            met.add(frozenset((a, b)))
            s = p.score_game(*scores(rng), rules)
            results.append(p.Result(a, b, s.points_a, s.points_b, s.spread_a, s.winner))
        if bye is not None:
            byes.add(bye)
    return ids, met, byes, results


def main() -> None:
    rng = random.Random(2026)
    ids, met, byes, results = build_event(20, rng)
    ranked = [line.entrant for line in p.standings(ids, results)]
    start = time.perf_counter()
    pairs, _ = p.swiss_round(ranked, met, byes)
    pair_time = time.perf_counter() - start
    assert all(frozenset(pair) not in met for pair in pairs)
    print(
        f"pair round 21 of {ENTRANTS} entrants, no repeat meetings: "
        f"{pair_time * 1000:8.1f} ms   (target < {TARGET_SECONDS:.0f} s)"
    )

    _, _, _, results22 = build_event(22, random.Random(7))
    start = time.perf_counter()
    lines = p.standings(ids, results22)
    standings_time = time.perf_counter() - start
    assert len(lines) == ENTRANTS and sum(x.games for x in lines) == ENTRANTS * 22
    print(
        f"standings for {ENTRANTS} entrants x 22 games:          "
        f"{standings_time * 1000:8.1f} ms   (target < {TARGET_SECONDS:.0f} s)"
    )
    if max(pair_time, standings_time) >= TARGET_SECONDS:
        sys.exit("too slow")


if __name__ == "__main__":
    main()
