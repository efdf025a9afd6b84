"""channels-redis' pub/sub layer as the site runs it (cribsite.layers.PubSubLayer): the publishes
waiting at one moment leave in one pipeline, one round trip for all, in the order they were
made; each group_send returns once Redis has taken its message, or raises what went wrong; a
flush waits for what is on its way; a stopping server lets go without unsubscribing one by one.
Against a real Redis (on every machine of the project, and CI's)."""

from __future__ import annotations

import asyncio
import secrets
import socket

import pytest
from redis import asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError

from cribsite.layers import PubSubLayer
from tests.conftest import redis_url_on

REDIS_DB = 8  # a database of its own, so no server's sockets hear these messages


@pytest.fixture
def redis_url() -> str:
    return redis_url_on(REDIS_DB)


def new_layer(url: str) -> PubSubLayer:
    return PubSubLayer(hosts=[url], prefix=f"test-{secrets.token_hex(4)}")


class Rounds:
    """Counts the pipelines the layer's shard sends, and the PUBLISH commands in each."""

    def __init__(self, monkeypatch) -> None:
        self.sizes: list[int] = []
        execute = aioredis.client.Pipeline.execute
        rounds = self

        async def counted(pipe, *args, **kwargs):
            rounds.sizes.append(len(pipe.command_stack))
            return await execute(pipe, *args, **kwargs)

        monkeypatch.setattr(aioredis.client.Pipeline, "execute", counted)


def run(coroutine):
    with asyncio.Runner() as runner:
        return runner.run(coroutine)


def test_messages_sent_at_once_leave_together_and_arrive_in_order(redis_url, monkeypatch):
    rounds = Rounds(monkeypatch)

    async def play() -> list[int]:
        layer = new_layer(redis_url)
        channel = await layer.new_channel()
        await layer.group_add("match-1", channel)
        await asyncio.gather(
            *(layer.group_send("match-1", {"type": "match.changed", "n": n}) for n in range(50))
        )
        heard = [(await asyncio.wait_for(layer.receive(channel), 5))["n"] for _ in range(50)]
        await layer.flush()
        return heard

    assert run(play()) == list(range(50))
    assert sum(rounds.sizes) == 50
    assert len(rounds.sizes) <= 3  # the first alone, then the rest that waited meanwhile


def test_a_message_sent_alone_leaves_at_once(redis_url, monkeypatch):
    rounds = Rounds(monkeypatch)

    async def play() -> list[dict]:
        layer = new_layer(redis_url)
        channel = await layer.new_channel()
        await layer.group_add("match-2", channel)
        heard = []
        for n in range(3):
            await layer.group_send("match-2", {"type": "match.changed", "n": n})
            heard.append(await asyncio.wait_for(layer.receive(channel), 5))
        await layer.flush()
        return heard

    assert [m["n"] for m in run(play())] == [0, 1, 2]
    assert rounds.sizes == [1, 1, 1]


def test_a_send_that_cannot_reach_redis_raises_and_the_next_tries_again(redis_url):
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # nobody listens here once the socket is closed

    async def play() -> None:
        layer = new_layer(f"redis://127.0.0.1:{port}/0")
        results = await asyncio.gather(
            layer.group_send("match-3", {"type": "a"}),
            layer.group_send("match-3", {"type": "b"}),
            return_exceptions=True,
        )
        assert all(isinstance(r, RedisConnectionError) for r in results), results
        with pytest.raises(RedisConnectionError):
            await layer.group_send("match-3", {"type": "c"})  # not stuck behind the failure
        await layer.flush()

    run(play())


def test_a_flush_waits_for_what_is_on_its_way(redis_url):
    async def play() -> list[bytes]:
        layer = new_layer(redis_url)
        listener = aioredis.Redis.from_url(redis_url)
        pubsub = listener.pubsub()
        group_channel = layer._get_group_channel_name("match-4")
        await pubsub.subscribe(group_channel)
        await pubsub.get_message(timeout=1)  # the subscription's confirmation
        sends = [
            asyncio.ensure_future(layer.group_send("match-4", {"type": "match.changed", "n": n}))
            for n in range(20)
        ]
        await asyncio.sleep(0)  # on their way
        await layer.flush()
        await asyncio.gather(*sends)  # each taken by Redis, none refused
        heard = []
        while len(heard) < 20:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=5)
            assert message is not None, f"only {len(heard)} of 20 arrived"
            heard.append(message["data"])
        await pubsub.aclose()
        await listener.aclose()
        return heard

    heard = run(play())
    layer = new_layer("redis://unused")
    assert [layer.deserialize(data)["n"] for data in heard] == list(range(20))


