"""Whole matches through the API: two members play Cribbage to 61, and one plays the computer."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from games.models import Match, Move
from tests.api.conftest import choose, started

pytestmark = pytest.mark.django_db


def test_it_plays_a_whole_muggins_game_to_61(alice_api, bob_api):
    state = started(alice_api, bob_api, target=61, muggins=True)
    match_id = state["id"]
    assert state["status"] == "active"
    assert state["seed"] is None
    assert [seat["username"] for seat in state["seats"]] == ["alice", "bob"]
    clients = {0: alice_api, 1: bob_api}
    rng = random.Random(7)
    moves = 0
    while state["status"] == "active":
        seat = state["to_move"][0]
        mine = clients[seat].get(f"/matches/{match_id}").json()
        assert mine["seat"] == seat
        assert mine["legal_moves"] == mine["view"]["legal_moves"]
        response = clients[seat].move(match_id, mine["seq"], choose(mine["legal_moves"], rng))
        assert response.status_code == 200, response.json()
        state = response.json()
        assert state["seq"] == mine["seq"] + 1
        moves += 1
        assert moves < 1000, "the game should end"
    assert state["status"] == "finished"
    assert state["ending"] == "played"
    assert state["outcome"]["winners"] in ([0], [1])
    assert max(side["score"] for side in state["scores"]) >= 61
    assert state["to_move"] == [] and state["legal_moves"] == []
    assert hashlib.sha256(bytes.fromhex(state["seed"])).hexdigest() == state["seed_sha256"]
    assert state["seed"] == Match.objects.get(pk=match_id).seed

    log = bob_api.get(f"/matches/{match_id}/log").json()
    assert log["seed"] == state["seed"]
    assert [m["seq"] for m in log["moves"]] == list(range(3, 3 + moves))
    assert not any(m["hidden"] for m in log["moves"])
    assert log["moves"][0]["move"]["type"] == "discard"
    assert Move.objects.filter(match_id=match_id).count() == moves


def test_it_reveals_the_seed_only_at_the_end(alice_api, bob_api, charlie_api):
    state = started(alice_api, bob_api)
    match_id = state["id"]
    for client in (alice_api, bob_api, charlie_api):
        seen = client.get(f"/matches/{match_id}").json()
        assert seen["seed"] is None
        assert client.get(f"/matches/{match_id}/log").json()["seed"] is None
        assert Match.objects.get(pk=match_id).seed not in str(seen)
    resigned = bob_api.post(f"/matches/{match_id}/resign")
    assert resigned.status_code == 200
    assert resigned.json()["outcome"]["winners"] == [0]
    assert resigned.json()["outcome"]["text"] == "Bob resigned"
    assert charlie_api.get(f"/matches/{match_id}").json()["seed"] is not None


def test_the_log_hides_other_seats_moves_while_the_match_is_on(alice_api, bob_api, charlie_api):
    state = started(alice_api, bob_api)
    match_id = state["id"]
    discard = state["legal_moves"][0]
    assert alice_api.move(match_id, state["seq"], discard).status_code == 200
    own = alice_api.get(f"/matches/{match_id}/log").json()["moves"]
    assert own[0]["move"] == discard and not own[0]["hidden"]
    for client in (bob_api, charlie_api):
        other = client.get(f"/matches/{match_id}/log").json()["moves"]
        assert other[0]["move"] == {"type": "discard"} and other[0]["hidden"]
        assert discard["cards"][0] not in str(other)


def test_spectators_and_players_see_only_their_own_hand(alice_api, bob_api, charlie_api):
    state = started(alice_api, bob_api)
    match_id = state["id"]
    alice = alice_api.get(f"/matches/{match_id}").json()
    bob = bob_api.get(f"/matches/{match_id}").json()
    charlie = charlie_api.get(f"/matches/{match_id}").json()
    assert charlie["seat"] is None and charlie["legal_moves"] == []
    assert charlie["view"]["hand"] is None
    assert len(alice["view"]["hand"]) == 6
    for other in (bob, charlie):
        assert other["view"]["hands"] is None and other["view"]["crib"] is None
        # The cut for the deal is a public event and may show a card Alice now holds.
        seen = json.dumps({**other, "view": {**other["view"], "events": []}})
        for card in alice["view"]["hand"]:
            assert f'"{card}"' not in seen
    assert "snapshot" not in str(alice) and "deck" not in alice["view"]


@pytest.mark.django_db(transaction=True)
def test_it_plays_the_computer_to_the_end(alice_api):
    state = alice_api.create(options={"target": 61}, computer_seats=[1])
    match_id = state["id"]
    assert state["status"] == "active"
    assert state["seats"][1] == {
        "index": 1,
        "name": "Computer 2",
        "username": None,
        "computer": True,
    }
    rng = random.Random(11)
    for _ in range(1000):
        if state["status"] != "active":
            break
        assert state["to_move"] == [0], "the computer moves at once in the tests"
        response = alice_api.move(match_id, state["seq"], choose(state["legal_moves"], rng))
        assert response.status_code == 200, response.json()
        state = response.json()
    assert state["status"] == "finished"
    assert state["outcome"]["winners"] in ([0], [1])
    assert Move.objects.filter(match_id=match_id, by_computer=True).exists()
    log = alice_api.get(f"/matches/{match_id}/log").json()
    assert any(m["by_computer"] for m in log["moves"])


def test_it_lists_matches_by_status(alice_api, bob_api, charlie_api, bob):
    public = alice_api.create()
    private = alice_api.create(invite=["bob"], invite_only=True)
    closed = alice_api.create(invite_only=True, invite=["charlie"])
    playing = started(alice_api, charlie_api)

    def ids(client, **params):
        body = client.get("/matches", **params).json()
        return [item["id"] for item in body["items"]]

    assert ids(bob_api, status="open") == [private["id"], public["id"]]
    assert ids(charlie_api, status="open") == [closed["id"], public["id"]]
    assert ids(alice_api, status="open") == []
    assert ids(alice_api, status="mine") == [
        playing["id"],
        closed["id"],
        private["id"],
        public["id"],
    ]
    assert ids(bob_api, status="active") == [playing["id"]]
    assert ids(bob_api, status="waiting") == [closed["id"], private["id"], public["id"]]
    page = alice_api.get("/matches", status="mine", limit=2, offset=1).json()
    assert page["count"] == 4 and page["limit"] == 2
    assert [item["id"] for item in page["items"]] == [closed["id"], private["id"]]
    assert page["items"][0]["seat"] == 0 and page["items"][0]["created_by"] == "alice"


def test_it_joins_leaves_cancels_and_aborts(alice_api, bob_api):
    match = alice_api.create(players=3)
    joined = bob_api.post(f"/matches/{match['id']}/join").json()
    assert joined["status"] == "waiting" and joined["seat"] == 1
    left = bob_api.post(f"/matches/{match['id']}/leave")
    assert left.status_code == 200
    assert left.json()["seat"] is None and left.json()["seats"][1]["username"] is None
    cancelled = alice_api.post(f"/matches/{match['id']}/cancel")
    assert cancelled.status_code == 200
    assert cancelled.json()["status"] == "aborted" and cancelled.json()["ending"] == "cancelled"
    state = started(alice_api, bob_api)
    aborted = bob_api.post(f"/matches/{state['id']}/abort")
    assert aborted.status_code == 200
    assert aborted.json()["status"] == "aborted" and aborted.json()["seat"] == 1
    assert aborted.json()["seed"] is not None


def test_it_describes_the_variants(alice_api):
    variants = alice_api.get("/variants").json()
    cribbage = next(v for v in variants if v["key"] == "cribbage")
    assert cribbage["name"] == "Cribbage"
    assert cribbage["player_counts"] == [2, 3, 4]
    assert cribbage["options_schema"]["target"]["choices"] == [121, 61]


def test_it_serves_the_openapi_schema_and_docs(client):
    schema = client.get("/api/v1/openapi.json")
    assert schema.status_code == 200
    assert "/api/v1/matches/{match_id}/moves" in schema.json()["paths"]
    assert client.get("/api/v1/docs").status_code == 200


def test_programs_get_every_kings_lay_while_the_page_asks_for_one(alice_api, bob_api, alice, bob):
    """The table page is given one move of each kind (engine.table_view: is a lay open?); a
    program asking the API is given every legal lay with its points, as the engine lists them."""
    from games import presenters, services
    from games.engine import get_variant

    created = alice_api.create(variant="kings")
    assert bob_api.post(f"/matches/{created['id']}/join").status_code == 200
    engine = get_variant("kings")
    board = engine.new_state(2, {}, b"a deal whose first player has many lays")  # known racks
    seat = board.turn
    Match.objects.filter(pk=created["id"]).update(
        snapshot=engine.dump(board), to_move=sorted(engine.to_move(board))
    )
    api, member = (alice_api, alice) if seat == 0 else (bob_api, bob)
    state = api.get(f"/matches/{created['id']}").json()
    every = engine.legal_moves(board, seat)
    assert state["legal_moves"] == every
    assert sum(move["type"] == "lay" for move in every) > 1
    page = presenters.match_context(services.read_match(created["id"]), member)["view"]
    assert [move["type"] for move in page["legal_moves"]] == ["lay", "exchange", "pass"]
    assert page["legal_moves"][0] == every[0]
