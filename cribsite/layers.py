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
from collections.abc import Callable
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
    """A connection to Redis for the layer: its publishes go out together, and it is told when
    its subscriptions come back after a cut.

    channels-redis sends each PUBLISH on its own and waits for Redis' answer before the next,
    under the lock that its subscribes and unsubscribes take too, so a process's messages leave
    one round trip at a time. Under load that round trip is also a wait for the event loop (1.3
    ms at the median, 10-12 ms at p95 with 500 matches on two processes), and messages queued
    behind one another: the wait for the lock alone was 107-195 ms at p95 and 261-414 ms at p99,
    most of the time from a move to the other player's page. Here every publish waiting is sent
    in one pipeline, one round trip for all of them, in the order they were made, under the same
    lock (so never while the layer flushes); a publish returns once Redis has taken it (or
    raises what went wrong), as before."""

    stopping = False  # PubSubLayer.let_go: the connection is going, its subscriptions with it

    def __init__(self, host, channel_layer) -> None:
        super().__init__(host, channel_layer)
        self._outbox: list[tuple[str, bytes, asyncio.Future]] = []
        self._sending: asyncio.Task | None = None

    async def unsubscribe(self, channel) -> None:
        """channels-redis' unsubscribe, skipped once the layer is letting go (by those already
        waiting for the lock too)."""
        if not self.stopping:
            async with self._lock:
                if not self.stopping and channel in self._subscribed_to:
                    self._ensure_redis()
                    self._ensure_receiver()
                    await self._pubsub.unsubscribe(channel)
        self._subscribed_to.discard(channel)

    async def publish(self, channel, message) -> None:
        sent = asyncio.get_running_loop().create_future()
        self._outbox.append((channel, message, sent))
        if self._sending is None:
            self._sending = asyncio.ensure_future(self._send_outbox())
        await sent

    async def _send_outbox(self) -> None:
        """Send what the outbox holds, one pipeline a round, until it is empty."""
        try:
            while self._outbox:
                async with self._lock:  # as channels-redis' publish: never during a flush
                    batch, self._outbox = self._outbox, []
                    try:
                        self._ensure_redis()
                        pipe = self._redis.pipeline(transaction=False)
                        for channel, message, _ in batch:
                            pipe.publish(channel, message)
                        await pipe.execute()
                    except Exception as error:
                        for *_, sent in batch:
                            if not sent.done():
                                sent.set_exception(error)
                    except BaseException:  # cancelled: the server is stopping
                        for *_, sent in batch:
                            sent.cancel()
                        raise
                    else:
                        for *_, sent in batch:
                            if not sent.done():
                                sent.set_result(None)
        finally:
            self._sending = None

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
