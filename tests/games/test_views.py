"""The lobby, the match page and its htmx moves, history, replay and verify_match, as members
and outsiders use them; bad input always gets a clear message and a 4xx."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.engine.core.variant import get_variant
from games.models import Match
from tests.games.helpers import any_move, fresh, play_out

pytestmark = pytest.mark.django_db(transaction=True)
HTMX = {"HTTP_HX_REQUEST": "true"}


def two_player(alice, bob, **options):
    match = services.match_create(
        creator=alice, variant="cribbage", players=2, options={"target": 61, **options}
    )
    services.match_join(match_id=match.pk, user=bob)
    return fresh(match)


def post_move(client, match, move, seq=None, **extra):
    data = {"seq": match.seq if seq is None else seq, "move": json.dumps(move)}
    return client.post(reverse("match_move", args=[match.pk]), data, **extra)


def test_the_lobby_needs_a_member(client):
    response = client.get(reverse("lobby"))
    assert response.status_code == 302 and "/login/" in response.url


def test_a_member_starts_a_match_against_the_computer(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("match_create"),
        {"variant": "cribbage", "players": 2, "opponents": "computer", "cribbage__target": 61},
    )
    match = Match.objects.get()
    assert response.status_code == 302 and response.url == match.get_absolute_url()
    assert match.status == "active" and match.options["target"] == 61
    assert match.seats.get(index=1).is_computer


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"players": 7}, "Select a valid choice"),
        ({"variant": "chess"}, "Select a valid choice"),
        ({"cribbage__games": 99}, "at most 21"),
        ({"opponents": "invite", "invite": "nobody_here"}, "No member is called nobody_here"),
        ({"opponents": "invite"}, "needs someone invited"),
        ({"players": 2, "computer_seats": 2}, "leave at least one seat"),
    ],
)
def test_bad_settings_are_shown_on_the_form(client, alice, data, message):
    client.force_login(alice)
    form = {"variant": "cribbage", "players": 2, "opponents": "open", **data}
    response = client.post(reverse("match_create"), form)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Match.objects.exists()


def test_open_matches_show_in_the_lobby_and_can_be_joined(client, alice, bob):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    client.force_login(bob)
    assert f"open-match-{match.pk}" in client.get(reverse("lobby")).content.decode()
    response = client.post(reverse("match_join", args=[match.pk]))
    assert response.status_code == 302
    assert fresh(match).status == "active"


def test_the_match_page_shows_the_members_own_hand_only(client, alice, bob, charlie):
    match = two_player(alice, bob)
    state = get_variant("cribbage").load(match.snapshot)
    alice_cards = {str(c) for c in state.held[0]}
    bob_cards = {str(c) for c in state.held[1]}
    client.force_login(alice)
    page = client.get(match.get_absolute_url()).content.decode()
    shown = set(re.findall(r'data-card="(\w\w)"', page))
    assert alice_cards <= shown and not shown & bob_cards
    assert match.seed not in page and match.seed_sha256 in page

    client.force_login(charlie)  # a spectator
    page = client.get(match.get_absolute_url()).content.decode()
    shown = set(re.findall(r'data-card="(\w\w)"', page))
    assert not shown & (alice_cards | bob_cards)
    assert "You are watching" in page


def test_the_match_page_needs_a_bounded_number_of_queries(client, alice, bob):
    match = two_player(alice, bob)
    client.force_login(alice)
    client.get(match.get_absolute_url())
    with CaptureQueriesContext(connection) as queries:
        assert client.get(match.get_absolute_url()).status_code == 200
    assert len(queries) <= 8, [q["sql"] for q in queries]
    for _ in range(5):
        services.match_create(creator=bob, variant="cribbage", players=3)
    with CaptureQueriesContext(connection) as lobby_queries:
        assert client.get(reverse("lobby")).status_code == 200
    assert len(lobby_queries) <= 10, [q["sql"] for q in lobby_queries]


def test_the_lobby_reads_no_board(client, alice, bob, charlie):
    """Its rows show each match's game, seats and options, never the board: the snapshot
    column is not read, and nothing reads it later one match at a time."""
    playing = two_player(alice, bob)
    waiting = services.match_create(creator=charlie, variant="cribbage", players=3)
    client.force_login(alice)
    client.get(reverse("lobby"))
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("lobby")).content.decode()
    assert not [q["sql"] for q in queries if "snapshot" in q["sql"]]
    mine = page.split('id="mine-title"')[1].split('id="open-title"')[0]
    assert playing.get_absolute_url() in mine and "Alice" in mine and "Bob" in mine
    assert f'id="open-match-{waiting.pk}"' in page and "2 seats open" in page
    assert len(queries) <= 6, [q["sql"] for q in queries]


def test_a_move_by_htmx_answers_with_the_fragments(client, alice, bob):
    match = two_player(alice, bob)
    client.force_login(alice)
    response = post_move(client, match, any_move(match, 0), **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    for region in ("status", "board", "hand", "players", "events", "match-seq"):
        assert f'id="{region}"' in html
    assert f'data-seq="{match.seq + 1}"' in html
    assert fresh(match).moves.count() == 1


def test_an_illegal_move_shows_the_reason_and_changes_nothing(client, alice, bob):
    match = two_player(alice, bob)
    client.force_login(alice)
    response = client.post(
        reverse("match_move", args=[match.pk]),
        {"seq": match.seq, "type": "discard", "cards": ["2C"]},
        **HTMX,
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert re.search(r'id="move-error"[^>]*>[^<]*(exactly 2 cards|do not hold)', html)
    assert fresh(match).seq == match.seq


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"seq": "x", "move": '{"type": "go"}'}, 400, "could not be read"),
        ({"seq": "1", "move": "{not json"}, 400, "could not be read"),
        ({"seq": "1", "move": "[1, 2]"}, 400, "could not be read"),
        ({"seq": "1"}, 400, "Choose a move first"),
        ({"seq": "1", "type": "count", "points": "lots"}, 400, "whole number"),
    ],
)
def test_garbage_from_a_form_is_a_400(client, alice, bob, data, status, message):
    match = two_player(alice, bob)
    client.force_login(alice)
    response = client.post(reverse("match_move", args=[match.pk]), data, **HTMX)
    assert response.status_code == status
    assert message in response.content.decode()


def test_stale_foreign_and_unknown(client, alice, bob, charlie):
    match = two_player(alice, bob)
    client.force_login(alice)
    move = any_move(match, 0)
    assert post_move(client, match, move, **HTMX).status_code == 200
    again = post_move(client, match, move, **HTMX)  # the same click twice
    assert again.status_code == 409 and "moved on" in again.content.decode()
    assert fresh(match).moves.count() == 1
    client.force_login(charlie)
    assert post_move(client, fresh(match), {"type": "go"}, **HTMX).status_code == 403
    response = client.post("/matches/999999/move/", {"seq": 1, "move": '{"type": "go"}'})
    assert response.status_code == 404
    assert client.post(f"/matches/{2**70}/join/").status_code == 404
    assert client.post(f"/matches/{match.pk}/dance/").status_code == 404


def test_without_htmx_a_move_redirects_back_with_a_message(client, alice, bob):
    match = two_player(alice, bob)
    client.force_login(alice)
    response = post_move(client, match, {"type": "go"}, follow=True)
    assert response.redirect_chain[-1][0] == match.get_absolute_url()
    assert "You cannot go now" in response.content.decode()


def test_resign_and_abort_from_the_page(client, alice, bob):
    match = two_player(alice, bob)
    client.force_login(bob)
    response = client.post(reverse("match_resign", args=[match.pk]), **HTMX)
    assert response.status_code == 200 and response["HX-Redirect"] == match.get_absolute_url()
    assert fresh(match).outcome["winners"] == [0]
    again = client.post(reverse("match_abort", args=[match.pk]), **HTMX)
    assert again.status_code == 409 and "Only a match in play" in again.content.decode()


def test_history_replay_and_verification_of_a_finished_match(client, alice, bob, charlie):
    match = play_out(two_player(alice, bob), {0: alice, 1: bob})
    client.force_login(charlie)
    page = client.get(reverse("profile", args=["alice"])).content.decode()
    assert "Cribbage" in page and "Bob" in page and ("Won" in page or "Lost" in page)
    assert f'href="/matches/{match.pk}/replay/"' in page

    replay = client.get(reverse("match_replay", args=[match.pk]))
    assert replay.status_code == 200
    last = replay.context["last"]
    assert last == match.moves_played
    start = client.get(reverse("match_replay", args=[match.pk]), {"step": 0})
    hands = start.context["views"]
    assert all(len(view["hand"]) == 6 for _, view in hands)  # every hand face up
    assert client.get(reverse("match_replay", args=[match.pk]), {"step": "x"}).status_code == 200

    from io import StringIO

    out = StringIO()
    call_command("verify_match", match.pk, stdout=out)
    assert "verified" in out.getvalue()
    Match.objects.filter(pk=match.pk).update(seed="00" * 32)
    with pytest.raises(CommandError, match="does not match the hash"):
        call_command("verify_match", match.pk)


def test_a_match_in_play_cannot_be_replayed_yet(client, alice, bob):
    match = two_player(alice, bob)
    client.force_login(alice)
    response = client.get(reverse("match_replay", args=[match.pk]))
    assert response.status_code == 403
    assert match.seed not in response.content.decode()


def test_history_is_paginated_newest_first(client, alice, bob):
    from games.presenters import HISTORY_PAGE_SIZE

    for _ in range(HISTORY_PAGE_SIZE + 2):
        match = two_player(alice, bob)
        services.match_resign(match_id=match.pk, user=bob)
    page = client.get(reverse("profile", args=["alice"]))
    assert len(page.context["history"].rows) == HISTORY_PAGE_SIZE
    rows = page.context["history"].rows
    assert rows[0]["match"].finished_at >= rows[-1]["match"].finished_at
    second = client.get(reverse("profile", args=["alice"]), {"page": 2})
    assert len(second.context["history"].rows) == 2


def test_the_rules_page_explains_the_game(client):
    page = client.get(reverse("rules", args=["cribbage"]))
    assert page.status_code == 200
    text = page.content.decode()
    for words in ("his heels", "go", "muggins", "skunk", "nobs", "31"):
        assert words in text
    assert client.get(reverse("rules", args=["chess"])).status_code == 404
