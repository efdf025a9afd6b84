"""The profile's statistics and chart, the leaderboards, head to head, and the players API."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Rating, User
from tests.api.conftest import ApiClient, token_of

from .conftest import finished

pytestmark = pytest.mark.django_db


def test_the_profile_shows_ratings_statistics_and_a_chart(client, alice, bob, days):
    for n in range(3):
        finished([alice, bob], winners=[0], at=days(n))
    finished([alice, bob], winners=[1], ending="resigned", at=days(3))
    page = client.get(f"/players/{alice.username}/").content.decode()
    assert "Ratings and statistics" in page
    assert "<svg" in page and 'role="img"' in page and "<polyline" in page
    assert "4 rated games" in page and "over 4 rated games" in page
    assert "Win rate</dt><dd>75%" in page
    assert "Pegging per deal" in page  # Cribbage's own figures (none counted for crafted rows)
    assert 'class="provisional"' in page


def test_a_profile_without_matches_says_so(client, charlie):
    page = client.get(f"/players/{charlie.username}/").content.decode()
    assert "No finished matches yet, so no ratings or statistics." in page


def make_board(count: int, games: int = 12) -> None:
    users = User.objects.bulk_create(
        User(username=f"m{i:05}", email=f"m{i:05}@example.org", display_name=f"Member {i}")
        for i in range(count)
    )
    now = timezone.now()
    Rating.objects.bulk_create(
        Rating(
            user=user,
            game="cribbage",
            players=2,
            rating=1200 + (i * 7919) % 900,
            deviation=45 + i % 200,
            games=games if i % 10 else 3,
            last_played_at=now,
        )
        for i, user in enumerate(users)
    )


def board_page(client, page: int) -> tuple[str, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/leaderboards/cribbage/?players=2&page={page}")
    assert response.status_code == 200
    return response.content.decode(), len(queries)


def test_the_leaderboard_of_5000_members_takes_a_fixed_number_of_queries(client):
    make_board(50)
    _, small = board_page(client, 1)
    users = User.objects.bulk_create(
        User(username=f"z{i:05}", email=f"z{i:05}@example.org") for i in range(4950)
    )
    Rating.objects.bulk_create(
        Rating(user=u, game="cribbage", players=2, rating=1000 + i % 1000, games=20)
        for i, u in enumerate(users)
    )
    page, large = board_page(client, 3)
    assert (
        small == large <= 3
    )  # the count, one page of ratings with members, the month's most active
    assert page.count("<tr>") == 101  # the header and one page of 100
    assert "Page 3 of 50" in page


def test_the_leaderboard_ranks_by_rating_with_a_minimum_of_games(client):
    make_board(30)
    page = client.get("/leaderboards/cribbage/").content.decode()
    ranked = Rating.objects.filter(games__gte=10).order_by("-rating")
    best, worst = ranked.first(), ranked.last()
    assert page.index(best.user.name) < page.index(worst.user.name)
    unranked = Rating.objects.filter(games__lt=10).first()
    assert f">{unranked.user.name}<" not in page
    assert client.get("/leaderboards/nosuchgame/").status_code == 404
    assert client.get("/leaderboards/").status_code == 302


def test_the_leaderboard_shows_the_most_active_this_month(client, alice, bob):
    finished([alice, bob], winners=[0], at=timezone.now())
    page = client.get("/leaderboards/cribbage/").content.decode()
    assert "Most active in" in page and "1 played, 1 won" in page


def test_head_to_head(client, alice, bob, days):
    finished([alice, bob], winners=[0], at=days(0))
    finished([bob, alice], winners=[0], at=days(1))
    finished([alice, bob], winners=[0], at=days(2))
    page = client.get("/head-to-head/", {"first": "alice", "second": "Bob"}).content.decode()
    assert "Alice against Bob" in page
    assert '<td class="num">3</td><td class="num">2</td><td class="num">1</td>' in page
    wrong = client.get("/head-to-head/", {"first": "alice", "second": "nobody"})
    assert wrong.status_code == 400
    assert "No member has this username." in wrong.content.decode()
    same = client.get("/head-to-head/", {"first": "alice", "second": "alice"})
    assert "Choose two different members." in same.content.decode()


def test_the_api_gives_a_members_ratings_and_statistics(alice, bob):
    finished([alice, bob], winners=[0])
    finished([alice, bob, None], winners=[0], computer=[2], places={0: 1, 1: 2, 2: 3})
    api = ApiClient(token_of(bob))
    body = api.get("/players/alice").json()
    assert body["username"] == "alice"
    [rating] = body["ratings"]
    assert set(rating) == {
        "game", "players", "rating", "deviation", "volatility", "provisional", "games",
    }  # fmt: skip
    assert (rating["game"], rating["players"], rating["games"]) == ("cribbage", 2, 1)
    assert rating["rating"] > 1500 and rating["provisional"] is True
    assert rating["volatility"] == pytest.approx(0.06, abs=1e-3)
    cribbage = body["stats"]["cribbage"]
    assert (cribbage["played"], cribbage["won"], cribbage["rated"]) == (2, 2, 1)
    assert cribbage["win_rate"] == 1.0
    assert api.get("/players/nobody").status_code == 404
    assert Client().get("/api/v1/players/alice").status_code == 401
