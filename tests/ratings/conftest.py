"""Personas and crafted histories for ratings and statistics.

Alice, Bob, Charlie and Dana are members (tests/conftest.py); Tess directs tournaments.
`finished` makes a finished match row as the match layer leaves it and sends `match_ended`,
so the rules can be tried on any shape of result without playing whole matches.
"""

from __future__ import annotations

import datetime as dt
import secrets

import pytest
from django.utils import timezone

from games import signals
from games.models import Match, Seat
from tests.tournaments.conftest import make_event, tess  # noqa: F401  (fixtures)

START = timezone.make_aware(dt.datetime(2026, 10, 1, 12, 0))


def finished(
    seated,
    *,
    winners,
    scores=None,
    teams=None,
    ending="played",
    rated=True,
    computer=(),
    took_over=(),
    places=None,
    skunks=None,
    at=START,
    variant="cribbage",
    status="finished",
):
    """A finished match with `seated[i]` in seat i (None with `computer`), ended as told."""
    players = len(seated)
    teams = teams or list(range(players))
    scores = scores or {}
    seed = secrets.token_bytes(8)
    match = Match.objects.create(
        variant=variant,
        players=players,
        status=status,
        ending=ending,
        rated=rated,
        seed=seed.hex(),
        seed_sha256="0" * 64,
        finished_at=at,
    )
    Seat.objects.bulk_create(
        Seat(
            match=match,
            index=i,
            team=teams[i],
            user=user,
            is_computer=i in computer or i in took_over,
            took_over=i in took_over,
        )
        for i, user in enumerate(seated)
    )
    sides = {}
    for seat, team in enumerate(teams):
        sides.setdefault(team, []).append(seat)
    side_rows = []
    for team, seats in sorted(sides.items()):
        row = {
            "seats": seats,
            "score": scores.get(team, 121 if seats[0] in winners else 100),
            "skunk": (skunks or {}).get(team, 0),
            "games_won": 0,
        }
        if places:
            row["place"] = places[team]
        side_rows.append(row)
    match.outcome = {
        "winners": sorted(winners),
        "sides": side_rows,
        "reason": "",
        "games": [{"number": 1, "winners": sorted(winners), "sides": side_rows}],
    }
    match.save(update_fields=["outcome"])
    signals.match_ended.send(sender=Match, match=match)
    return match


@pytest.fixture
def days():
    return lambda n: START + dt.timedelta(days=n)
