"""A push that meets a socket already closed (daphne refuses it: autobahn's Disconnected) is
dropped quietly: the consumer lives on to hear its disconnect, so the seat is counted out."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncWebsocketConsumer

from games.models import Seat
from tests.realtime.test_match_socket import drain, open_socket, play, start_two_player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_a_push_to_a_closed_socket_is_dropped_and_the_seat_still_counted_out(
    alice, bob, monkeypatch
):
    match = await start_two_player(alice, bob)
    sockets = {user.pk: (await open_socket(match.pk, user))[0] for user in (alice, bob)}
    for sock in sockets.values():
        await drain(sock)
    refused = []
    send = AsyncWebsocketConsumer.send

    async def closed(self, text_data=None, bytes_data=None, close=False):
        if self.user.pk == alice.pk:  # alice's page has gone; daphne has not said so yet
            refused.append(text_data)
            raise Disconnected("Attempt to send on a closed protocol")
        await send(self, text_data=text_data, bytes_data=bytes_data, close=close)

    monkeypatch.setattr(AsyncWebsocketConsumer, "send", closed)
    seat = match.to_move[0]
    moved = await play(match, alice if seat == 0 else bob, seat)
    assert f'data-seq="{moved.seq}"' in await drain(sockets[bob.pk])  # bob's push went out
    assert refused and f'data-seq="{moved.seq}"' in refused[-1]  # alice's was refused
    connected = sync_to_async(lambda: Seat.objects.get(match_id=match.pk, user=alice).connections)
    assert await connected() == 1
    await sockets[alice.pk].disconnect()  # raises if the consumer had died on the refusal
    assert await connected() == 0  # its disconnect was heard: alice is counted out
    await sockets[bob.pk].disconnect()
