"""Benchmark of ratings and statistics: the cost on the move that ends a match, the figures
counted after it, the leaderboard of 5,000 members, and the recompute command.

Run from the project root: .venv/bin/python tests/bench/bench_ratings.py [matches]
(a throw-away SQLite database in a temporary folder).
"""

from __future__ import annotations

import os
import random
import secrets
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.bench.django_setup import start_django  # noqa: E402

start_django("ratings")

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts import stats  # noqa: E402
from accounts.models import Rating, User  # noqa: E402
from games import services  # noqa: E402
from games.engine import computer_move, get_variant  # noqa: E402
from games.models import Match, Seat  # noqa: E402

MEMBERS = 5000
MATCHES = 300
PLAYED = 8


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else MATCHES
    call_command("migrate", verbosity=0)
    members = User.objects.bulk_create(
        User(username=f"m{i:05}", email=f"m{i:05}@example.org") for i in range(MEMBERS)
    )
    rng = random.Random(1)
    start = timezone.now() - timedelta(days=60)
    ending_ms = []
    for n in range(matches):
        a, b = rng.sample(members[:400], 2)
        match = _finished_row(a, b, rng, start + timedelta(minutes=17 * n))
        started = time.perf_counter()
        with transaction.atomic():
            stats.on_match_ended(match=match)  # what the ending move runs in its transaction
        ending_ms.append(1000 * (time.perf_counter() - started))
    print(f"{matches} rated 2-player matches ended, ratings and records written in the "
          f"ending transaction: {_spread(ending_ms)}")  # fmt: skip

    figures_ms = []
    for n in range(PLAYED):
        match = _played_out(members[1000 + 2 * n], members[1001 + 2 * n], n)
        started = time.perf_counter()
        stats.fill_figures(match.pk)
        figures_ms.append(1000 * (time.perf_counter() - started))
    print(f"Cribbage's figures of a played-out match to 121 (after the commit, off the "
          f"request): {_spread(figures_ms)}")  # fmt: skip

    Rating.objects.bulk_create(
        [
            Rating(user=u, game="cribbage", players=2, rating=1000 + rng.random() * 999, games=20)
            for u in members[400:]
        ],
        ignore_conflicts=True,  # the members who played whole matches have ratings already
    )
    client = Client()
    board_ms, queries = [], 0
    for page in range(1, 31):
        started = time.perf_counter()
        with CaptureQueriesContext(connection) as captured:
            response = client.get(f"/leaderboards/cribbage/?players=2&page={page}")
        board_ms.append(1000 * (time.perf_counter() - started))
        assert response.status_code == 200
        queries = max(queries, len(captured))
    print(f"leaderboard of {Rating.objects.count()} ratings, one page of 100: "
          f"{_spread(board_ms)}, at most {queries} queries")  # fmt: skip

    started = time.perf_counter()
    call_command("recompute_ratings", stdout=open(os.devnull, "w"))  # noqa: SIM115
    print(f"recompute_ratings over {matches + PLAYED} matches: "
          f"{1000 * (time.perf_counter() - started):.0f} ms")  # fmt: skip


def _finished_row(a: User, b: User, rng: random.Random, at) -> Match:
    winner = rng.randrange(2)
    seed = secrets.token_bytes(8)
    match = Match.objects.create(
        variant="cribbage", players=2, status="finished", ending="played", seed=seed.hex(),
        seed_sha256="0" * 64, finished_at=at,
    )  # fmt: skip
    Seat.objects.bulk_create([Seat(match=match, index=0, team=0, user=a),
                              Seat(match=match, index=1, team=1, user=b)])  # fmt: skip
    sides = [
        {"seats": [s], "score": 121 if s == winner else rng.randint(60, 120), "skunk": 0,
         "games_won": 0, "place": 1 if s == winner else 2}
        for s in (0, 1)
    ]  # fmt: skip
    match.outcome = {"winners": [winner], "sides": sides, "reason": "", "games": []}
    match.save(update_fields=["outcome"])
    return match


def _played_out(a: User, b: User, n: int) -> Match:
    match = services.match_create(creator=a, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=b)
    engine = get_variant("cribbage")
    rng = random.Random(n)
    members = {0: a, 1: b}
    match.refresh_from_db()
    while match.status == Match.Status.ACTIVE:
        seat = match.to_move[0]
        move = computer_move(engine, engine.load(match.snapshot), seat, "random", rng)
        services.match_play(match_id=match.pk, user=members[seat], seq=match.seq, move=move)
        match.refresh_from_db()
    return match


def _spread(ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    return (
        f"median {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, p99 {p99:.2f} ms (n={len(ms)})"
    )


if __name__ == "__main__":
    main()
