"""How did I discard? The analysis pages and API: what they show, and to whom (personas:
Alice and Bob play, Charlie is an outsider); computer levels through the lobby and the API."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.urls import reverse

from games import services
from games.engine import computer_move, get_variant
from games.engine.cribbage.state import COUNTED
from games.models import Match
from tests.api.conftest import ApiClient
from tests.games.helpers import fresh

pytestmark = pytest.mark.django_db(transaction=True)


def two_player(alice, bob, **options):
    match = services.match_create(
        creator=alice, variant="cribbage", players=2, options={"target": 121, **options}
    )
    services.match_join(match_id=match.pk, user=bob)
    return fresh(match)


def play_until(match, members, done, limit=500):
    """Play sensible moves for the members until `done(state)` holds."""
    engine = get_variant("cribbage")
    rng = random.Random(1)
    for _ in range(limit):
        match = fresh(match)
        state = engine.load(match.snapshot)
        if done(state):
            return match, state
        seat = next(s for s in match.to_move if s in members)
        move = computer_move(engine, state, seat, "easy", rng)
        services.match_play(match_id=match.pk, user=members[seat], seq=match.seq, move=move)
    raise AssertionError("never got there")


def first_hand_counted(state):
    return state.hand == 1 and state.phase == COUNTED


def dealt_cards(match, seat, hand=1):
    """The cards `seat` was dealt in `hand` (from the replay: for the test's eyes only)."""
    for state, _ in services.replay(match):
        if state.hand == hand and state.phase == "discard" and len(state.held[seat]) == 6:
            return [str(c) for c in state.held[seat]]
    raise AssertionError("no such hand")


# -- the standalone analyser -------------------------------------------------------------------


def test_the_analyser_needs_a_member(client):
    response = client.get(reverse("cribbage_analyser"))
    assert response.status_code == 302 and "/login/" in response.url


def test_the_analyser_ranks_the_issues_hand(client, alice):
    client.force_login(alice)
    url = reverse("cribbage_analyser")
    response = client.get(url, {"cards": "5H 5C JD 6S 7S KH", "deals": "me"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count("<tr") == 16  # the heading and fifteen discards
    assert html.index("17.81") < html.index("16.22")
    assert "Hand + crib" in html
    pone = client.get(url, {"cards": "5H 5C JD 6S 7S KH", "deals": "them"}).content.decode()
    assert "Hand − crib" in pone


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ({"cards": "5H 5C JD 6S 7S ZZ"}, "not a card"),
        ({"cards": "5H 5C JD 6S 7S 5H"}, "twice"),
        ({"cards": "5H 5C JD 6S 7S"}, "6 cards"),
        ({"cards": "5H 5C JD 6S 7S KH", "players": "9"}, "players"),
        ({"cards": "5H 5C JD 6S 7S KH", "deals": "nobody"}, "who deals"),
    ],
)
def test_the_analyser_explains_bad_input(client, alice, query, reason):
    client.force_login(alice)
    response = client.get(reverse("cribbage_analyser"), query)
    assert response.status_code == 400
    assert reason in response.content.decode()


# -- a match in progress -----------------------------------------------------------------------


def test_after_a_hand_a_player_sees_only_their_own_discards(client, alice, bob, charlie):
    match, state = play_until(two_player(alice, bob), {0: alice, 1: bob}, first_hand_counted)
    url = reverse("cribbage_match_discards", args=[match.pk])
    client.force_login(alice)
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "your discard" in html and 'id="game-1-hand-1"' in html
    # Bob's dealt cards are never shown to Alice, even when she asks for his seat; only the
    # cards of her own hand (those she kept are face up now anyway).
    asked = client.get(url, {"seat": 1}).content.decode()
    bobs_crib_cards = set(dealt_cards(match, 1)) - {str(c) for c in state.show_hand(1)}
    for card in bobs_crib_cards:
        if card not in dealt_cards(match, 0):
            assert f'data-card="{card}"' not in asked and f">{card}<" not in asked
    assert 'name="seat"' not in asked  # no choice of seat while the match is on


def test_the_match_page_offers_the_analysis_after_a_hand(client, alice, bob):
    match, _ = play_until(two_player(alice, bob), {0: alice, 1: bob}, first_hand_counted)
    client.force_login(alice)
    html = client.get(match.get_absolute_url()).content.decode()
    assert reverse("cribbage_match_discards", args=[match.pk]) + "#game-1-hand-1" in html


def test_a_hand_still_being_played_is_not_analysed(client, alice, bob):
    match = two_player(alice, bob)
    engine = get_variant("cribbage")
    state = engine.load(match.snapshot)
    move = computer_move(engine, state, 0, "strong", random.Random(0))
    services.match_play(match_id=match.pk, user=alice, seq=match.seq, move=move)
    client.force_login(alice)
    response = client.get(reverse("cribbage_match_discards", args=[match.pk]))
    assert response.status_code == 200
    assert "your discard" not in response.content.decode()
    html = client.get(match.get_absolute_url()).content.decode()
    assert "How did I discard?" not in html


def test_spectators_get_nothing_while_the_match_is_on(client, alice, bob, charlie):
    match, _ = play_until(two_player(alice, bob), {0: alice, 1: bob}, first_hand_counted)
    client.force_login(charlie)
    response = client.get(reverse("cribbage_match_discards", args=[match.pk]))
    assert response.status_code == 403
    assert "your discard" not in response.content.decode()


def test_never_during_a_tournament_game(client, make_member, alice, bob):
    from django.contrib.auth.models import Permission

    from games.tournaments import services as tournaments

    tess = make_member("tess", is_staff=True)
    tess.user_permissions.add(Permission.objects.get(codename="direct_tournament"))
    tess = type(tess).objects.get(pk=tess.pk)
    event = tournaments.tournament_create(
        director=tess,
        name="Club night",
        date=dt.date(2026, 11, 24),
        seed="fixed",
        venue="online",
        options={"target": 61},
    )
    for who in (alice, bob):
        tournaments.entrant_add(tournament_id=event.pk, by=tess, checked_in=True, user=who)
    tournaments.round_generate(tournament_id=event.pk, by=tess)
    match = Match.objects.get()
    members = {s.index: s.user for s in match.seats.all()}
    match, _ = play_until(match, members, first_hand_counted)
    url = reverse("cribbage_match_discards", args=[match.pk])
    for member in members.values():
        client.force_login(member)
        response = client.get(url)
        assert response.status_code == 403 and "tournament" in response.content.decode()
        assert "How did I discard?" not in client.get(match.get_absolute_url()).content.decode()
        token = ApiClient(_token(member))
        assert token.get(f"/matches/{match.pk}/discards").status_code == 403
    # Once it is over, it is open like any finished match.
    services.match_resign(match_id=match.pk, user=members[1])
    client.force_login(alice)
    assert client.get(url).status_code == 200


# -- a finished match: every hand, every seat ----------------------------------------------------


def test_a_finished_match_is_analysed_hand_by_hand_for_every_seat(client, alice, bob, charlie):
    match, _ = play_until(
        two_player(alice, bob), {0: alice, 1: bob}, lambda s: s.hand == 3 and s.phase == COUNTED
    )
    services.match_resign(match_id=match.pk, user=bob)
    url = reverse("cribbage_match_discards", args=[match.pk])
    client.force_login(charlie)
    for seat in (0, 1):
        html = client.get(url, {"seat": seat}).content.decode()
        assert html.count("your discard") == 3
        for hand in (1, 2, 3):
            assert f'id="game-1-hand-{hand}"' in html
        assert set(dealt_cards(match, seat, hand=2)) <= set(_cards_in(html))
    replay = client.get(reverse("match_replay", args=[match.pk]), {"step": 3}).content.decode()
    assert url + "?seat=1#game-1-hand-1" in replay


def _cards_in(html: str) -> list[str]:
    import re

    return re.findall(r'data-card="(\w\w)"', html)


# -- the API -----------------------------------------------------------------------------------


def _token(user):
    from accounts.tokens import token_create

    return token_create(user=user, name="analysis")[1]


def test_the_api_ranks_discards_like_the_command_line(alice):
    api = ApiClient(_token(alice))
    response = api.get("/cribbage/discard", cards="5H 5C JD 6S 7S KH", deals="me")
    assert response.status_code == 200
    discards = response.json()["discards"]
    assert discards[0] == {"cards": ["6S", "7S"], "hand": 12.43, "crib": 5.37, "total": 17.81}
    assert len(discards) == 15
    bad = api.get("/cribbage/discard", cards="5H 5C JD 6S 7S ZZ", deals="me")
    assert bad.status_code == 400 and "not a card" in bad.json()["detail"]
    assert ApiClient(None).get("/cribbage/discard", cards="5H").status_code == 401


def test_the_api_gives_a_players_own_hands_and_refuses_outsiders(alice, bob, charlie):
    match, _ = play_until(two_player(alice, bob), {0: alice, 1: bob}, first_hand_counted)
    mine = ApiClient(_token(alice)).get(f"/matches/{match.pk}/discards")
    assert mine.status_code == 200
    body = mine.json()
    assert body["seat"] == 0 and len(body["hands"]) == 1
    hand = body["hands"][0]
    assert sum(row["yours"] for row in hand["discards"]) == 1
    assert hand["dealt"] == sorted(hand["dealt"]) or len(hand["dealt"]) == 6
    assert ApiClient(_token(alice)).get(f"/matches/{match.pk}/discards", seat=1).status_code == 403
    assert ApiClient(_token(charlie)).get(f"/matches/{match.pk}/discards").status_code == 403


# -- levels ------------------------------------------------------------------------------------


def test_the_lobby_and_the_api_choose_the_computers_level(client, alice):
    client.force_login(alice)
    client.post(
        reverse("match_create"),
        {"variant": "cribbage", "players": 2, "opponents": "computer", "level": "easy"},
    )
    match = Match.objects.get()
    assert [s.level for s in match.seats.all() if s.is_computer] == ["easy"]
    api = ApiClient(_token(alice))
    created = api.create(computer_seats=[1], computer_level="strong")
    seat = Match.objects.get(pk=created["id"]).seats.get(is_computer=True)
    assert seat.level == "strong"
    body = {"variant": "cribbage", "computer_seats": [1], "computer_level": "genius"}
    refused = api.post("/matches", body)
    assert refused.status_code == 400 and "computer" in refused.json()["detail"]
    levels = {v["key"]: v["levels"] for v in api.get("/variants").json()}
    assert levels["cribbage"] == ["random", "easy", "strong"]
