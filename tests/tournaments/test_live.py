"""The live tournament page over a real ASGI WebSocket stack."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games.tournaments import services

from .conftest import current_games

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

ORIGIN = (b"origin", b"http://localhost")


def app():
    from cribsite.asgi import application

    return application


async def test_the_page_updates_when_a_result_comes_in(make_event, tess):
    event = await sync_to_async(make_event)(["Ann", "Bea", "Cal", "Dee"])
    await sync_to_async(services.round_generate)(tournament_id=event.pk, by=tess)
    watcher = WebsocketCommunicator(app(), f"/ws/tournaments/{event.pk}/", headers=[ORIGIN])
    connected, _ = await watcher.connect()
    assert connected
    first = await watcher.receive_from(timeout=3)
    assert 'id="t-live"' in first and 'hx-swap-oob="true"' in first and "Round 1" in first
    assert "121–" not in first

    game = (await sync_to_async(current_games)(event))[0]
    await sync_to_async(services.result_enter)(game_id=game.pk, by=tess, score_a=121, score_b=77)
    update = await watcher.receive_from(timeout=3)
    assert "121–77" in update and "3/1" in update

    await watcher.disconnect()


async def test_an_unknown_tournament_closes_the_socket():
    sock = WebsocketCommunicator(app(), "/ws/tournaments/999999/", headers=[ORIGIN])
    connected, code = await sock.connect()
    assert not connected or code == 4404
    await sock.disconnect()
