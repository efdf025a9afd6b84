"""The pool of threads that serves pages (cribsite.asgi.PooledHandler) keeps a database
connection in each thread, and can close them all: the tests do after each test, since a test
database cannot be dropped while anyone is still connected to it."""

import pytest
from channels.testing import HttpCommunicator
from django.db import connection

import cribsite.asgi  # noqa: F401 - sets the server up as daphne loads it
from cribsite.asgi import PooledHandler

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def connected_threads(handler: PooledHandler) -> int:
    """How many of the pool's threads hold an open connection (asked of each thread once)."""
    return sum(handler.in_every_thread(lambda: connection.connection is not None))


async def serve(handler: PooledHandler, path: str = "/healthz") -> int:
    communicator = HttpCommunicator(handler, "GET", path, headers=[(b"host", b"testserver")])
    response = await communicator.get_response(timeout=10)
    return response["status"]


async def test_the_threads_keep_their_connections_until_closed():
    handler = PooledHandler(threads=2)
    assert await serve(handler) == 200  # /healthz reads the database
    assert connected_threads(handler) == 1  # kept for the next request (CONN_MAX_AGE)
    handler.close_connections()
    assert connected_threads(handler) == 0
    assert await serve(handler) == 200  # and the next request connects again
    assert connected_threads(handler) == 1
    handler.close_connections()
    handler.pool.shutdown()


async def test_a_pool_that_served_nothing_since_is_left_alone():
    handler = PooledHandler(threads=3)
    handler.close_connections()  # nothing to close: no thread is even started
    assert len(handler.pool._threads) == 0
    handler.pool.shutdown()
