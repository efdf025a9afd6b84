"""High Card, a game registered only in the test settings, goes everywhere a game goes: the
lobby, the match page and its moves, sockets, the computer, the replay, verify_match and the
API, with no line of it outside tests/testgame/. (The shared engine checks in
tests/engine/test_all_games.py pick it up as well; the browser test is test_browser.py here.)"""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command
from django.urls import reverse

from games import services
from games.models import Match
from tests.api.conftest import ApiClient, token_of
from tests.games.helpers import fresh
from tests.realtime.test_match_socket import drain, open_socket

pytestmark = pytest.mark.django_db(transaction=True)
HTMX = {"HTTP_HX_REQUEST": "true"}
CARD = re.compile(r"\b[A2-9TJQK][CDHS]\b")


def test_the_lobby_offers_it_with_its_own_options_only_in_its_fieldset(client, alice):
    client.force_login(alice)
    page = client.get(reverse("lobby")).content.decode()
    assert '<option value="testgame">High Card</option>' in page
    fieldset = page.split('data-game="testgame"')[1].split("</fieldset>")[0]
    assert 'name="testgame__cards"' in fieldset and "cribbage__" not in fieldset
    assert reverse("rules", args=["testgame"]) in page


def test_a_member_plays_it_against_the_computer_from_the_lobby(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("match_create"),
        {"variant": "testgame", "players": 2, "opponents": "computer", "testgame__cards": 2},
    )
    match = Match.objects.get()
    assert response.status_code == 302 and match.variant == "testgame"
    assert match.options == {"cards": 2} and match.status == Match.Status.ACTIVE
    page = client.get(match.get_absolute_url()).content.decode()
    assert "High Card" in page and "2 cards each" in page
    for _ in range(2):
        match = fresh(match)
        card = services.engine_view(match, 0)["hand"][0]
        answer = client.post(
            reverse("match_move", args=[match.pk]),
            {"seq": match.seq, "type": "lay", "card": card},
            **HTMX,
        )
        assert answer.status_code == 200, answer.content
    match = fresh(match)
    assert match.status == Match.Status.FINISHED  # the computer laid its cards in between
    assert [m.by_computer for m in match.moves.order_by("seq")] == [False, True, False, True]
    replay = client.get(reverse("match_replay", args=[match.pk]) + "?step=1")
    assert replay.status_code == 200 and "lays" in replay.content.decode()
    call_command("verify_match", str(match.pk))  # raises CommandError if it does not replay


def test_a_bad_move_names_the_rule_and_changes_nothing(client, alice, bob):
    match = services.match_create(creator=alice, variant="testgame", players=2)
    services.match_join(match_id=match.pk, user=bob)
    match = fresh(match)
    client.force_login(alice)
    answer = client.post(
        reverse("match_move", args=[match.pk]),
        {"seq": match.seq, "type": "lay", "card": "ZZ"},
        **HTMX,
    )
    assert answer.status_code == 400 and "is not a card" in answer.content.decode()
    assert fresh(match).seq == match.seq and not match.moves.exists()


def test_the_api_creates_plays_and_hides_the_other_hand(alice, bob):
    alice_api, bob_api = ApiClient(token_of(alice)), ApiClient(token_of(bob))
    variants = {v["key"]: v for v in alice_api.get("/variants").json()}
    assert variants["testgame"]["options_schema"]["cards"]["default"] == 3
    state = alice_api.create(variant="testgame", players=2, options={"cards": 1})
    joined = bob_api.post(f"/matches/{state['id']}/join")
    assert joined.status_code == 200, joined.json()
    mine = alice_api.get(f"/matches/{state['id']}").json()
    theirs = bob_api.get(f"/matches/{state['id']}").json()
    assert not set(CARD.findall(json.dumps(mine))) & set(theirs["view"]["hand"])
    moved = alice_api.move(state["id"], mine["seq"], mine["legal_moves"][0])
    assert moved.status_code == 200, moved.json()
    again = bob_api.get(f"/matches/{state['id']}").json()
    done = bob_api.move(state["id"], again["seq"], again["legal_moves"][0]).json()
    assert done["status"] == "finished" and done["outcome"]["winners"]


@pytest.mark.asyncio
async def test_sockets_push_each_seat_its_own_hand(alice, bob):
    @sync_to_async
    def start():
        match = services.match_create(creator=alice, variant="testgame", players=2)
        services.match_join(match_id=match.pk, user=bob)
        return fresh(match)

    match = await start()
    bob_socket, connected, _ = await open_socket(match.pk, bob)
    assert connected
    first = await drain(bob_socket)
    alice_hand = set(services.engine_view(match, 0)["hand"])
    assert 'id="hand"' in first and not set(CARD.findall(first)) & alice_hand

    @sync_to_async
    def lay():
        card = services.engine_view(match, 0)["hand"][0]
        services.match_play(
            match_id=match.pk, user=alice, seq=match.seq, move={"type": "lay", "card": card}
        )
        return card

    card = await lay()
    pushed = await drain(bob_socket)
    assert card in pushed and f'data-seq="{match.seq + 1}"' in pushed
    await bob_socket.disconnect()
