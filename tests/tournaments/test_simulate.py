"""The simulation command: a whole event through the services, reported as JSON, rolled back."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from games.tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def run(*args) -> dict:
    out = io.StringIO()
    call_command("simulate_tournament", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_it_plays_a_club_night_with_a_playoff_and_rolls_back():
    report = run("--entrants", "9", "--rounds", "3", "--playoff", "--seed", "5")
    assert Tournament.objects.count() == 0  # thrown away
    assert report["settings"]["points"]["skunk"] == 3 and report["settings"]["entrants"] == 9
    assert len(report["rounds"]) == 3
    for rnd in report["rounds"]:
        assert sum(1 for row in rnd if row["b"] is None) == 1  # nine: one bye a round
        met = [frozenset((row["a"], row["b"])) for row in rnd if row["b"] is not None]
        assert len(met) == 4
        for row in rnd:
            if row["b"] is not None:
                assert max(row["score_a"], row["score_b"]) == 121
                assert min(row["score_a"], row["score_b"]) < 121
    all_met = [frozenset((r["a"], r["b"])) for rnd in report["rounds"] for r in rnd if r["b"]]
    assert len(all_met) == len(set(all_met))
    points = [line["game_points"] for line in report["standings"]]
    assert points == sorted(points, reverse=True)
    assert report["qualifiers"] == [line["entrant"] for line in report["standings"][:3]]
    assert report["bracket"] == {"size": 4, "byes": [report["qualifiers"][0]]}
    assert report["champion"] in report["qualifiers"]


def test_keep_leaves_the_event_in_place():
    run("--entrants", "4", "--rounds", "2", "--keep")
    event = Tournament.objects.get()
    assert event.stage == Tournament.Stage.FINISHED and event.round_set.count() == 2
