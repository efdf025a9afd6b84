"""Kings Cribbage through the JSON API: a member plays the computer with the listed moves
(each lay with its points), and the other rack never shows in what the API sends."""

from __future__ import annotations

import json
import re

import pytest

from games.models import Match
from tests.api.conftest import ApiClient, token_of

pytestmark = pytest.mark.django_db(transaction=True)  # the computer moves on commit

IDENTITY = re.compile(r"\b[A2-9TJQK][LD][a-d]\b")


def test_a_member_lays_through_the_api_against_the_computer(alice):
    api = ApiClient(token_of(alice))
    created = api.create(variant="kings", players=2, computer_seats=[1], computer_level="easy")
    match_id = created["id"]
    for _ in range(3):
        state = api.get(f"/matches/{match_id}").json()
        assert state["status"] == "active" and state["to_move"] == [0]  # the computer has moved
        lays = [m for m in state["legal_moves"] if m["type"] == "lay"]
        assert {"type": "pass", "points": 0} in state["legal_moves"]
        move = max(lays, key=lambda m: m["points"]) if lays else {"type": "pass"}
        answer = api.move(match_id, state["seq"], move)
        assert answer.status_code == 200, answer.json()
        text = json.dumps(answer.json())
        match = Match.objects.get(pk=match_id)
        other_rack = {tile for tile in match.snapshot["racks"][1]}
        assert not set(IDENTITY.findall(text)) & (other_rack | set(match.snapshot["bag"]))
    assert Match.objects.get(pk=match_id).moves.filter(seat=0).count() == 3
    assert Match.objects.get(pk=match_id).moves.filter(seat=1, by_computer=True).count() >= 2


def test_an_illegal_lay_is_refused_with_the_rule(alice):
    api = ApiClient(token_of(alice))
    created = api.create(variant="kings", players=2, computer_seats=[1], computer_level="easy")
    state = api.get(f"/matches/{created['id']}").json()
    assert state["to_move"] == [0]  # the computer, if it started, has laid already
    first = state["view"]["first_lay"]
    face = state["view"]["rack"][0]["face"]
    answer = api.move(created["id"], state["seq"], {"type": "lay", "tiles": [f"0,0={face}"]})
    assert answer.status_code == 400
    rule = "two or more tiles" if first else "touch a tile"
    assert rule in json.dumps(answer.json())
