"""Run a throwaway tournament through the director's services and print what happened.

    python manage.py simulate_tournament --entrants 40 --rounds 9 --playoff --seed 7 --json

Everything happens in one transaction that is rolled back at the end, unless --keep.
"""

from __future__ import annotations

import datetime as dt
import json
import random

from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import User
from games.tournaments import services
from games.tournaments.common import qualifying_rounds_left
from games.tournaments.models import Game, Pairing, Round, Standing, Tournament


class Rollback(Exception):
    """Raised to undo the simulation's transaction."""


class Command(BaseCommand):
    help = "Simulate a club tournament with random plausible scores through the real services."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--entrants", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--playoff", action="store_true", help="finish with a playoff")
        parser.add_argument("--seed", default="1", help="seeds the draw and the scores")
        parser.add_argument("--keep", action="store_true", help="keep the event in the database")
        parser.add_argument("--json", action="store_true", help="print the JSON report")

    def handle(self, *args, **opts) -> None:
        if not 2 <= opts["entrants"] <= 2000:
            raise CommandError("--entrants must be from 2 to 2000")
        if not 1 <= opts["rounds"] <= services.MAX_ROUNDS:
            raise CommandError(f"--rounds must be from 1 to {services.MAX_ROUNDS}")
        report: dict = {}
        try:
            with transaction.atomic():
                report = simulate(opts["entrants"], opts["rounds"], opts["playoff"],
                                  str(opts["seed"]))  # fmt: skip
                if not opts["keep"]:
                    raise Rollback
        except Rollback:
            pass
        except services.ServiceError as error:
            raise CommandError(error.message) from None
        if opts["json"]:
            self.stdout.write(json.dumps(report))
        else:
            top = report["standings"][:5]
            self.stdout.write(f"{len(report['rounds'])} rounds played; top five:")
            for line in top:
                self.stdout.write(f"  {line['entrant']}: {line['game_points']}/{line['wins']} "
                                  f"spread {line['spread']:+d}")  # fmt: skip
            if report.get("champion"):
                self.stdout.write(f"champion: {report['champion']}")


def simulate(entrants: int, rounds: int, playoff: bool, seed: str) -> dict:
    rng = random.Random(seed)
    director = _director()
    event = services.tournament_create(
        director=director, name=f"Simulation {seed}", date=dt.date.today(), rounds=rounds,
        playoff=playoff, seed=seed,
    )  # fmt: skip
    for number in range(1, entrants + 1):
        services.entrant_add(
            tournament_id=event.pk, by=director, guest_name=f"Entrant {number}", checked_in=True
        )
    while True:
        event.refresh_from_db()
        if event.stage == Tournament.Stage.FINISHED:
            break
        if qualifying_rounds_left(event) or event.stage == "entry":
            services.round_generate(tournament_id=event.pk, by=director)
        elif event.stage == Tournament.Stage.QUALIFYING:
            services.playoffs_start(tournament_id=event.pk, by=director)
        else:
            services.round_generate(tournament_id=event.pk, by=director)
        _play_round(event, director, rng)
    return _report(event)


def _play_round(event: Tournament, director: User, rng: random.Random) -> None:
    """Enter a result for every game in play, including the extra games of a series."""
    while True:
        games = list(
            Game.objects.filter(
                pairing__round__tournament=event, status=Game.Status.OPEN
            ).values_list("pk", flat=True)
        )
        if not games:
            return
        for game_id in games:
            score_a, score_b = plausible_scores(rng, event.target)
            services.result_enter(game_id=game_id, by=director, score_a=score_a, score_b=score_b)


def plausible_scores(rng: random.Random, target: int = 121) -> tuple[int, int]:
    """A finished game: mostly close, sometimes a skunk, rarely a double skunk."""
    roll = rng.random()
    scale = target / 121
    if roll < 0.02:
        loser = rng.randint(int(40 * scale), int(60 * scale))
    elif roll < 0.12:
        loser = rng.randint(int(61 * scale), int(90 * scale))
    else:
        loser = rng.randint(int(91 * scale), target - 1)
    return (target, loser) if rng.random() < 0.5 else (loser, target)


def _report(event: Tournament) -> dict:
    rounds, playoff = [], []
    for round_ in event.round_set.order_by("number"):
        rows = []
        pairings = round_.pairings.prefetch_related("games").order_by("slot", "table", "pk")
        for p in pairings:
            if p.b_id is None:
                rows.append({"a": p.a_id, "b": None, "score_a": None, "score_b": None})
            for g in p.games.all():
                rows.append({"a": p.a_id, "b": p.b_id, "score_a": g.score_a, "score_b": g.score_b})
        (rounds if round_.stage == Round.Stage.QUALIFYING else playoff).append(rows)
    standings = [
        {"entrant": s.entrant_id, "game_points": s.game_points, "wins": s.wins,
         "spread": s.spread}
        for s in Standing.objects.filter(tournament=event).order_by("position")
    ]  # fmt: skip
    report = {
        "settings": {**event.settings_json(), "entrants": event.entrants.count()},
        "rounds": rounds,
        "standings": standings,
        "qualifiers": [],
        "bracket": {"size": 0, "byes": []},
    }
    first = event.round_set.filter(stage=Round.Stage.PLAYOFF).order_by("number").first()
    if first is not None:
        seeded = []
        for p in first.pairings.order_by("slot"):
            seeded.append((p.seed_a, p.a_id))
            if p.b_id:
                seeded.append((p.seed_b, p.b_id))
        report["qualifiers"] = [entrant for _, entrant in sorted(seeded)]
        size = 2 * first.pairings.count()
        report["bracket"] = {
            "size": size,
            "byes": [p.a_id for p in first.pairings.filter(b=None).order_by("seed_a")],
        }
        report["playoff"] = playoff
        final = event.round_set.order_by("-number").first().pairings.first()
        report["champion"] = (
            final.winner_id if final and final.status == Pairing.Status.DONE else None
        )

    return report


def _director() -> User:
    user, _ = User.objects.get_or_create(
        username="simulation-director",
        defaults={"display_name": "Simulation", "is_staff": True, "is_active": True},
    )
    user.set_unusable_password()
    user.save()
    user.user_permissions.add(Permission.objects.get(codename="direct_tournament"))
    return User.objects.get(pk=user.pk)
