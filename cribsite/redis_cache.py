"""Django's Redis cache, each of its connection pools served by one kept client.

Django's `RedisCacheClient.get_client` builds a new `redis.Redis` around the pool for every
cache call. With redis-py 8 that builds the client's table of some 170 reply handlers each time:
about 0.2 ms of CPU, several times the GET it wraps, and every page, move and socket connect
reads its session from this cache. A `redis.Redis` is safe to share between threads (each
command takes a connection from the pool and gives it back), so one is kept for each pool.
"""

from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class KeptClient(RedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}
        self._lock = threading.Lock()

    def _get_connection_pool(self, write):
        # Django's makes a server's pool on first use: two threads asking at once could each
        # make one (and so each get a client of its own). Taken under a lock, one pool a server.
        with self._lock:
            return super()._get_connection_pool(write)

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))  # a pool, once made, lives as long as this object
        if client is None:
            with self._lock:
                client = self._clients.get(id(pool))
                if client is None:
                    client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class KeptClientRedisCache(RedisCache):
    """settings.CACHES' BACKEND for Redis: `django.core.cache.backends.redis.RedisCache` but
    for its kept clients (same LOCATION and OPTIONS)."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = KeptClient
