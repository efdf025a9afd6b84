"""Which matches are rated, and how each kind of result moves the ratings."""

from __future__ import annotations

import pytest

from accounts.models import MatchRecord, Rating, RatingChange
from games import services
from games.models import Match
from tests.games.helpers import play_out

from .conftest import finished

pytestmark = pytest.mark.django_db


def rating(user, players=2, game="cribbage"):
    return Rating.objects.get(user=user, game=game, players=players)


def test_it_rates_a_match_between_members_when_it_ends(alice, bob):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    services.match_resign(match_id=match.pk, user=bob)
    assert rating(alice).rating > 1500 > rating(bob).rating
    assert rating(alice).games == rating(bob).games == 1
    assert rating(alice).deviation < 350
    change = RatingChange.objects.get(user=bob)
    assert (change.match_id, change.score, change.rating_before) == (match.pk, 0.0, 1500.0)
    records = {r.user_id: r.result for r in MatchRecord.objects.filter(match=match)}
    assert records == {alice.pk: "won", bob.pk: "lost"}


def test_a_match_played_out_is_rated_by_its_winner(alice, bob):
    match = services.match_create(
        creator=alice, variant="cribbage", players=2, options={"target": 61}
    )
    services.match_join(match_id=match.pk, user=bob)
    match = play_out(match, {0: alice, 1: bob})
    winner, loser = (alice, bob) if 0 in match.outcome["winners"] else (bob, alice)
    assert rating(winner).rating > 1500 > rating(loser).rating


@pytest.mark.parametrize(
    "kind", ["unrated", "computer", "aborted", "cancelled", "open seat", "one side"]
)
def test_it_leaves_unrated_matches_alone(kind, alice, bob):
    if kind == "unrated":
        finished([alice, bob], winners=[0], rated=False)
    elif kind == "computer":
        finished([alice, None], winners=[0], computer=[1])
    elif kind == "aborted":
        finished([alice, bob], winners=[], ending="aborted", status="aborted")
    elif kind == "cancelled":
        finished([alice, bob], winners=[], ending="cancelled", status="aborted")
    elif kind == "open seat":
        finished([alice, None], winners=[0])
    else:
        finished([alice, bob], winners=[0, 1], teams=[0, 0])
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()


def test_the_services_never_rate_a_match_with_a_computer_seat(alice):
    match = services.match_create(creator=alice, variant="cribbage", players=2, computer_seats=[1])
    services.match_resign(match_id=match.pk, user=alice)
    assert Match.objects.get(pk=match.pk).rated is False
    assert not Rating.objects.exists()
    assert MatchRecord.objects.get(user=alice).vs_computer  # still in the statistics


def test_an_aborted_match_counts_nowhere(alice, bob):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    services.match_abort(match_id=match.pk, user=alice)
    assert not Rating.objects.exists() and not MatchRecord.objects.exists()


@pytest.mark.parametrize("ending", ["resigned", "abandoned"])
def test_resigning_and_abandoning_are_losses(ending, alice, bob):
    finished([alice, bob], winners=[1], ending=ending, scores={0: 110, 1: 40})
    assert rating(bob).rating > 1500 > rating(alice).rating


def test_partners_each_play_the_other_side_as_one_opponent(alice, bob, charlie, dana):
    # Alice and Charlie (seats 0, 2) beat Bob and Dana (seats 1, 3) in 4-player Cribbage.
    finished([alice, bob, charlie, dana], winners=[0, 2], teams=[0, 1, 0, 1])
    assert not Rating.objects.filter(players=2).exists()
    winners = [rating(u, 4) for u in (alice, charlie)]
    losers = [rating(u, 4) for u in (bob, dana)]
    assert winners[0].rating == pytest.approx(winners[1].rating)
    assert losers[0].rating == pytest.approx(losers[1].rating)
    assert winners[0].rating > 1500 > losers[0].rating
    # One result each: the same change as a 2-player win between newcomers.
    assert RatingChange.objects.filter(user=alice).get().opponents == 1


