"""Long-polling: `GET /matches/{id}?wait_after_seq=N` answers as soon as the match moves on.

These run through the real ASGI application (as daphne does), so a waiting request and a move
from the other player are really served at the same time.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import HttpCommunicator

from games import api as api_module
from games import realtime, services
from tests.api.conftest import BASE, ApiClient, token_of

pytestmark = pytest.mark.django_db(transaction=True)


async def call(token: str, method: str, path: str, body: dict | None = None, timeout=10):
    from cribsite.asgi import application

    headers = [
        (b"host", b"localhost"),
        (b"authorization", f"Bearer {token}".encode()),
        (b"content-type", b"application/json"),
    ]
    raw = b"" if body is None else json.dumps(body).encode()
    communicator = HttpCommunicator(application, method, path, raw, headers)
    try:
        response = await communicator.get_response(timeout=timeout)
    finally:
        await communicator.wait()
    return response["status"], json.loads(response["body"])


@sync_to_async
def two_player_match(alice, bob) -> tuple[int, int, str, str]:
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    match = services.match_join(match_id=match.pk, user=bob)
    return match.pk, match.seq, token_of(alice), token_of(bob)


async def discard(token: str, match_id: int) -> dict:
    status, state = await call(token, "GET", f"{BASE}/matches/{match_id}")
    body = {"seq": state["seq"], "move": state["legal_moves"][0]}
    status, state = await call(token, "POST", f"{BASE}/matches/{match_id}/moves", body)
    assert status == 200, state
    return state


def waiting_for(token: str, match_id: int, seq: int) -> asyncio.Task:
    path = f"{BASE}/matches/{match_id}?wait_after_seq={seq}"
    return asyncio.create_task(call(token, "GET", path))


@pytest.mark.asyncio
async def test_it_answers_as_soon_as_the_other_player_moves(alice, bob, monkeypatch):
    monkeypatch.setattr(api_module, "WAIT_SECONDS", 5.0)
    monkeypatch.setattr(api_module, "RECHECK_SECONDS", 10.0)  # only the group message wakes it
    match_id, seq, alice_token, bob_token = await two_player_match(alice, bob)
    started = time.monotonic()
    waiting = waiting_for(alice_token, match_id, seq)
    await asyncio.sleep(0.3)
    assert not waiting.done()
    moved = await discard(bob_token, match_id)
    status, state = await asyncio.wait_for(waiting, 3)
    assert time.monotonic() - started < 2
    assert status == 200
    assert state["seq"] == moved["seq"] == seq + 1
    assert state["seat"] == 0 and state["view"]["discarded"] == [False, True]


@pytest.mark.asyncio
async def test_it_notices_a_change_even_when_the_message_is_lost(alice, bob, monkeypatch):
    monkeypatch.setattr(api_module, "WAIT_SECONDS", 5.0)
    monkeypatch.setattr(api_module, "RECHECK_SECONDS", 0.2)
    monkeypatch.setattr(realtime, "get_channel_layer", lambda: None)  # the delivery is dropped
    match_id, seq, alice_token, bob_token = await two_player_match(alice, bob)
    started = time.monotonic()
    waiting = waiting_for(alice_token, match_id, seq)
    await asyncio.sleep(0.3)
    await discard(bob_token, match_id)
    status, state = await asyncio.wait_for(waiting, 3)
    assert time.monotonic() - started < 2
    assert state["seq"] == seq + 1


@pytest.mark.asyncio
async def test_it_answers_with_the_current_state_on_timeout(alice, bob, monkeypatch):
    monkeypatch.setattr(api_module, "WAIT_SECONDS", 0.4)
    match_id, seq, alice_token, _ = await two_player_match(alice, bob)
    started = time.monotonic()
    status, state = await waiting_for(alice_token, match_id, seq)
    assert 0.35 < time.monotonic() - started < 2
    assert status == 200
    assert state["seq"] == seq and state["seat"] == 0
    assert await group_size(f"match-{match_id}") == 0, "it leaves the group"


async def group_size(group: str) -> int:
    """How many channels are in a group, for the in-memory and the Redis channel layer."""
    layer = get_channel_layer()
    if hasattr(layer, "groups"):
        return len(layer.groups.get(group, {}))
    key = layer._group_key(group)
    return await layer.connection(layer.consistent_hash(group)).zcard(key)


@pytest.mark.asyncio
async def test_it_answers_at_once_when_the_match_is_already_past(alice, bob, monkeypatch):
    monkeypatch.setattr(api_module, "WAIT_SECONDS", 5.0)
    match_id, seq, _, bob_token = await two_player_match(alice, bob)
    started = time.monotonic()
    status, state = await waiting_for(bob_token, match_id, seq - 1)
    assert time.monotonic() - started < 1
    assert state["seq"] == seq
    status, body = await waiting_for(bob_token, match_id + 1, 0)
    assert status == 404
    assert body["detail"] == "there is no such match"


@pytest.mark.django_db(transaction=False)
def test_it_also_works_from_the_plain_test_client(alice, bob, monkeypatch):
    monkeypatch.setattr(api_module, "WAIT_SECONDS", 0.2)
    match = services.match_join(
        match_id=services.match_create(creator=alice, variant="cribbage", players=2).pk, user=bob
    )
    client = ApiClient(token_of(alice))
    response = client.get(f"/matches/{match.pk}", wait_after_seq=match.seq)
    assert response.status_code == 200 and response.json()["seq"] == match.seq
    assert client.get(f"/matches/{match.pk}", wait_after_seq=0).json()["seq"] == match.seq