def test_a_stopping_server_lets_go_without_queueing_behind_unsubscribes(
    redis_url, monkeypatch, caplog
):
    """At SIGTERM every socket's consumer unsubscribes its channel on its way out, each a round
    trip under the shard's lock. Letting go (cribsite/asgi.py) does not wait behind those already
    queued, and those still to come unsubscribe nothing: the connection takes its subscriptions
    with it. So nothing is cancelled in the queue (channels-redis logs each such as an error),
    and the one on its way when the server stops ends well too."""
    unsubscribe = aioredis.client.PubSub.unsubscribe

    async def slow(pubsub, *args, **kwargs):  # a round trip on a busy server's loop
        await asyncio.sleep(0.02)
        return await unsubscribe(pubsub, *args, **kwargs)

    monkeypatch.setattr(aioredis.client.PubSub, "unsubscribe", slow)

    async def play() -> float:
        layer = new_layer(redis_url)
        channels = [await layer.new_channel() for _ in range(200)]
        receivers = [asyncio.ensure_future(layer.receive(channel)) for channel in channels]
        await asyncio.sleep(0.05)
        for receiver in receivers[:100]:  # sockets already closing: the first one's
            receiver.cancel()  # unsubscribe on its way to Redis, the others queued behind it
        await asyncio.sleep(0.005)
        began = asyncio.get_running_loop().time()
        await asyncio.wait_for(layer.let_go(), 1.5)  # 100 queued round trips: 2 s
        took = asyncio.get_running_loop().time() - began
        for receiver in receivers[100:]:
            receiver.cancel()
        await asyncio.gather(*receivers, return_exceptions=True)
        return took

    with caplog.at_level("ERROR"):
        took = run(play())
    assert took < 1.0
    assert "cleaning-up channel" not in caplog.text


class Commands:
    """Counts the SUBSCRIBE and UNSUBSCRIBE commands the layer's pub/sub connection sends, with
    the channels of each."""

    def __init__(self, monkeypatch) -> None:
        self.sent: list[tuple[str, int]] = []
        execute = aioredis.client.PubSub.execute_command
        commands = self

        async def counted(pubsub, *args):
            if args[0] in ("SUBSCRIBE", "UNSUBSCRIBE"):
                commands.sent.append((args[0], len(args) - 1))
            return await execute(pubsub, *args)

        monkeypatch.setattr(aioredis.client.PubSub, "execute_command", counted)


def test_sockets_opening_together_subscribe_in_one_command(redis_url, monkeypatch):
    """Every socket that opens subscribes its own channel and its match's group. Those waiting
    at one moment go out as one SUBSCRIBE, and each is heard."""
    commands = Commands(monkeypatch)

    async def play() -> list[int]:
        layer = new_layer(redis_url)

        async def open_socket(n: int) -> str:
            channel = await layer.new_channel()
            await layer.group_add(f"match-{n}", channel)
            return channel

        channels = await asyncio.gather(*(open_socket(n) for n in range(60)))
        await asyncio.gather(
            *(layer.group_send(f"match-{n}", {"type": "match.changed", "n": n}) for n in range(60))
        )
        heard = [(await asyncio.wait_for(layer.receive(c), 5))["n"] for c in channels]
        await layer.flush()
        return heard

    assert run(play()) == list(range(60))
    subscribed = [count for name, count in commands.sent if name == "SUBSCRIBE"]
    assert sum(subscribed) == 120  # each channel and each group once
    assert len(subscribed) <= 4  # the first alone, then the rest that waited meanwhile


def test_subscriptions_keep_their_order_and_a_cancelled_one_is_left_out(redis_url, monkeypatch):
    """A group left by its last socket and joined again at once stays subscribed; a channel
    subscribed and let go in one batch ends unsubscribed; a socket cancelled while its subscribe
    waited subscribes nothing."""
    commands = Commands(monkeypatch)

    async def play() -> tuple[set, set]:
        layer = new_layer(redis_url)
        first = await layer.new_channel()
        await layer.group_add("match-5", first)
        shard = layer._get_layer()._shards[0]
        group = layer._get_group_channel_name("match-5")
        second = await layer.new_channel()
        # queued together: the group unsubscribed then subscribed again; a group joined and left
        await asyncio.gather(
            layer.group_discard("match-5", first),
            layer.group_add("match-5", second),
            layer.group_add("match-6", second),
            layer.group_discard("match-6", second),
        )
        gone = asyncio.ensure_future(shard.subscribe("nobody-waits-for-this"))
        await asyncio.sleep(0)
        blocker = asyncio.ensure_future(shard.subscribe("keeps-the-lock-busy"))
        gone.cancel()
        await asyncio.gather(gone, blocker, return_exceptions=True)
        await layer.group_send("match-5", {"type": "match.changed", "n": 1})
        heard = await asyncio.wait_for(layer.receive(second), 5)
        assert heard["n"] == 1
        subscribed = set(shard._subscribed_to)
        on_redis = {c.decode() if isinstance(c, bytes) else c for c in shard._pubsub.channels}
        await layer.flush()
        return subscribed, on_redis, group

    subscribed, on_redis, group = run(play())
    assert group in subscribed and group in on_redis
    assert not any("match-6" in c for c in subscribed | on_redis)
    assert "keeps-the-lock-busy" in subscribed
    assert "nobody-waits-for-this" not in subscribed | on_redis
    assert ("UNSUBSCRIBE", 1) in commands.sent