def test_a_partnership_is_rated_against_the_other_sides_mean(alice, bob, charlie, dana):
    Rating.objects.create(user=bob, game="cribbage", players=4, rating=1800, deviation=60)
    Rating.objects.create(user=dana, game="cribbage", players=4, rating=1600, deviation=80)
    finished([alice, bob, charlie, dana], winners=[0, 2], teams=[0, 1, 0, 1])
    from accounts.glicko2 import Glicko, Result, rate

    side = Glicko(1700, ((60**2 + 80**2) / 2) ** 0.5)
    assert rating(alice, 4).rating == pytest.approx(rate(Glicko(), [Result(side, 1)]).rating)


def test_three_players_are_rated_pairwise_by_place(alice, bob, charlie):
    finished(
        [alice, bob, charlie],
        winners=[1],
        scores={0: 90, 1: 121, 2: 100},
        places={0: 3, 1: 1, 2: 2},
    )
    first, second, third = rating(bob, 3), rating(charlie, 3), rating(alice, 3)
    assert first.rating > second.rating > third.rating
    assert second.rating == pytest.approx(1500)  # beat one, lost to one, among equals
    changes = {c.user_id: (c.score, c.opponents) for c in RatingChange.objects.all()}
    assert changes == {bob.pk: (2.0, 2), charlie.pk: (1.0, 2), alice.pk: (0.0, 2)}


def test_a_tie_for_a_place_is_a_draw(alice, bob, charlie):
    finished(
        [alice, bob, charlie],
        winners=[0],
        scores={0: 121, 1: 90, 2: 90},
        places={0: 1, 1: 2, 2: 2},
    )
    assert RatingChange.objects.get(user=bob).score == 0.5  # 0 against Alice, a half with Charlie


def test_a_resignation_among_three_rates_only_the_resigner(alice, bob, charlie):
    finished([alice, bob, charlie], winners=[1, 2], ending="resigned")
    assert RatingChange.objects.get(user=alice).opponents == 2
    assert RatingChange.objects.get(user=bob).opponents == 1  # Bob and Charlie are not compared


def test_a_member_who_left_three_handed_play_loses_to_those_who_stayed(alice, bob, charlie):
    # The computer took Alice's seat over and finished first; Alice still lost to both.
    finished(
        [alice, bob, charlie],
        winners=[0],
        took_over=[0],
        scores={0: 121, 1: 80, 2: 100},
        places={0: 1, 1: 3, 2: 2},
    )
    assert RatingChange.objects.get(user=alice).score == 0.0
    assert RatingChange.objects.get(user=charlie).score == 2.0  # beat Alice's absence and Bob
    assert MatchRecord.objects.get(user=alice).result == "lost"


def test_a_rating_is_kept_per_game_and_player_count(alice, bob, charlie):
    finished([alice, bob], winners=[0])
    finished([alice, bob, charlie], winners=[0], places={0: 1, 1: 2, 2: 3})
    assert set(Rating.objects.filter(user=alice).values_list("game", "players")) == {
        ("cribbage", 2),
        ("cribbage", 3),
    }


def test_the_deviation_grows_with_days_away(alice, bob, charlie, days):
    finished([alice, bob], winners=[0], at=days(0))
    finished([alice, charlie], winners=[0], at=days(1))
    soon = RatingChange.objects.get(user=alice, match__finished_at=days(1)).deviation
    Rating.objects.all().delete()
    RatingChange.objects.all().delete()
    finished([alice, bob], winners=[0], at=days(0))
    finished([alice, charlie], winners=[0], at=days(300))
    later = RatingChange.objects.get(user=alice, match__finished_at=days(300)).deviation
    assert later > soon


def test_ending_a_rated_match_costs_a_few_queries_and_no_replay(alice, bob, charlie, dana):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts import stats

    match = finished([alice, bob, charlie, dana], winners=[0, 2], teams=[0, 1, 0, 1])
    MatchRecord.objects.all().delete()
    with CaptureQueriesContext(connection) as queries:
        stats.on_match_ended(match=match)  # the figures wait for the commit
    assert len(queries) <= 7
    assert MatchRecord.objects.filter(figures__isnull=True).count() == 4
