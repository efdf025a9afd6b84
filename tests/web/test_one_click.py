"""One click to play from the home page and the lobby, and a home page that promises only the
games it plays. Alice and Bob are members; Charlie opens matches of his own."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.engine.core.variant import get_variant
from games.models import Match
from games.variants import web_games
from tests.i18n.spanish import english_left

pytestmark = pytest.mark.django_db


def signed_in(client, member):
    client.force_login(member)
    return client


def test_it_invites_visitors_to_join_to_play(client):
    page = client.get("/").content.decode()
    assert "Join the club to play" in page
    assert reverse("play_computer") not in page
    assert reverse("signup") in page


def test_it_lists_the_games_it_plays_with_rules_and_players(client):
    page = client.get("/").content.decode()
    for web in web_games():
        assert f'href="{reverse("rules", args=[web.key])}"' in page
    assert "2, 3 or 4 players" in page  # classic Cribbage
    assert f"{len(web_games())} games to play here now" in page or "games to play" in page


def test_it_shows_both_buttons_on_the_home_page_and_the_lobby(client, alice):
    signed_in(client, alice)
    for url in ("/", reverse("lobby")):
        page = client.get(url).content.decode()
        assert f'action="{reverse("play_computer")}"' in page
        assert f'action="{reverse("quick_game")}"' in page
        assert "#new-title" in page  # the full form, one click away


def test_it_plays_the_computer_in_one_click(client, alice):
    answer = signed_in(client, alice).post(reverse("play_computer"))
    match = Match.objects.get()
    assert answer["Location"] == match.get_absolute_url()
    assert (match.variant, match.players, match.status) == ("cribbage", 2, "active")
    seats = list(match.seats.all())
    assert seats[0].user == alice and seats[1].is_computer and seats[1].level == ""


def test_it_offers_the_member_s_last_game_against_the_computer(client, alice):
    services.match_create(creator=alice, variant="testgame", players=2, computer_seats=[1])
    page = signed_in(client, alice).get("/").content.decode()
    assert 'name="variant" value="testgame"' in page
    client.post(reverse("play_computer"), {"variant": "testgame"})
    assert Match.objects.filter(variant="testgame").count() == 2


def test_it_refuses_a_game_it_does_not_play(client, alice):
    answer = signed_in(client, alice).post(reverse("play_computer"), {"variant": "chess"})
    assert answer["Location"] == reverse("lobby")
    assert not Match.objects.exists()


def test_a_quick_game_opens_a_match_then_the_next_member_joins_it(client, alice, bob):
    signed_in(client, alice).post(reverse("quick_game"))
    opened = Match.objects.get()
    assert (opened.variant, opened.players, opened.status) == ("cribbage", 2, "waiting")
    assert not opened.invite_only
    answer = signed_in(client, bob).post(reverse("quick_game"))
    assert answer["Location"] == opened.get_absolute_url()
    opened.refresh_from_db()
    assert opened.status == Match.Status.ACTIVE
    assert Match.objects.count() == 1


def test_a_quick_game_joins_the_oldest_standard_match_only(alice, bob, charlie):
    services.match_create(creator=charlie, variant="cribbage", players=2, options={"target": 61})
    services.match_create(creator=charlie, variant="cribbage", players=2, invite_only=True,
                          invited=[alice])  # fmt: skip
    oldest = services.match_create(creator=bob, variant="cribbage", players=2)
    services.match_create(creator=charlie, variant="cribbage", players=2)
    match, joined = services.match_quick(user=alice, variant="cribbage")
    assert joined and match.pk == oldest.pk


def test_the_home_page_reads_in_spanish(client, alice):
    signed_in(client, alice)
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Jugar contra el ordenador" in page
    names = [get_variant(web.key).name for web in web_games()]
    for name in names:  # game names are the games' own words
        page = page.replace(name, "")
    assert english_left(page) == []
