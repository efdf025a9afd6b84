"""Django's Redis cache, each of its connection pools served by one kept client.

Django's `RedisCacheClient.get_client` builds a new `redis.Redis` around the pool for every
cache call. With redis-py 8 that builds the client's table of some 170 reply handlers each time:
about 0.2 ms of CPU, several times the GET it wraps, and every page, move and socket connect
reads its session from this cache. A `redis.Redis` is safe to share between threads (each
command takes a connection from the pool and gives it back), so one is kept for each pool.

The pools and their clients are the process's, not the cache object's. Django makes a cache
object, and so its pools, for each thread and for each asyncio context, which on a daphne means
each socket (its consumer's context goes along to the threads that do its work): each socket's
first session read opened a connection to Redis of its own (a connect and a few round trips of
greeting) and kept it, idle, while the socket lived. With 100 matches on two processes they
held 198 connections to Redis for the cache, and 5 with this; a run of 700 matches with a
restart opened 6,900 connections in Redis, 2,800 with this (the load generator's among them);
in the surviving process, making connections was a tenth of what it did while the stopped
one's pages came back.
"""

from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

_lock = threading.Lock()
_clients: dict[tuple, object] = {}  # (pool class, server, options) -> the process's client


class KeptClient(RedisCacheClient):
    def _kept(self, write):
        """The process's client for the server (and its pool), made once, under a lock (two
        threads asking at once could each have made one)."""
        index = self._get_connection_pool_index(write)
        server = self._servers[index]
        options = tuple(sorted((name, repr(value)) for name, value in self._pool_options.items()))
        key = (self._pool_class, server, options)
        client = _clients.get(key)
        if client is None:
            with _lock:
                client = _clients.get(key)
                if client is None:
                    pool = self._pool_class.from_url(server, **self._pool_options)
                    client = _clients[key] = self._client(connection_pool=pool)
        self._pools[index] = client.connection_pool
        return client

    def _get_connection_pool(self, write):
        return self._kept(write).connection_pool

    def get_client(self, key=None, *, write=False):
        return self._kept(write)


class KeptClientRedisCache(RedisCache):
    """settings.CACHES' BACKEND for Redis: `django.core.cache.backends.redis.RedisCache` but
    for its kept clients (same LOCATION and OPTIONS)."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = KeptClient
