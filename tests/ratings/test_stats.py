"""Statistics on crafted histories, and Cribbage's own figures from a played match."""

from __future__ import annotations

import pytest

from accounts import figures, stats
from accounts.models import MatchRecord, Rating
from games import services
from games.models import Match
from tests.games.helpers import play_out

from .conftest import finished

pytestmark = pytest.mark.django_db


def test_it_counts_played_won_lost_and_skunks(alice, bob, charlie, days):
    finished([alice, bob], winners=[0], scores={0: 121, 1: 80}, skunks={1: 1}, at=days(0))
    finished([alice, bob], winners=[1], scores={0: 50, 1: 121}, skunks={0: 2}, at=days(1))
    finished([charlie, alice], winners=[1], ending="resigned", at=days(2))
    finished([alice, None], winners=[0], computer=[1], at=days(3))
    finished([alice, bob], winners=[], ending="aborted", status="aborted", at=days(4))
    [cribbage] = stats.member_stats(alice)
    assert (cribbage.played, cribbage.won, cribbage.lost, cribbage.rated) == (4, 3, 1, 3)
    assert (cribbage.skunks_given, cribbage.skunks_taken) == (1, 1)
    assert cribbage.win_rate == "75%"
    assert [r["players"] for r in cribbage.ratings] == [2]
    assert cribbage.ratings[0]["games"] == 3


def test_a_level_result_in_a_highest_score_game_is_shared(alice, bob):
    finished([alice, bob], winners=[0, 1], scores={0: 40, 1: 40})
    assert set(MatchRecord.objects.values_list("result", flat=True)) == {"drawn"}


def test_head_to_head_counts_only_matches_on_opposite_sides(alice, bob, charlie, dana, days):
    finished([alice, bob], winners=[0], at=days(0))
    finished([bob, alice], winners=[0], at=days(1))
    finished([alice, bob], winners=[0], at=days(2))
    finished([alice, charlie, bob, dana], winners=[0, 2], teams=[0, 1, 0, 1], at=days(3))
    record = stats.head_to_head(alice, bob)["cribbage"]
    assert (record["won"], record["lost"], record["played"]) == (2, 1, 3)
    assert stats.head_to_head(bob, alice)["cribbage"]["won"] == 1
    assert stats.head_to_head(alice, charlie)["cribbage"]["won"] == 1


def test_most_active_this_month(alice, bob, charlie, days):
    for n in range(3):
        finished([alice, bob], winners=[0], at=days(n))
    finished([charlie, bob], winners=[0], at=days(1))
    board = stats.most_active("cribbage", days(0))
    assert [(r["username"], r["played"], r["won"]) for r in board] == [
        ("bob", 4, 0),
        ("alice", 3, 3),
        ("charlie", 1, 1),
    ]
    assert stats.most_active("cribbage", days(2)) == [
        {"username": "alice", "name": "Alice", "played": 1, "won": 1},
        {"username": "bob", "name": "Bob", "played": 1, "won": 0},
    ]


def test_cribbage_figures_add_up_to_the_losers_score(
    alice, bob, django_capture_on_commit_callbacks
):
    match = services.match_create(
        creator=alice, variant="cribbage", players=2, options={"target": 61}
    )
    services.match_join(match_id=match.pk, user=bob)
    with django_capture_on_commit_callbacks(execute=True):
        match = play_out(match, {0: alice, 1: bob})
    assert match.status == Match.Status.FINISHED
    loser_seat = 1 if 0 in match.outcome["winners"] else 0
    loser = MatchRecord.objects.get(match=match, seat=loser_seat)
    got = loser.figures
    assert got["deals"] >= 2 and got["hands"] > 0
    assert got["pegging"] + got["heels"] + got["hand_points"] + got["crib_points"] == loser.score
    assert 0 <= got["best_hand"] <= 29
    [cribbage] = stats.member_stats(loser.user)
    shown = dict(cribbage.figures)
    assert shown["Pegging per deal"] == f"{got['pegging'] / got['deals']:.1f}"
    assert shown["29 hands"] == "0"


def test_an_average_is_rounded_to_one_decimal_not_cut():
    from accounts.figures import average

    assert (average(7, 4), average(12, 7), average(0, 3), average(5, 0)) == (
        "1.8",
        "1.7",
        "0.0",
        "–",
    )


def test_figures_combine_by_sum_and_best():
    rows = [{"hands": 2, "best_hand": 12}, {"hands": 3, "best_hand": 20}, {"best_hand": 4}]
    assert figures.combine(rows) == {"hands": 5, "best_hand": 20}


def test_the_command_backfills_records_and_figures(alice, bob, django_capture_on_commit_callbacks):
    from django.core.management import call_command

    match = services.match_create(
        creator=alice, variant="cribbage", players=2, options={"target": 61}
    )
    services.match_join(match_id=match.pk, user=bob)
    with django_capture_on_commit_callbacks(execute=True):
        play_out(match, {0: alice, 1: bob})
    before = {r.user_id: r.figures for r in MatchRecord.objects.all()}
    assert all(before.values())
    MatchRecord.objects.all().delete()
    call_command("recompute_ratings", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert {r.user_id: r.figures for r in MatchRecord.objects.all()} == before


def test_every_game_gets_figures_from_its_outcome_terms(
    alice, bob, django_capture_on_commit_callbacks
):
    match = services.match_create(creator=alice, variant="crosscrib", players=2)
    services.match_join(match_id=match.pk, user=bob)
    with django_capture_on_commit_callbacks(execute=True):
        match = play_out(match, {0: alice, 1: bob})
    record = MatchRecord.objects.get(match=match, user=alice)
    side = next(s for s in match.outcome["sides"] if 0 in s["seats"])
    assert record.figures["game_points"] == side["terms"]["game_points"]
    [crosscrib] = stats.member_stats(alice)
    assert crosscrib.name == "CrossCrib" or crosscrib.game == "crosscrib"
    assert [label for label, _ in crosscrib.figures] == ["Game points per deal"]
    assert Rating.objects.filter(user=alice, game="crosscrib", players=2).exists()


def test_terms_are_shown_per_match_without_deals():
    outcome = {"sides": [{"seats": [0], "terms": {"rack_points": 7}}, {"seats": [1]}]}
    counted = figures.count_terms(outcome, 2)
    assert counted == {0: {"matches": 1, "rack_points": 7}, 1: {"matches": 1}}
    assert figures.show_terms(figures.combine([counted[0], counted[0]])) == [
        ("Rack points per match", "7.0")
    ]
