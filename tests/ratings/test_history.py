"""Tournament results, and the recompute command giving exactly the live figures."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from accounts.models import RatedEvent, Rating, RatingChange
from games import services as match_services
from games.tournaments import services
from tests.games.helpers import play_out
from tests.tournaments.conftest import current_games, play_round

from .conftest import finished

pytestmark = pytest.mark.django_db


def standing(*users, players=2):
    rows = Rating.objects.filter(user__in=users, players=players).order_by("user_id")
    return [(r.user_id, r.rating, r.deviation, r.volatility, r.games) for r in rows]


def test_an_online_tournament_game_is_rated(make_event, tess, alice, bob):
    event = make_event([alice, bob], venue="online", options={"target": 61})
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    play_out(game.match, {0: game.pairing.a.user, 1: game.pairing.b.user})
    assert RatingChange.objects.filter(match=game.match).count() == 2


def test_table_results_are_rated_when_the_event_says_so(make_event, tess, alice, bob):
    event = make_event([alice, bob])
    RatedEvent.objects.create(tournament=event, rate_table_results=True)
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    services.result_enter(game_id=game.pk, by=tess, score_a=121, score_b=95)
    winner = game.pairing.a.user
    loser = game.pairing.b.user
    assert Rating.objects.get(user=winner).rating > 1500 > Rating.objects.get(user=loser).rating
    assert RatingChange.objects.get(user=winner).table_game_id == game.pk


def test_table_results_are_not_rated_otherwise(make_event, tess, alice, bob):
    event = make_event([alice, bob])
    services.round_generate(tournament_id=event.pk, by=tess)
    play_round(event, tess)
    assert not Rating.objects.exists()


def test_a_guest_at_the_table_makes_the_game_unrated(make_event, tess, alice):
    event = make_event([alice, "Gus"])
    RatedEvent.objects.create(tournament=event)
    services.round_generate(tournament_id=event.pk, by=tess)
    play_round(event, tess)
    assert not Rating.objects.exists()


def test_doubles_over_the_table_rate_all_four(make_event, tess, alice, bob, charlie, dana):
    event = make_event(players=4)
    for first, second in ((alice, charlie), (bob, dana)):
        services.entrant_add(
            tournament_id=event.pk, by=tess, user=first, partner=second, checked_in=True
        )
    RatedEvent.objects.create(tournament=event)
    services.round_generate(tournament_id=event.pk, by=tess)
    play_round(event, tess)
    assert Rating.objects.filter(players=4).count() == 4


def test_recompute_gives_the_live_figures(make_event, tess, alice, bob, charlie, dana, days):
    # A history of every kind: played, resigned, partnerships, three-handed, a table result.
    finished([alice, bob], winners=[0], at=days(0))
    finished([bob, charlie], winners=[1], ending="resigned", at=days(1))
    finished([alice, bob, charlie, dana], winners=[1, 3], teams=[0, 1, 0, 1], at=days(2))
    finished([dana, alice, bob], winners=[0], places={0: 1, 1: 3, 2: 2}, at=days(3))
    finished([alice, charlie], winners=[1], at=days(40))
    finished([alice, dana], winners=[0], rated=False, at=days(41))
    match = match_services.match_create(creator=alice, variant="cribbage", players=2)
    match_services.match_join(match_id=match.pk, user=dana)
    match_services.match_resign(match_id=match.pk, user=alice)
    event = make_event([charlie, dana])
    RatedEvent.objects.create(tournament=event)
    services.round_generate(tournament_id=event.pk, by=tess)
    play_round(event, tess, scores=((121, 80),))
    everyone = (alice, bob, charlie, dana)
    live = {n: standing(*everyone, players=n) for n in (2, 3, 4)}
    chart = list(RatingChange.objects.order_by("at", "user_id").values_list("user_id", "rating"))
    Rating.objects.update(rating=1000, deviation=10)  # damage, to be repaired
    RatingChange.objects.filter(user=alice).delete()

    call_command("recompute_ratings", stdout=open("/dev/null", "w"))  # noqa: SIM115

    assert {n: standing(*everyone, players=n) for n in (2, 3, 4)} == live
    again = list(RatingChange.objects.order_by("at", "user_id").values_list("user_id", "rating"))
    assert again == chart
    assert Rating.objects.get(user=dana, players=2).games == 2  # the unrated match not counted


def test_recompute_picks_up_a_directors_correction(make_event, tess, alice, bob):
    event = make_event([alice, bob])
    RatedEvent.objects.create(tournament=event)
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    a, b = game.pairing.a.user, game.pairing.b.user
    services.result_enter(game_id=game.pk, by=tess, score_a=121, score_b=95)
    assert Rating.objects.get(user=a).rating > 1500
    services.result_correct(game_id=game.pk, by=tess, score_a=100, score_b=121)
    call_command("recompute_ratings", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert Rating.objects.get(user=b).rating > 1500 > Rating.objects.get(user=a).rating
