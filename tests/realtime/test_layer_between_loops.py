"""A channel layer left by one event loop does not stop the next (tests/conftest.py gives each
test layers of its own): channels-redis keeps locks in its layer object that belong to the loop
that used them, and every async test runs on a loop of its own."""

import asyncio
import os

import pytest
from channels.layers import get_channel_layer

from tests.conftest import fresh_channel_layers


async def leave_a_receive_half_done() -> None:
    """What a test's loop can leave behind when it closes: the lock a receive takes until its
    clean-up is done, held, with a second receive waiting on it (so it belongs to this loop)."""
    layer = get_channel_layer()
    key = layer.prefix + layer.non_local_name(await layer.new_channel())
    await layer.receive_clean_locks.acquire(key)
    asyncio.ensure_future(layer.receive_clean_locks.acquire(key))
    await asyncio.sleep(0)


async def send_and_receive() -> dict:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "hello"})
    return await asyncio.wait_for(layer.receive(channel), 5)


def run(coroutine):
    with asyncio.Runner() as runner:
        return runner.run(coroutine)


def test_a_layer_left_by_an_earlier_loop_is_not_the_next_ones():
    if not os.environ.get("REDIS_URL"):  # the in-memory layer keeps nothing of a loop's
        pytest.skip("REDIS_URL is not set: this run uses the in-memory channel layer")
    run(leave_a_receive_half_done())
    with pytest.raises(RuntimeError, match="different event loop"):
        run(send_and_receive())  # the same layer object: what the tests met
    fresh_channel_layers()  # as before every test
    assert run(send_and_receive()) == {"type": "hello"}
