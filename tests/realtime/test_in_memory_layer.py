"""The single-process channel layer (cribsite.layers): channels' in-memory layer, with its walk
for expired messages and memberships made at most once a second instead of at every send to a
group and every receive; what expires still expires."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings

from cribsite import layers
from cribsite.layers import InMemoryLayer


class Clock:
    def __init__(self) -> None:
        self.wall, self.mono = 1_000_000.0, 500.0

    def tick(self, seconds: float) -> None:
        self.wall += seconds
        self.mono += seconds


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr("channels.layers.time.time", lambda: clock.wall)
    monkeypatch.setattr(layers, "monotonic", lambda: clock.mono)
    return clock


def test_the_site_uses_it_without_redis():
    if getattr(settings, "REDIS_URL", None):
        pytest.skip("this run uses Redis")
    assert isinstance(get_channel_layer(), InMemoryLayer)


def test_it_walks_at_most_once_a_second(clock, monkeypatch):
    walks = []
    monkeypatch.setattr(InMemoryChannelLayer, "_clean_expired", lambda self: walks.append(1))
    layer = InMemoryLayer()

    async def traffic():
        await layer.group_add("match-1", "specific.a!1")
        for n in range(200):
            await layer.group_send("match-1", {"type": "match.changed", "seq": n})
            await layer.receive("specific.a!1")
        clock.tick(0.5)
        await layer.group_send("match-1", {"type": "match.changed", "seq": 200})
        assert len(walks) == 1
        clock.tick(0.6)
        await layer.receive("specific.a!1")
        assert len(walks) == 2

    asyncio.run(traffic())


def test_an_unread_message_still_expires_and_its_channel_leaves_the_groups(clock):
    layer = InMemoryLayer(expiry=60)

    async def traffic():
        await layer.group_add("match-1", "specific.gone!1")
        await layer.group_add("match-1", "specific.here!2")
        await layer.group_send("match-1", {"type": "match.changed", "seq": 1})
        await layer.receive("specific.here!2")  # the page still there reads its push
        clock.tick(59)
        await layer.group_send("match-1", {"type": "match.changed", "seq": 2})
        assert set(layer.groups["match-1"]) == {"specific.gone!1", "specific.here!2"}
        await layer.receive("specific.here!2")
        clock.tick(2)  # the first push to the page gone is now over a minute old
        await layer.group_send("match-1", {"type": "match.changed", "seq": 3})
        assert set(layer.groups["match-1"]) == {"specific.here!2"}
        assert (await layer.receive("specific.here!2"))["seq"] == 3

    asyncio.run(traffic())


def test_a_membership_still_ends_after_the_group_expiry(clock):
    layer = InMemoryLayer(group_expiry=3600)

    async def traffic():
        await layer.group_add("lobby", "specific.old!1")
        clock.tick(3601)
        await layer.group_add("lobby", "specific.new!2")
        await layer.group_send("lobby", {"type": "lobby.changed"})
        assert set(layer.groups["lobby"]) == {"specific.new!2"}

    asyncio.run(traffic())
