"""The live "members online" count on the home page, over a real ASGI WebSocket stack."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

ORIGIN = (b"origin", b"http://localhost")


def app():
    from cribsite.asgi import application

    return application


@sync_to_async
def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


async def connect(user=None) -> WebsocketCommunicator:
    headers = [ORIGIN]
    if user is not None:
        headers.append((b"cookie", await session_cookie(user)))
    communicator = WebsocketCommunicator(app(), "/ws/presence/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def count_of(communicator) -> int:
    html = await communicator.receive_from(timeout=3)
    assert 'id="online-count"' in html and 'hx-swap-oob="true"' in html
    return int(re.search(r"(\d+) members? online", html).group(1))


async def test_it_counts_members_as_they_come_and_go(alice, bob):
    visitor = await connect()
    assert await count_of(visitor) == 0

    alice_socket = await connect(alice)
    assert await count_of(alice_socket) == 1
    assert await count_of(visitor) == 1

    bob_socket = await connect(bob)
    assert await count_of(bob_socket) == 2
    assert await count_of(alice_socket) == 2
    assert await count_of(visitor) == 2

    # A second tab of Alice's does not count her twice.
    alice_tab = await connect(alice)
    assert await count_of(alice_tab) == 2
    assert await count_of(bob_socket) == 2
    await alice_tab.disconnect()
    assert await count_of(bob_socket) == 2
    for other in (alice_socket, visitor, alice_socket, visitor):
        assert await count_of(other) == 2

    await alice_socket.disconnect()
    assert await count_of(bob_socket) == 1
    assert await count_of(visitor) == 1

    await bob_socket.disconnect()
    assert await count_of(visitor) == 0
    await visitor.disconnect()


async def test_a_heartbeat_keeps_a_member_fresh(alice):
    from accounts.models import Presence

    sock = await connect(alice)
    await count_of(sock)
    before = (await Presence.objects.aget()).seen
    await sock.send_to(text_data='{"ping": "1"}')
    await sock.receive_nothing(timeout=0.2)
    after = (await Presence.objects.aget()).seen
    assert after >= before
    await sock.disconnect()
    assert await Presence.objects.acount() == 0


async def test_stale_sockets_age_out(alice, settings):
    from datetime import timedelta

    from django.utils import timezone

    from accounts import presence
    from accounts.models import Presence

    await Presence.objects.acreate(
        user=alice,
        channel_name="crashed-server-socket",
        seen=timezone.now() - timedelta(seconds=settings.PRESENCE_STALE_SECONDS + 1),
    )
    assert await sync_to_async(presence.online_count)() == 0
    assert await sync_to_async(presence.prune)() == 1


async def test_it_refuses_a_socket_from_a_foreign_origin():
    communicator = WebsocketCommunicator(
        app(), "/ws/presence/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()
