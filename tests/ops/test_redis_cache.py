"""The Redis cache keeps one client per connection pool, and one pool per server in the process
(cribsite/redis_cache.py), and still behaves as Django's: values round-trip, from many threads
at once, with their timeouts."""

from __future__ import annotations

import asyncio
import os
import secrets
import threading
import time

import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCacheClient

from cribsite.redis_cache import KeptClient, KeptClientRedisCache


def _cache(location: str = "redis://127.0.0.1:6379/0") -> KeptClientRedisCache:
    return KeptClientRedisCache(location, {"KEY_PREFIX": f"kept-{secrets.token_hex(4)}"})


def test_a_pool_is_served_by_one_client_made_once():
    client = _cache()._cache
    assert isinstance(client, KeptClient)
    first = client.get_client("a")
    assert client.get_client("b") is first
    assert client.get_client("c", write=True) is first  # one server: one pool
    assert first.connection_pool is client._get_connection_pool(write=True)
    # Django's own builds a new client at every call: what this class is for
    django = RedisCacheClient(["redis://127.0.0.1:6379/0"])
    assert django.get_client("a") is not django.get_client("a")


def test_django_makes_a_cache_for_each_socket_and_they_share_one_pool():
    """Django's caches are kept per asyncio context, and a socket's work carries its consumer's
    context to the thread doing it: each socket gets cache objects of its own. Their pools (and
    so their connections to Redis) are the process's."""

    async def each_in_its_own_task() -> list:
        fetch = sync_to_async(lambda: caches["default"], thread_sensitive=False)
        return await asyncio.gather(*(asyncio.ensure_future(fetch()) for _ in range(3)))

    seen = []  # from a thread of its own, whose context holds no cache yet (as a server's loop)
    thread = threading.Thread(target=lambda: seen.extend(asyncio.run(each_in_its_own_task())))
    thread.start()
    thread.join(10)
    assert len({id(cache) for cache in seen}) == 3

    first, second = _cache()._cache, _cache()._cache
    assert first is not second
    assert second.get_client() is first.get_client()
    assert second._get_connection_pool(write=True) is first._get_connection_pool(write=True)
    other = _cache("redis://127.0.0.1:6379/2")._cache  # another server: a pool of its own
    assert other._get_connection_pool(write=True) is not first._get_connection_pool(write=True)


def test_each_server_has_its_own_client():
    client = _cache("redis://127.0.0.1:6379/0,redis://127.0.0.1:6379/1")._cache
    writer = client.get_client(write=True)
    reader = client.get_client(write=False)  # reads go to the second server
    assert writer is not reader
    assert writer.connection_pool is not reader.connection_pool
    assert client.get_client(write=True) is writer and client.get_client() is reader


class SlowPool(redis.ConnectionPool):
    """A pool slow to make, so that threads asking for the first client overlap."""

    @classmethod
    def from_url(cls, url, **kwargs):
        time.sleep(0.05)
        return super().from_url(url, **kwargs)


def test_threads_starting_together_share_one_pool_and_client():
    cache = KeptClientRedisCache("redis://127.0.0.1:6379/0", {"OPTIONS": {"pool_class": SlowPool}})
    client = cache._cache
    start = threading.Barrier(8)
    got = []

    def take():
        start.wait(5)
        got.append(client.get_client())

    threads = [threading.Thread(target=take) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(got) == 8 and len({id(c) for c in got}) == 1
    assert len(client._pools) == 1 and got[0].connection_pool is client._pools[0]


def test_the_site_uses_it_on_redis():
    if not os.environ.get("REDIS_URL"):
        assert settings.CACHES["default"]["BACKEND"].endswith("LocMemCache")
        return
    assert settings.CACHES["default"]["BACKEND"] == "cribsite.redis_cache.KeptClientRedisCache"


@pytest.fixture
def redis_cache():
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("REDIS_URL is not set: this run has no Redis")
    cache = _cache(url)
    yield cache
    cache.clear()
    cache.close()


def test_values_round_trip_through_redis(redis_cache):
    redis_cache.set("hand", {"cards": ["5H", "JD"]}, 30)
    assert redis_cache.get("hand") == {"cards": ["5H", "JD"]}
    assert redis_cache.add("hand", "other") is False
    assert redis_cache.add("count", 1) is True
    assert redis_cache.incr("count", 2) == 3
    redis_cache.set("gone", 1, 0)  # a timeout of 0 deletes, as Django's does
    assert redis_cache.get("gone", "missing") == "missing"
    assert redis_cache.delete("hand") is True
    assert redis_cache.get("hand") is None


def test_many_threads_read_and_write_through_the_one_client(redis_cache):
    errors = []

    def work(n: int) -> None:
        try:
            for i in range(50):
                redis_cache.set(f"t{n}-{i}", (n, i), 30)
                assert redis_cache.get(f"t{n}-{i}") == (n, i)
        except Exception as failed:  # noqa: BLE001 - reported by the assertion below
            errors.append(repr(failed))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert redis_cache.get_many([f"t{n}-49" for n in range(8)]) == {
        f"t{n}-49": (n, 49) for n in range(8)
    }
