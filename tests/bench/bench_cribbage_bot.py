"""Benchmark of the Cribbage computer (issue 14): discard regret, pegging, whole games, speed.

Run from the project root: .venv/bin/python tests/bench/bench_cribbage_bot.py [--games N] ...
The issue's settings are `--deals 2000 --hands 4000 --games 10000 --random-games 1000`; the
defaults are smaller so that `make bench` ends in minutes on two cores (every figure is printed
with its 95% interval for the count that ran). Every deal comes from a fixed seed.

The baselines live here, not in the product:
* greedy: discards to keep the best expected hand alone (the crib ignored); pegs the card that
  scores most now, avoiding a count of 5 or 21 among equals;
* random: a legal move at random.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from statistics import mean, stdev
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine.cribbage import CRIBBAGE  # noqa: E402
from games.engine.cribbage.bot import choose  # noqa: E402
from games.engine.cribbage.discard import crib_owner_is_side, rank_discards  # noqa: E402
from games.engine.cribbage.pegging import peg_total  # noqa: E402
from games.engine.cribbage.state import PLAY  # noqa: E402
from games.engine.pieces.cards import FULL_DECK, parse_card, shuffled_deck  # noqa: E402
from games.engine.scoring import score_hand  # noqa: E402

Player = Callable[[dict[str, Any], random.Random], dict]
WORKERS = 2


# --- the players ------------------------------------------------------------------------------


def strong(view: dict[str, Any], rng: random.Random) -> dict:
    return choose(view, "strong", rng)


def easy(view: dict[str, Any], rng: random.Random) -> dict:
    return choose(view, "easy", rng)


def random_player(view: dict[str, Any], rng: random.Random) -> dict:
    return rng.choice(view["legal_moves"])


def greedy(view: dict[str, Any], rng: random.Random) -> dict:
    """The baseline: best hand alone at the discard, most points now in the play."""
    legal = view["legal_moves"]
    kind = legal[0]["type"]
    if kind == "discard":
        hand = [parse_card(c) for c in view["hand"]]
        unseen = [c for c in FULL_DECK if c not in hand]

        def kept_value(move: dict) -> float:
            kept = [c for c in hand if str(c) not in move["cards"]]
            return sum(score_hand(kept, s) for s in unseen)

        return max(legal, key=kept_value)
    if kind == "play":
        current = [parse_card(p["card"]) for p in view["current"]]

        def worth(move: dict) -> tuple[int, int]:
            card = parse_card(move["card"])
            after = view["count"] + card.value
            return (peg_total([*current, card]), 0 if after in (5, 21) else 1)

        return max(legal, key=worth)
    if kind == "count":
        return choose(view, "easy", rng)  # muggins is off in these games; kept for safety
    return legal[0]


PLAYERS: dict[str, Player] = {
    "strong": strong,
    "easy": easy,
    "greedy": greedy,
    "random": random_player,
}


# --- discard regret ---------------------------------------------------------------------------


def discard_regret(job: tuple[str, int, int, bool]) -> list[tuple[float, bool]]:
    """(points lost against the exact best discard, whether it was the best) for each deal."""
    name, first, count, dealer = job
    player = PLAYERS[name]
    out = []
    for deal in range(first, first + count):
        state = CRIBBAGE.position(
            [_dealt(deal)[:6], _dealt(deal)[6:12]], None, dealer=0 if dealer else 1, phase="discard"
        )
        view = CRIBBAGE.view(state, 0)
        move = player(view, random.Random(deal))
        hand = [parse_card(c) for c in view["hand"]]
        ranking = rank_discards(hand, crib_owner_is_side(view["dealer"], 0, 2))
        chosen = next(d for d in ranking if {str(c) for c in d.cards} == set(move["cards"]))
        loss = ranking[0].total - chosen.total
        out.append((loss, loss < 1e-9))
    return out


def _dealt(deal: int) -> list[str]:
    return [str(c) for c in shuffled_deck(b"bench-cribbage-bot", f"deal:{deal}")[:13]]


# --- pegging ----------------------------------------------------------------------------------


def pegging(job: tuple[str, str, int, int]) -> list[float]:
    """For each hand: (a's pegs - b's pegs) averaged over the two seatings, both keeping the
    cards greedy keeps."""
    a, b, first, count = job
    out = []
    for deal in range(first, first + count):
        cards = _dealt(deal)
        setup = CRIBBAGE.position([cards[:6], cards[6:12]], None, dealer=1, phase="discard")
        kept = []
        for seat in (0, 1):
            move = greedy(CRIBBAGE.view(setup, seat), random.Random(0))
            kept.append([c for c in cards[6 * seat : 6 * seat + 6] if c not in move["cards"]])
        crib = [c for c in cards[:12] if not any(c in k for k in kept)]
        margins = []
        for a_seat in (0, 1):
            state = CRIBBAGE.position(kept, cards[12], dealer=1, crib=crib)
            rng = random.Random(deal * 2 + a_seat)
            while state.phase == PLAY:
                seat = state.turn
                player = PLAYERS[a] if seat == a_seat else PLAYERS[b]
                state, _ = CRIBBAGE.apply(state, seat, player(CRIBBAGE.view(state, seat), rng))
            margins.append(state.scores[a_seat] - state.scores[1 - a_seat])
        out.append(mean(margins))
    return out


# --- whole games ------------------------------------------------------------------------------


def games(job: tuple[str, str, int, int]) -> tuple[list[bool], list[float]]:
    """Games to 121 of a against b (a sits first in even games): a's wins and a's move times."""
    a, b, first, count = job
    wins, times = [], []
    for game in range(first, first + count):
        state = CRIBBAGE.new_state(2, {"target": 121}, f"bench-game-{game}".encode())
        rng = random.Random(game)
        a_seat = game % 2
        while CRIBBAGE.outcome(state) is None:
            seat = min(CRIBBAGE.to_move(state))
            view = CRIBBAGE.view(state, seat)
            if seat == a_seat:
                started = time.process_time()
                move = PLAYERS[a](view, rng)
                if len(view["legal_moves"]) > 1:
                    times.append(time.process_time() - started)
            else:
                move = PLAYERS[b](view, rng)
            state, _ = CRIBBAGE.apply(state, seat, move)
        wins.append(CRIBBAGE.outcome(state).winners == (a_seat,))
    return wins, times


# --- running and printing -----------------------------------------------------------------------


def spread(pool: ProcessPoolExecutor, work, jobs: list) -> list:
    results = []
    for part in pool.map(work, jobs):
        results.append(part)
    return results


def chunks(total: int, parts: int) -> list[tuple[int, int]]:
    size = max(1, math.ceil(total / parts))
    return [(start, min(size, total - start)) for start in range(0, total, size)]


def mean_interval(values: list[float]) -> str:
    m = mean(values)
    half = 1.96 * stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")
    return f"{m:+.3f} (95% {m - half:+.3f} to {m + half:+.3f}, n={len(values):,})"


def wilson(wins: int, n: int) -> str:
    p = wins / n
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (
        f"{100 * p:.1f}% (95% {100 * (centre - half):.1f} to {100 * (centre + half):.1f}, n={n:,})"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per role (issue: 2000)")
    parser.add_argument("--hands", type=int, default=1000, help="pegging hands (issue: 4000)")
    parser.add_argument("--games", type=int, default=200, help="games vs greedy (issue: 10000)")
    parser.add_argument("--random-games", type=int, default=100, help="games vs random")
    parser.add_argument("--workers", type=int, default=WORKERS)
    parser.add_argument(
        "--only",
        choices=("discard", "pegging", "games"),
        action="append",
        help="run only these parts (repeatable; default all)",
    )
    args = parser.parse_args(argv)
    parts_to_run = set(args.only or ("discard", "pegging", "games"))
    parts = args.workers * 4
    with ProcessPoolExecutor(args.workers) as pool:
        if "discard" in parts_to_run:
            report_discards(pool, args.deals, parts)
        if "pegging" in parts_to_run:
            report_pegging(pool, args.hands, parts)
        if "games" in parts_to_run:
            report_games(pool, args.games, args.random_games, args.workers, parts)


def report_discards(pool: ProcessPoolExecutor, deals: int, parts: int) -> None:
    started = time.perf_counter()
    for dealer in (True, False):
        role = "dealer" if dealer else "pone"
        for name in ("strong", "easy", "greedy"):
            jobs = [(name, 1_000_000 * dealer + a, n, dealer) for a, n in chunks(deals, parts)]
            rows = [row for part in spread(pool, discard_regret, jobs) for row in part]
            losses = [loss for loss, _ in rows]
            best = sum(hit for _, hit in rows)
            print(
                f"discard regret {role:6} {name:6}: {mean_interval(losses)} points a deal; "
                f"best discard {wilson(best, len(rows))}",
                flush=True,
            )
    print(f"  ({time.perf_counter() - started:.0f} s)", flush=True)


def report_pegging(pool: ProcessPoolExecutor, hands: int, parts: int) -> None:
    started = time.perf_counter()
    for name in ("strong", "easy"):
        jobs = [(name, "greedy", 2_000_000 + a, n) for a, n in chunks(hands, parts)]
        margins = [m for part in spread(pool, pegging, jobs) for m in part]
        print(f"pegging {name} - greedy: {mean_interval(margins)} points a hand", flush=True)
    print(f"  ({time.perf_counter() - started:.0f} s)", flush=True)


def report_games(
    pool: ProcessPoolExecutor, count: int, random_count: int, workers: int, parts: int
) -> None:
    all_times: list[float] = []
    for opponent, games_count in (("greedy", count), ("random", random_count)):
        started = time.perf_counter()
        jobs = [("strong", opponent, 3_000_000 + a, n) for a, n in chunks(games_count, parts)]
        wins, times = [], []
        for part_wins, part_times in spread(pool, games, jobs):
            wins += part_wins
            times += part_times
        all_times += times
        elapsed = time.perf_counter() - started
        print(
            f"games to 121, strong vs {opponent}: wins {wilson(sum(wins), len(wins))} "
            f"({elapsed:.0f} s on {workers} workers, "
            f"{elapsed * workers / len(wins):.2f} core-s a game)",
            flush=True,
        )
    all_times.sort()
    n = len(all_times)
    print(
        f"strong move time (CPU, moves with a choice): median "
        f"{1000 * all_times[n // 2]:.1f} ms, p99 {1000 * all_times[int(n * 0.99)]:.1f} ms, "
        f"max {1000 * all_times[-1]:.1f} ms over {n:,} moves",
        flush=True,
    )


if __name__ == "__main__":
    main()
