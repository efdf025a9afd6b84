"""What drawing a move's board costs, game by game: after each move of random matches, every
seat's regions and one spectator's are drawn, as the sockets of a live match draw them (each
seat connected, so who is at the table is drawn once for all), the render cache emptied first.
In process, on SQLite; the figure is per move, all viewers together.

Run from the project root: .venv/bin/python tests/bench/bench_regions.py [moves] [rounds] [games]
(games: keys separated by commas, e.g. kings,cribist; all by default)
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.bench.django_setup import start_django  # noqa: E402

start_django("regions")

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import translation  # noqa: E402

from games import presenters, services  # noqa: E402
from games.engine import computer_move, get_variant  # noqa: E402
from games.variants import web_games  # noqa: E402

MOVES, ROUNDS = 150, 3


def main() -> None:
    moves = int(sys.argv[1]) if len(sys.argv) > 1 else MOVES
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else ROUNDS
    only = set(sys.argv[3].split(",")) if len(sys.argv) > 3 else None
    call_command("migrate", verbosity=0)
    members = [get_user_model().objects.create(username=f"bench{i}") for i in range(5)]
    translation.activate("en")
    print(f"a move's regions drawn for every seat and a spectator, in process: {rounds} rounds")
    print(f"of {moves} moves; ms a move, the median of each round and the last one's quartiles")
    rng = random.Random(0)
    for web in web_games():
        if only and web.key not in only:
            continue
        for players in get_variant(web.key).player_counts:
            _draws(web.key, players, members, 20, rng)  # warm up
            medians, last = [], []
            for _ in range(rounds):
                last = _draws(web.key, players, members, moves, rng)
                medians.append(statistics.median(last))
            q1, _, q3 = statistics.quantiles(last, n=4)
            shown = " ".join(f"{m:5.2f}" for m in medians)
            print(f"  {web.key:10} {players} players: {shown}   (quartiles {q1:.2f}-{q3:.2f})")


def _draws(variant: str, players: int, members, count: int, rng: random.Random) -> list[float]:
    """Milliseconds to draw each of `count` moves for every viewer, over as many matches as
    it takes."""
    seats, spectator = members[:players], members[-1]
    times: list[float] = []
    while len(times) < count:
        match = services.match_create_seated(creator=seats[0], players=seats, variant=variant)
        for member in seats:
            services.seat_connected(match_id=match.pk, user=member)
        while len(times) < count:
            match = services.read_match(match.pk)
            if match.status != "active":
                break
            game = get_variant(variant)
            state = game.load(match.snapshot)
            seat = min(game.to_move(state))
            move = computer_move(game, state, seat, "random", rng)
            services.match_play(match_id=match.pk, user=seats[seat], seq=match.seq, move=move)
            match = services.read_match(match.pk)
            presenters._render_cache.clear()
            started = time.perf_counter()
            for viewer in [*seats, spectator]:
                presenters.viewer_regions(match, viewer)
            times.append(1000 * (time.perf_counter() - started))
    return times


if __name__ == "__main__":
    main()
