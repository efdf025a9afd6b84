"""The PostgreSQL + Redis pass really uses them (and fails, never skips, in CI without them)."""

from __future__ import annotations

import os

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tests.conftest import skip_or_fail


@pytest.mark.django_db
def test_the_database_named_by_database_url_is_in_use():
    from django.db import connection

    url = os.environ.get("DATABASE_URL", "")
    if not url:
        pytest.skip("DATABASE_URL is not set: this run uses SQLite")
    expected = "postgresql" if url.startswith(("postgres", "pgsql")) else "sqlite"
    assert connection.vendor == expected
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_the_channel_layer_delivers_through_redis():
    if not os.environ.get("REDIS_URL"):
        pytest.skip("REDIS_URL is not set: this run uses the in-memory channel layer")
    layer = get_channel_layer()
    assert type(layer).__name__ == "PubSubLayer"

    async def roundtrip():
        channel = await layer.new_channel()
        await layer.group_add("redis-check", channel)
        await layer.group_send("redis-check", {"type": "check", "n": 7})
        message = await layer.receive(channel)
        await layer.group_discard("redis-check", channel)
        await layer.flush()
        return message

    try:
        assert async_to_sync(roundtrip)() == {"type": "check", "n": 7}
    except OSError as error:
        skip_or_fail(f"Redis at {os.environ['REDIS_URL']} is not reachable: {error}")
