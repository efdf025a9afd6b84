"""A channel layer used on one event loop does not stop the next. A server runs one loop for its
whole life, but every async test runs on a loop of its own, and so does each `async_to_sync`
call made outside a server (a management command). channels-redis' pub/sub layer keeps a layer
of its own for each loop and drops it when that loop closes; the test also leaves a receive
waiting when its loop closes, as a test's socket can."""

import asyncio
import os

import pytest
from channels.layers import get_channel_layer


async def leave_a_receive_waiting() -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("between-loops", channel)
    asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0.05)  # the receive is waiting when the loop closes


async def send_and_receive() -> dict:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("between-loops", channel)
    await layer.group_send("between-loops", {"type": "hello"})
    message = await asyncio.wait_for(layer.receive(channel), 5)
    await layer.group_discard("between-loops", channel)
    return message


def run(coroutine):
    with asyncio.Runner() as runner:
        return runner.run(coroutine)


def test_a_layer_used_by_an_earlier_loop_serves_the_next_one():
    if not os.environ.get("REDIS_URL"):  # the in-memory layer keeps nothing of a loop's
        pytest.skip("REDIS_URL is not set: this run uses the in-memory channel layer")
    run(leave_a_receive_waiting())
    assert run(send_and_receive()) == {"type": "hello"}  # the same layer object, a new loop
    assert run(send_and_receive()) == {"type": "hello"}
