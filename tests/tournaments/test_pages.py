"""The tournament pages: who sees and may do what, and refusals answered with a 4xx."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from games.tournaments import services
from games.tournaments.models import Game, Standing, Tournament

from .conftest import current_games

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(make_event, alice, bob, tess):
    event = make_event([alice, bob, "Guest Gail", "Guest Hugh"])
    services.round_generate(tournament_id=event.pk, by=tess)
    return event


def my_game(event, user):
    return next(g for g in current_games(event) if g.pairing.side_of(user))


def test_the_public_page_shows_pairings_and_standings(client, night, tess):
    game = current_games(night)[0]
    services.result_enter(game_id=game.pk, by=tess, score_a=121, score_b=88)
    html = client.get(reverse("tournament", args=[night.pk])).content.decode()
    assert "Round 1" in html and "Table" in html and "121–88" in html
    assert "3/1" in html  # the winner's card: a skunk
    assert "Direct" not in html  # no director's link for a visitor
    assert client.get(reverse("tournament", args=[999])).status_code == 404


def test_the_director_page_is_for_directors_only(client, night, tess, sam, alice):
    url = reverse("tournament_direct", args=[night.pk])
    assert client.get(url).status_code == 302  # to the log-in page
    for user, status in ((alice, 403), (sam, 403), (tess, 200)):
        client.force_login(user)
        assert client.get(url).status_code == status
    client.force_login(alice)
    action = reverse("tournament_action", args=[night.pk, "next-round"])
    assert client.post(action).status_code == 403


def test_the_director_runs_a_round_from_the_page(client, night, tess):
    client.force_login(tess)
    action = reverse("tournament_action", args=[night.pk, "result"])
    games = current_games(night)
    bad = client.post(action, {"game": games[0].pk, "score_a": 100, "score_b": 90})
    assert bad.status_code == 400
    assert "must reach 121" in bad.content.decode()
    for game in games:
        response = client.post(action, {"game": game.pk, "score_a": 121, "score_b": 100})
        assert response.status_code == 302
    response = client.post(reverse("tournament_action", args=[night.pk, "next-round"]))
    assert response.status_code == 302
    assert night.round_set.count() == 2
    again = client.post(reverse("tournament_action", args=[night.pk, "next-round"]))
    assert again.status_code == 409 and "without a result" in again.content.decode()
    missing = client.post(action, {"game": "", "score_a": 121, "score_b": 1})
    assert missing.status_code == 400


def test_a_player_enters_and_the_opponent_confirms_on_their_own_login(client, night, alice, bob):
    game = my_game(night, alice)
    opponent_user = (
        game.pairing.a.user if game.pairing.side_of(alice) == "b" else game.pairing.b.user
    )
    client.force_login(alice)
    page = client.get(reverse("tournament", args=[night.pk])).content.decode()
    assert "Your game" in page and "Enter the result" in page
    a_score, b_score = (121, 97) if game.pairing.side_of(alice) == "a" else (97, 121)
    url = reverse("tournament_game_result", args=[game.pk])
    assert client.post(url, {"score_a": a_score, "score_b": b_score}).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.PENDING
    if opponent_user is None:  # a guest opponent: the director confirms
        return
    client.force_login(opponent_user)
    page = client.get(reverse("tournament", args=[night.pk])).content.decode()
    assert "Confirm this result" in page
    assert client.post(reverse("tournament_game_confirm", args=[game.pk])).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED


def test_an_outsider_cannot_enter_a_result(client, night, charlie):
    game = current_games(night)[0]
    client.force_login(charlie)
    response = client.post(
        reverse("tournament_game_result", args=[game.pk]), {"score_a": 121, "score_b": 90}
    )
    assert response.status_code == 403
    assert "only the director or the players" in response.content.decode().lower()
    bad = client.post(reverse("tournament_game_result", args=[game.pk]), {"score_a": "x"})
    assert bad.status_code in (400, 403)
    assert client.post(reverse("tournament_game_result", args=[99999])).status_code == 404


def test_a_director_sets_up_a_tournament_from_the_form(client, tess, alice):
    client.force_login(alice)
    assert client.get(reverse("tournament_new")).status_code == 403
    client.force_login(tess)
    data = {
        "name": "Spring doubles", "date": "2026-04-01", "variant": "cribbage", "players": "4",
        "cribbage__target": "121",
        "venue": "table", "qualifying": "swiss", "rounds": "6", "playoff": "on",
        "qualifiers": "", "series_length": "3", "points_win": "2", "points_skunk": "3",
        "points_double_skunk": "4", "bye_points": "2",
        "tiebreaks": "game_points,wins,spread,head_to_head", "forfeit_minutes": "10",
    }  # fmt: skip
    response = client.post(reverse("tournament_new"), data)
    assert response.status_code == 302
    event = Tournament.objects.get(name="Spring doubles")
    assert (event.players, event.rounds, event.points_double_skunk) == (4, 6, 4)
    bad = client.post(reverse("tournament_new"), {**data, "rounds": "0"})
    assert bad.status_code == 400


def test_entrants_are_added_and_checked_in_from_the_page(client, make_event, tess, alice):
    event = make_event()
    client.force_login(tess)
    add = reverse("tournament_action", args=[event.pk, "add"])
    assert client.post(add, {"member": "alice", "checked_in": "on"}).status_code == 302
    assert client.post(add, {"guest_name": "Walk-in Wendy"}).status_code == 302
    response = client.post(add, {"member": "nobody"})
    assert response.status_code == 400 and "no member called" in response.content.decode()
    duplicate = client.post(add, {"member": "alice"})
    assert duplicate.status_code == 409 and "already entered" in duplicate.content.decode()
    wendy = event.entrants.get(guest_name="Walk-in Wendy")
    check_in = reverse("tournament_action", args=[event.pk, "check-in"])
    assert client.post(check_in, {"entrant": wendy.pk, "present": "1"}).status_code == 302
    wendy.refresh_from_db()
    assert wendy.checked_in


def test_the_exports_hold_entrants_games_and_standings(client, night, tess):
    for game in current_games(night):
        services.result_enter(game_id=game.pk, by=tess, score_a=121, score_b=95)
    rows = {}
    for kind in ("entrants", "games", "standings"):
        response = client.get(reverse("tournament_export", args=[night.pk, kind]))
        assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
        rows[kind] = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows["entrants"]) == 4
    assert len(rows["games"]) == 2 and rows["games"][0]["score_a"] == "121"
    assert [r["card"] for r in rows["standings"]] == [
        s.card for s in Standing.objects.filter(tournament=night).order_by("position")
    ]
    assert client.get(reverse("tournament_export", args=[night.pk, "secrets"])).status_code == 404


def test_projector_and_print_views(client, night):
    screen = client.get(reverse("tournament_screen", args=[night.pk])).content.decode()
    assert "Round 1" in screen and "/ws/tournaments/" in screen
    sheet = client.get(reverse("tournament_print", args=[night.pk])).content.decode()
    assert sheet.count('class="score-card"') == 2


def test_the_profile_lists_tournaments_with_card_and_finish(client, make_event, tess, alice, bob):
    event = make_event([alice, bob], rounds=1, playoff=True, qualifiers=2, series_length=1)
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    alice_side = game.pairing.side_of(alice)
    score = (121, 85) if alice_side == "a" else (85, 121)
    services.result_enter(game_id=game.pk, by=tess, score_a=score[0], score_b=score[1])
    page = client.get(reverse("profile", args=["alice"])).content.decode()
    assert "Tuesday club night" in page and "3/1" in page and "1st of 2" in page
    final = services.playoffs_start(tournament_id=event.pk, by=tess).pairings.get()
    game = final.games.get()
    score = (121, 100) if final.side_of(bob) == "a" else (100, 121)
    services.result_enter(game_id=game.pk, by=tess, score_a=score[0], score_b=score[1])
    assert "Champion" in client.get(reverse("profile", args=["bob"])).content.decode()
    assert "Runner-up" in client.get(reverse("profile", args=["alice"])).content.decode()
