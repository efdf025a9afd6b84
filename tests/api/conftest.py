"""API test helpers: a token-carrying client for each persona, and a way to play a match out."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client

from accounts.tokens import token_create

BASE = "/api/v1"


class ApiClient:
    """A Django test client that sends a member's bearer token with every request."""

    def __init__(self, token: str | None) -> None:
        self.client = Client()
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, path: str, **params: Any):
        return self.client.get(BASE + path, params, headers=self.headers)

    def post(self, path: str, body: Any = None, *, raw: bytes | str | None = None,
             content_type: str = "application/json"):  # fmt: skip
        data = raw if raw is not None else ("" if body is None else json.dumps(body))
        return self.client.post(BASE + path, data, content_type=content_type, headers=self.headers)

    def create(self, **body: Any) -> dict[str, Any]:
        body.setdefault("variant", "cribbage")
        body.setdefault("players", 2)
        response = self.post("/matches", body)
        assert response.status_code == 201, response.json()
        return response.json()

    def move(self, match_id: int, seq: int, move: dict[str, Any]):
        return self.post(f"/matches/{match_id}/moves", {"seq": seq, "move": move})


def token_of(user, name: str = "tests") -> str:
    return token_create(user=user, name=name)[1]


@pytest.fixture
def alice_api(alice) -> ApiClient:
    return ApiClient(token_of(alice))


@pytest.fixture
def bob_api(bob) -> ApiClient:
    return ApiClient(token_of(bob))


@pytest.fixture
def charlie_api(charlie) -> ApiClient:
    return ApiClient(token_of(charlie))


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A move a fair player would make: the true count when counting (muggins), else any."""
    counts = [move for move in legal if move["type"] == "count"]
    if counts:
        return max(counts, key=lambda move: move["points"])
    return rng.choice(legal)


def started(alice_api: ApiClient, bob_api: ApiClient, **options: Any) -> dict[str, Any]:
    """A 2-player Cribbage match Alice created and Bob joined; Alice's state."""
    match = alice_api.create(options=options)
    assert bob_api.post(f"/matches/{match['id']}/join").status_code == 200
    return alice_api.get(f"/matches/{match['id']}").json()


def mover(state: dict[str, Any]) -> int:
    return state["to_move"][0]
