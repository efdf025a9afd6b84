"""games.realtime.run_soon outside a server: the message is waited for, within a deadline."""

from __future__ import annotations

import asyncio
import logging
import time

from games import realtime


def test_outside_a_server_a_send_that_never_ends_is_left_after_the_deadline(monkeypatch, caplog):
    monkeypatch.setattr(realtime, "_server_loop", None)
    monkeypatch.setattr(realtime, "DEADLINE_SECONDS", 0.2)

    async def stuck(_message):
        await asyncio.Event().wait()  # a channel layer that never answers

    started = time.monotonic()
    with caplog.at_level(logging.ERROR, logger="games.realtime"):
        realtime.run_soon(stuck, "hello")
    assert time.monotonic() - started < 5
    assert "was not sent within" in caplog.text


def test_outside_a_server_a_send_is_done_before_run_soon_returns(monkeypatch):
    monkeypatch.setattr(realtime, "_server_loop", None)
    sent = []

    async def send(message):
        await asyncio.sleep(0)
        sent.append(message)

    realtime.run_soon(send, "hello")
    assert sent == ["hello"]
