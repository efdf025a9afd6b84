"""Every way a request can go wrong gets the right status and a JSON reason naming the field."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from games.models import Match, Move
from tests.api.conftest import BASE, ApiClient, started

pytestmark = pytest.mark.django_db


def detail(response) -> str:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    return response.json()["detail"]


# -- 401 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [None, "", "Bearer", "Bearer ", "Bearer crib_nope", "Token crib_x", "Basic YWxpY2U6eA==",
     "Bearer " + "crib_" + "x" * 500],
)  # fmt: skip
def test_it_refuses_a_missing_or_bad_token(alice, header):
    headers = {} if header is None else {"Authorization": header}
    response = Client().get(f"{BASE}/matches", headers=headers)
    assert response.status_code == 401
    assert "Bearer" in detail(response)
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_a_browser_session_alone_does_not_authenticate(client, alice):
    client.force_login(alice)
    assert settings.SESSION_COOKIE_NAME in client.cookies
    assert client.get(f"{BASE}/matches").status_code == 401
    created = client.post(
        f"{BASE}/matches", {"variant": "cribbage"}, content_type="application/json"
    )
    assert created.status_code == 401
    assert not Match.objects.exists()


def test_a_revoked_token_or_inactive_member_is_refused(alice):
    from accounts.tokens import token_create, token_revoke

    row, raw = token_create(user=alice, name="bot")
    assert ApiClient(raw).get("/variants").status_code == 200
    alice.is_active = False
    alice.save()
    assert ApiClient(raw).get("/variants").status_code == 401
    alice.is_active = True
    alice.save()
    token_revoke(user=alice, token_id=row.pk)
    assert ApiClient(raw).get("/variants").status_code == 401


# -- moves: 400, 403, 404, 409 ----------------------------------------------------------------


def test_an_illegal_move_is_400_with_the_engines_reason(alice_api, bob_api):
    state = started(alice_api, bob_api)
    response = alice_api.move(state["id"], state["seq"], {"type": "play", "card": "5H"})
    assert response.status_code == 400
    assert detail(response) == (
        "move: you cannot play now: now is the time to lay cards away to the crib"
    )
    assert response.json()["field"] == "move"
    not_held = next(c for c in ("AS", "2S", "3S", "4S", "5S", "6S", "7S") if c not in
                    state["view"]["hand"])  # fmt: skip
    wrong = alice_api.move(state["id"], state["seq"], {"type": "discard", "cards": [not_held]})
    assert wrong.status_code == 400
    assert "move:" in detail(wrong)
    assert not Move.objects.exists()


def test_a_stale_seq_is_409_with_the_current_state(alice_api, bob_api):
    state = started(alice_api, bob_api)
    response = alice_api.move(state["id"], state["seq"] - 1, state["legal_moves"][0])
    assert response.status_code == 409
    body = response.json()
    assert "the board has moved on" in body["detail"]
    assert body["state"]["seq"] == state["seq"]
    assert body["state"]["seat"] == 0
    assert body["state"]["legal_moves"] == state["legal_moves"]


def test_the_same_move_sent_twice_applies_once(alice_api, bob_api):
    state = started(alice_api, bob_api)
    move = state["legal_moves"][0]
    first = alice_api.move(state["id"], state["seq"], move)
    second = alice_api.move(state["id"], state["seq"], move)
    assert first.status_code == 200
    assert second.status_code == 409
    assert second.json()["state"]["seq"] == first.json()["seq"]
    assert Move.objects.filter(match_id=state["id"]).count() == 1


def test_a_move_without_a_seat_or_out_of_turn_is_403(alice_api, bob_api, charlie_api):
    state = started(alice_api, bob_api)
    match_id = state["id"]
    outsider = charlie_api.move(match_id, state["seq"], state["legal_moves"][0])
    assert outsider.status_code == 403
    assert detail(outsider) == "you have no seat in this match"
    # Both discard; then only one seat may play.
    seq = alice_api.move(match_id, state["seq"], state["legal_moves"][0]).json()["seq"]
    bob = bob_api.get(f"/matches/{match_id}").json()
    seq = bob_api.move(match_id, seq, bob["legal_moves"][0]).json()["seq"]
    waiting = (
        alice_api if alice_api.get(f"/matches/{match_id}").json()["to_move"] == [1] else bob_api
    )
    response = waiting.move(match_id, seq, {"type": "go"})
    assert response.status_code == 403
    assert detail(response) == "it is not your turn"


def test_moves_on_a_match_not_in_play_are_409(alice_api, bob_api):
    match = alice_api.create()
    response = alice_api.move(match["id"], match["seq"], {"type": "go"})
    assert response.status_code == 409
    assert detail(response) == "the match has not started yet"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/matches/999"),
        ("get", "/matches/999/log"),
        ("post", "/matches/999/moves"),
        ("post", "/matches/999/join"),
        ("post", "/matches/999/resign"),
        ("post", "/matches/999/abort"),
        ("post", "/matches/999/cancel"),
        ("post", "/matches/999/leave"),
        ("post", "/matches/999/claim"),
        ("get", "/matches/0"),
        ("get", "/matches/99999999999999999999999999"),
        ("post", "/matches/99999999999999999999999999/join"),
        ("get", "/matches/abc"),
        ("get", "/no/such/route"),
        ("get", "/"),
        ("post", "/matches/"),
    ],
)
def test_unknown_matches_and_routes_are_json_404(alice_api, method, path):
    body = {"seq": 1, "move": {"type": "go"}} if path.endswith("moves") else None
    response = alice_api.get(path) if method == "get" else alice_api.post(path, body)
    assert response.status_code == 404
    assert detail(response)


def test_a_wrong_method_is_json_405(alice_api):
    response = alice_api.get("/matches/1/moves")
    assert response.status_code == 405
    assert "POST" in detail(response)


# -- creating: field errors -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"variant": "cribbage", "players": "two"}, 422, "players: Input should be a valid int"),
        ({"variant": "cribbage", "players": True}, 422, "players: Input should be a valid integer"),
        ({"variant": 7}, 422, "variant: Input should be a valid string"),
        ({}, 422, "variant: Field required"),
        ({"variant": "cribbage", "options": [61]}, 422, "options: Input should be a valid dict"),
        ({"variant": "cribbage", "computer_seats": ["1"]}, 422, "computer_seats.0: Input should"),
        ({"variant": "cribbage", "invite": "bob"}, 422, "invite: Input should be a valid list"),
        ({"variant": "cribbage", "invite_only": "yes"}, 422, "invite_only: Input should be"),
        ({"variant": "chess"}, 400, "variant: there is no game called 'chess'"),
        ({"variant": "cribbage", "players": 5}, 400, "players: Cribbage is for 2, 3, 4 players"),
        ({"variant": "cribbage", "options": {"target": 100}}, 400,
         "options.target: must be 121 or 61"),
        ({"variant": "cribbage", "options": {"target": "x"}}, 400,
         "options.target: must be a whole number"),
        ({"variant": "cribbage", "options": {"speed": 2}}, 400, "options.speed:"),
        ({"variant": "cribbage", "computer_seats": [0, 1]}, 400, "computer_seats: leave at least"),
        ({"variant": "cribbage", "computer_seats": [7]}, 400, "computer_seats: seats run from 0"),
        ({"variant": "cribbage", "invite": ["zed"]}, 400, "invite: no member is called 'zed'"),
        ({"variant": "cribbage", "invite": [f"m{i}" for i in range(11)]}, 400,
         "invite: invite at most 10"),
        ({"variant": "cribbage", "invite_only": True}, 400, "invite: an invitation-only match"),
    ],
)  # fmt: skip
def test_bad_match_settings_name_the_field(alice_api, body, status, message):
    response = alice_api.post("/matches", body)
    assert response.status_code == status
    assert detail(response).startswith(message)
    assert response.json()["field"] == message.split(":")[0]
    assert not Match.objects.exists()


def test_an_odd_digit_in_an_option_is_a_400(alice_api):
    response = alice_api.post("/matches", {"variant": "cribbage", "options": {"target": "²"}})
    assert response.status_code == 400


@pytest.mark.parametrize(
    ("raw", "content_type"),
    [
        (b"{not json", "application/json"),
        (b"[1, 2]", "application/json"),
        (b'"cribbage"', "application/json"),
        (b"\xff\xfe", "application/json"),
        (b"variant=cribbage", "application/x-www-form-urlencoded"),
    ],
)
def test_a_body_that_is_not_a_json_object_is_400(alice_api, raw, content_type):
    response = alice_api.post("/matches", raw=raw, content_type=content_type)
    assert response.status_code == 400
    assert detail(response) == "the request body must be a JSON object"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"move": {"type": "go"}}, "seq: Field required"),
        ({"seq": "3", "move": {"type": "go"}}, "seq: Input should be a valid integer"),
        ({"seq": 3, "move": "go"}, "move: Input should be a valid dictionary"),
        ({"seq": 3, "move": {"type": ["go"]}}, "move: Value error, a move's type is a word"),
    ],
)
def test_bad_move_bodies_name_the_field(alice_api, bob_api, body, message):
    state = started(alice_api, bob_api)
    response = alice_api.post(f"/matches/{state['id']}/moves", body)
    assert response.status_code == 422
    assert detail(response).startswith(message)


def test_bad_list_parameters_name_the_field(alice_api):
    for params, message in [
        ({"status": "won"}, "status: Input should be"),
        ({"limit": 101}, "limit: Input should be less than or equal to 100"),
        ({"limit": 0}, "limit: Input should be greater than or equal to 1"),
        ({"offset": -1}, "offset: Input should be greater than or equal to 0"),
    ]:
        response = alice_api.get("/matches", **params)
        assert response.status_code == 422
        assert detail(response).startswith(message)


# -- other actions ----------------------------------------------------------------------------


def test_join_resign_abort_and_cancel_refusals(alice_api, bob_api, charlie_api):
    match = alice_api.create()
    match_id = match["id"]
    assert alice_api.post(f"/matches/{match_id}/join").status_code == 409
    assert bob_api.post(f"/matches/{match_id}/cancel").status_code == 403
    assert alice_api.post(f"/matches/{match_id}/resign").status_code == 409
    assert bob_api.post(f"/matches/{match_id}/join").status_code == 200
    assert charlie_api.post(f"/matches/{match_id}/join").status_code == 409
    assert charlie_api.post(f"/matches/{match_id}/resign").status_code == 403
    assert alice_api.post(f"/matches/{match_id}/cancel").status_code == 409
    assert bob_api.post(f"/matches/{match_id}/leave").status_code == 409
    claim = alice_api.post(f"/matches/{match_id}/claim")
    assert claim.status_code == 409
    assert detail(claim) == "no opponent has been away long enough to claim"
    private = alice_api.create(invite=["bob"], invite_only=True)
    refused = charlie_api.post(f"/matches/{private['id']}/join")
    assert refused.status_code == 403
    assert detail(refused) == "this match is by invitation only"
