"""Cribist with muggins between members: the winner's declaration form, the others' "Muggins!"
form and its claim, read from the page's fields; and sockets push each seat only its own hand."""

from __future__ import annotations

import random
import re

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from games import services
from games.engine import computer_move, get_variant
from games.models import Match
from tests.games.helpers import fresh
from tests.realtime.test_match_socket import drain, open_socket

pytestmark = pytest.mark.django_db(transaction=True)
HTMX = {"HTTP_HX_REQUEST": "true"}
SHOWN_CARD = re.compile(r'data-card="([A2-9TJQK][CDHS])"')
ENGINE = get_variant("cribist")


@pytest.fixture
def four(make_member):
    return [make_member(name) for name in ("alice", "bob", "carol", "dave")]


def _table(four, **options) -> Match:
    match = services.match_create(creator=four[0], variant="cribist", players=4, options=options)
    for member in four[1:]:
        services.match_join(match_id=match.pk, user=member)
    return fresh(match)


def _state(match: Match):
    return ENGINE.load(fresh(match).snapshot)


def _move(match: Match, four, seat: int, move: dict) -> Match:
    services.match_play(match_id=match.pk, user=four[seat], seq=match.seq, move=move)
    return fresh(match)


def _to_a_rich_trick_won_by(match: Match, four, winner: int) -> Match:
    """Play (the easy computer's choices, honest counts) until `winner` must declare a trick
    worth 2 or more."""
    rng = random.Random(4)
    for _ in range(3000):
        state = ENGINE.load(match.snapshot)
        trick = state.tricks[-1] if state.tricks else None
        if state.phase == "declare" and trick.winner == winner and trick.points >= 2:
            return match
        seat = min(ENGINE.to_move(state))
        match = _move(match, four, seat, computer_move(ENGINE, state, seat, "easy", rng))
    raise AssertionError("no such trick")


def test_the_winner_declares_short_and_another_member_calls_muggins_from_the_page(client, four):
    match = _to_a_rich_trick_won_by(_table(four, muggins=True), four, 1)
    client.force_login(four[1])
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'id="move-declare"' in page and "what is it worth" in page
    answer = client.post(
        reverse("match_move", args=[match.pk]),
        {"seq": match.seq, "type": "declare", "points": 0},
        **HTMX,
    )
    assert answer.status_code == 200, answer.content
    match = fresh(match)
    trick = _state(match).tricks[-1]
    assert sorted(match.to_move) == [s for s in range(4) if s != 1]

    client.force_login(four[2])
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'id="move-muggins"' in page and "Muggins!" in page and "Let the count stand" in page
    claim = ENGINE.legal_moves(_state(match), 2)[0]  # one combination, at its worth
    item = claim["items"][0]
    before = _state(match).scores[2]
    fields = {"seq": match.seq, "type": "muggins", "points": claim["points"]}
    fields |= {"kind_0": item["kind"], "cards_0": item["cards"]}
    answer = client.post(reverse("match_move", args=[match.pk]), fields, **HTMX)
    assert answer.status_code == 200, answer.content
    call = _state(match).tricks[-1].calls[-1]
    assert call.seat == 2 and call.correct and call.points == claim["points"]
    assert _state(match).scores[2] == before + claim["points"]
    assert trick.points >= claim["points"]
    page = client.get(match.get_absolute_url()).content.decode()
    assert "called muggins for" in page


def test_a_wrong_call_from_the_page_costs_the_caller(client, four):
    match = _to_a_rich_trick_won_by(_table(four, muggins=True), four, 1)
    match = _move(match, four, 1, {"type": "declare", "points": 0})
    before = _state(match).scores[3]
    cards = [str(c) for c in _state(match).tricks[-1].cards]
    client.force_login(four[3])
    answer = client.post(
        reverse("match_move", args=[match.pk]),
        {"seq": match.seq, "type": "muggins", "points": 1, "kind_0": "flush", "cards_0": cards[:1]},
        **HTMX,
    )
    assert answer.status_code == 200, answer.content
    call = _state(match).tricks[-1].calls[-1]
    assert not call.correct and _state(match).scores[3] == max(0, before - 1)


@pytest.mark.asyncio
async def test_sockets_push_each_seat_its_own_hand_only(four):
    match = await sync_to_async(_table)(four)
    state = await sync_to_async(_state)(match)
    leader = min(ENGINE.to_move(state))
    watcher = (leader + 1) % 4
    socket, connected, _ = await open_socket(match.pk, four[watcher])
    assert connected
    first = await drain(socket)
    assert 'id="hand"' in first
    assert not set(SHOWN_CARD.findall(first)) & ENGINE.hidden(state, watcher)
    assert set(SHOWN_CARD.findall(first)) >= {str(c) for c in state.held[watcher]}
    card = str(ENGINE.legal_moves(state, leader)[0]["card"])
    await sync_to_async(_move)(match, four, leader, {"type": "play", "card": card})
    pushed = await drain(socket)
    after = await sync_to_async(_state)(match)
    assert card in pushed
    assert not set(SHOWN_CARD.findall(pushed)) & ENGINE.hidden(after, watcher)
    await socket.disconnect()
