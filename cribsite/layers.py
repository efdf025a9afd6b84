"""The channel layers: channels' in-memory one for a single process (SQLite and `make run`), and
channels-redis' pub/sub one where several processes share Redis.

The in-memory layer here looks for expired messages and group memberships at most once a second.

channels' InMemoryChannelLayer walks every channel and every group membership for expired ones at
each group_send and at each receive (and every socket's consumer is always waiting in a receive):
a few operations a move, each as long as the number of open sockets. With 200 matches playing
(600 sockets) the layer cost 0.55-0.63 ms of CPU a move, with 500 matches 1.43 ms, where it costs
0.07-0.09 ms walking once a second. Messages expire after a minute and memberships after a day,
so a second later changes nothing a page can tell.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from time import monotonic

from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisSingleShardConnection

logger = logging.getLogger(__name__)

CLEAN_EVERY_SECONDS = 1.0


class InMemoryLayer(InMemoryChannelLayer):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._cleaned = float("-inf")  # monotonic() of the last walk

    def _clean_expired(self) -> None:
        now = monotonic()
        if now - self._cleaned < CLEAN_EVERY_SECONDS:
            return
        self._cleaned = now
        super()._clean_expired()


# Called on the server's loop each time this process's Redis subscriptions come back after a cut
# (cribsite/asgi.py closes the process's sockets with 1012 there, see PubSubLayer).
after_reconnect: list[Callable[[], None]] = []


class PubSubLayer(RedisPubSubChannelLayer):
    """channels-redis' pub/sub layer (one PUBLISH a group message, heard once by each process
    with a socket in the group), told when its subscriptions come back after a cut.

    Redis keeps nothing for a subscriber that is away: what was published while a process's
    connection was down (Redis restarting, or dropping a subscriber that fell too far behind)
    never reaches its sockets. redis-py connects again and subscribes again by itself; then every
    function in `after_reconnect` is called, so that the pages can be handed what they missed.

    Its messages reach the site's other processes, so a move's message carries the board it
    wrote (games.realtime, games.carried): their sockets need not read it back."""

    carries_boards = True

    def _get_layer(self):
        fresh = asyncio.get_running_loop() not in self._layers
        layer = super()._get_layer()  # one per event loop
        if fresh:
            layer._shards = [_Shard(shard.host, layer) for shard in layer._shards]
        return layer

    async def let_go(self) -> None:
        """For a stopping server (cribsite/asgi.py): close this process's connections to Redis,
        its subscriptions going with them, and unsubscribe nothing one by one from now on.

        Each socket's consumer, cancelled, unsubscribes its channel on its way out, and each
        unsubscribe is a round trip under the shard's lock. With hundreds of sockets on a busy
        process they queued for longer than the server waits (the flush itself waiting behind
        them), then were cancelled in the queue, each logged by channels-redis as an error."""
        for layer in self._layers.values():
            for shard in layer._shards:
                shard.stopping = True
        await self.flush()


class _Shard(RedisSingleShardConnection):
    """A connection to Redis for the layer: its publishes go out together, and so do its
    subscriptions, and it is told when its subscriptions come back after a cut.

    channels-redis sends each PUBLISH on its own and waits for Redis' answer before the next,
    under the lock that its subscribes and unsubscribes take too, so a process's messages leave
    one round trip at a time. Under load that round trip is also a wait for the event loop (1.3
    ms at the median, 10-12 ms at p95 with 500 matches on two processes), and messages queued
    behind one another: the wait for the lock alone was 107-195 ms at p95 and 261-414 ms at p99,
    most of the time from a move to the other player's page. Here every publish waiting is sent
    in one pipeline, one round trip for all of them, in the order they were made, under the same
    lock (so never while the layer flushes); a publish returns once Redis has taken it (or
    raises what went wrong), as before.

    Every socket that opens subscribes twice (its own channel and its match's group), and every
    one that closes unsubscribes, each a command of its own under that lock, handed from waiter
    to waiter one turn of the event loop at a time: when a stopped process's pages all come to
    the other, hundreds at once. Here the changes waiting at one moment go in order, each run of
    one kind as one SUBSCRIBE or one UNSUBSCRIBE for all its channels, and each returns once its
    command is sent, as before. A subscribe whose socket was cancelled while it waited is left
    out, as channels-redis' own would have been."""

    stopping = False  # PubSubLayer.let_go: the connection is going, its subscriptions with it

    def __init__(self, host, channel_layer) -> None:
        super().__init__(host, channel_layer)
        self._publishes = _Batches(self._lock, self._publish)  # items: (channel, message)
        self._changes = _Batches(self._lock, self._change)  # items: (subscribe?, channel)

    async def publish(self, channel, message) -> None:
        await self._publishes.put((channel, message))

    async def subscribe(self, channel) -> None:
        await self._changes.put((True, channel))

    async def unsubscribe(self, channel) -> None:
        """Skipped once the layer is letting go (by those already waiting too)."""
        if self.stopping:
            self._subscribed_to.discard(channel)
        else:
            await self._changes.put((False, channel))

    async def _publish(self, batch: list[tuple[tuple[str, bytes], asyncio.Future]]) -> None:
        async def send() -> None:
            self._ensure_redis()
            pipe = self._redis.pipeline(transaction=False)
            for (channel, message), _ in batch:
                pipe.publish(channel, message)
            await pipe.execute()

        await _answer([sent for _, sent in batch], send)

    async def _change(self, batch: list[tuple[tuple[bool, str], asyncio.Future]]) -> None:
        start = 0
        while start < len(batch):
            end = start + 1
            while end < len(batch) and batch[end][0][0] == batch[start][0][0]:
                end += 1
            await self._change_run(batch[start:end])
            start = end

    async def _change_run(self, run: list[tuple[tuple[bool, str], asyncio.Future]]) -> None:
        subscribe = run[0][0][0]
        channels: list[str] = []
        for (_, channel), done in run:
            if subscribe:
                if done.done():  # cancelled while it waited: a socket gone before it opened
                    continue
                wanted = channel not in self._subscribed_to
            elif self.stopping:  # the connection takes its subscriptions with it
                self._subscribed_to.discard(channel)
                continue
            else:
                wanted = channel in self._subscribed_to
            if wanted and channel not in channels:
                channels.append(channel)

        async def send() -> None:
            if not channels:
                return
            self._ensure_redis()
            self._ensure_receiver()
            if subscribe:
                await self._pubsub.subscribe(*channels)
                self._subscribed_to.update(channels)
            else:
                await self._pubsub.unsubscribe(*channels)
                self._subscribed_to.difference_update(channels)

        await _answer([done for _, done in run], send)

    def _ensure_redis(self) -> None:
        fresh = self._redis is None
        super()._ensure_redis()
        if fresh:
            # redis-py calls its pub/sub's on_connect each time the connection is made again
            # (not the first time), to subscribe to every channel again; it keeps a weak
            # reference to a bound method, so the shard's own method stands in for it.
            self._subscribe_again = self._pubsub.on_connect
            self._pubsub.on_connect = self._on_connect

    async def _on_connect(self, connection) -> None:
        await self._subscribe_again(connection)
        logger.warning("Subscribed to Redis again after a cut")
        for func in list(after_reconnect):
            func()


class _Batches:
    """What is put in while a batch is on its way goes out together as the next batch: `send`
    is given each batch (its items with their futures, in the order they were put) under the
    lock, and `put` returns once its own item's future is settled."""

    def __init__(self, lock: asyncio.Lock, send: Callable[[list], Awaitable[None]]) -> None:
        self._lock, self._send = lock, send
        self._waiting: list[tuple[object, asyncio.Future]] = []
        self._sending: asyncio.Task | None = None

    async def put(self, item) -> None:
        done = asyncio.get_running_loop().create_future()
        self._waiting.append((item, done))
        if self._sending is None:
            self._sending = asyncio.ensure_future(self._send_all())
        await done

    async def _send_all(self) -> None:
        try:
            while self._waiting:
                async with self._lock:  # as channels-redis' own: never while the layer flushes
                    batch, self._waiting = self._waiting, []
                    try:
                        await self._send(batch)
                    finally:  # none left waiting for good, should the sending have broken off
                        for _, done in batch:
                            if not done.done():
                                done.cancel()
        finally:
            self._sending = None


async def _answer(waiting: list[asyncio.Future], send: Callable[[], Awaitable[None]]) -> None:
    """Send, then tell each of those waiting how it went: done, or what went wrong (cancelled
    with it, should the server be stopping)."""
    try:
        await send()
    except Exception as error:
        for done in waiting:
            if not done.done():
                done.set_exception(error)
    except BaseException:  # cancelled: the server is stopping
        for done in waiting:
            done.cancel()
        raise
    else:
        for done in waiting:
            if not done.done():
                done.set_result(None)
