"""Run a throwaway tournament through the director's services and print what happened.

    python manage.py simulate_tournament --entrants 40 --rounds 9 --playoff --seed 7 --json
    python manage.py simulate_tournament --variant cribist --players 4 --entrants 14 --rounds 5

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
from games.engine import variant_keys
from games.engine.core.scoreboard import skunk_lines
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
        parser.add_argument("--variant", default="cribbage", help="the game (a registered key)")
        parser.add_argument("--players", type=int, default=2, help="players in each game")
        parser.add_argument("--keep", action="store_true", help="keep the event in the database")
        parser.add_argument("--json", action="store_true", help="print the JSON report")

    def handle(self, *args, **opts) -> None:
        if not 2 <= opts["entrants"] <= 2000:
            raise CommandError("--entrants must be from 2 to 2000")
        if not 1 <= opts["rounds"] <= services.MAX_ROUNDS:
            raise CommandError(f"--rounds must be from 1 to {services.MAX_ROUNDS}")
        if opts["variant"] not in variant_keys():
            raise CommandError(f"--variant is one of: {', '.join(variant_keys())}")
        report: dict = {}
        try:
            with transaction.atomic():
                report = simulate(opts["entrants"], opts["rounds"], opts["playoff"],
                                  str(opts["seed"]), variant=opts["variant"],
                                  players=opts["players"])  # fmt: skip
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
                self.stdout.write(f"  {line['entrant']}: {line['card']} "
                                  f"spread {line['spread']:+d}")  # fmt: skip
            if report.get("champion"):
                self.stdout.write(f"champion: {report['champion']}")


def simulate(
    entrants: int,
    rounds: int,
    playoff: bool,
    seed: str,
    *,
    variant: str = "cribbage",
    players: int = 2,
) -> dict:
    rng = random.Random(seed)
    director = _director()
    event = services.tournament_create(
        director=director, name=f"Simulation {seed}", date=dt.date.today(), rounds=rounds,
        playoff=playoff, seed=seed, variant=variant, players=players,
    )  # fmt: skip
    for number in range(1, entrants + 1):
        partner = f"Partner {number}" if event.is_doubles else ""
        services.entrant_add(
            tournament_id=event.pk, by=director, guest_name=f"Entrant {number}",
            partner_guest_name=partner, checked_in=True,
        )  # fmt: skip
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
            scores = plausible_table(rng, event)
            services.result_enter(game_id=game_id, by=director, **scores)


def plausible_table(rng: random.Random, event: Tournament) -> dict:
    """Scores for every seat of a table, as the event's game could end."""
    scoring = event.scoring
    if scoring.kind == "ranked":
        values = [rng.randint(20, 140) for _ in event.seats]
    else:
        target = event.target
        winner, loser = plausible_scores(rng, target)
        if not scoring.stops_at_target:
            winner += rng.randint(0, max(1, target // 10))
        values = [winner, loser] if rng.random() < 0.5 else [loser, winner]
    return {f"score_{letter}": value for letter, value in zip(event.seats, values, strict=True)}


def plausible_scores(rng: random.Random, target: int) -> tuple[int, int]:
    """A race game's (winner, loser): mostly close, sometimes a skunk, rarely a double skunk
    (by the scoreboard's lines for the target)."""
    skunk, double = (*skunk_lines(target), 0, 0)[:2]
    roll = rng.random()
    if roll < 0.02 and double > 0:
        loser = rng.randint(double * 2 // 3, double)
    elif roll < 0.12 and skunk > 0:
        loser = rng.randint(double + 1, skunk)
    else:
        loser = rng.randint(skunk + 1, target - 1)
    return target, loser


def _report(event: Tournament) -> dict:
    rounds, playoff = [], []
    for round_ in event.round_set.order_by("number"):
        rows = []
        pairings = round_.pairings.prefetch_related("games").order_by("slot", "table", "pk")
        for p in pairings:
            if p.b_id is None:
                rows.append({"a": p.a_id, "b": None, "score_a": None, "score_b": None})
            for g in p.games.all():
                row = {}
                for letter in event.seats:
                    row[letter] = getattr(p, f"{letter}_id")
                    row[f"score_{letter}"] = getattr(g, f"score_{letter}")
                rows.append(row)
        (rounds if round_.stage == Round.Stage.QUALIFYING else playoff).append(rows)
    standings = [
        {"entrant": s.entrant_id, "game_points": float(s.game_points), "card": s.card,
         "wins": s.wins, "spread": s.spread}
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
