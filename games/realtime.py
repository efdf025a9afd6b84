"""Hand work to the server's event loop from the threads that run Django's sync code.

Views and consumers run in worker threads. Waiting in such a thread for the event loop (which
`async_to_sync` does) stalls the thread, and deadlocks while the server shuts down. So once the
server's loop is known, messages to the channel layer are handed to it and not waited for.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)
_server_loop: asyncio.AbstractEventLoop | None = None


def remember_server_loop() -> None:
    """Called on the server's loop (by the ASGI application) for every connection."""
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def run_soon(func: Callable[..., Awaitable[Any]], *args: Any) -> None:
    """Run `func(*args)` on the server's loop without waiting; outside a server, run it here."""
    loop = _server_loop
    if loop is not None and (loop.is_closed() or not loop.is_running()):
        return  # the server is shutting down: there is no one left to tell
    if loop is not None:
        try:
            current = asyncio.get_running_loop()
        except RuntimeError:
            current = None
        if current is loop:
            loop.create_task(func(*args)).add_done_callback(_report_failure)
        else:
            asyncio.run_coroutine_threadsafe(func(*args), loop).add_done_callback(_report_failure)
        return
    async_to_sync(_within_deadline)(func, *args)


# Outside a server (a management command, a test) the message is waited for here, but not for
# ever: a channel layer that does not answer is logged and left, like a send that failed.
DEADLINE_SECONDS = 10.0


async def _within_deadline(func: Callable[..., Awaitable[Any]], *args: Any) -> None:
    try:
        await asyncio.wait_for(func(*args), DEADLINE_SECONDS)
    except TimeoutError:
        logger.error("a channel-layer message was not sent within %.0f s", DEADLINE_SECONDS)


def _report_failure(future) -> None:
    """Nobody waits for these: a message that could not be sent is logged, not lost unseen."""
    if not future.cancelled() and future.exception() is not None:
        logger.error("a channel-layer message was not sent", exc_info=future.exception())


_process = secrets.token_hex(4)  # this process, among all that share the channel layer
_stamps = itertools.count()


# Given a board and the stamp of the message about it, keeps it for this process's sockets
# (set by games.presenters, which reads boards for them).
board_keeper: Callable[[Any, str, float], None] | None = None
# Given a board, the values its message carries to other processes (set by games.presenters:
# games.carried.pack).
board_packer: Callable[[Any], dict[str, Any]] | None = None


def group_send(group: str, message: dict[str, Any], *, board: tuple[Any, float] | None = None):
    """Tell a group, stamping the message with an id unique to it (this process's and a count), by
    which the sockets of one process that hear it share one read of the board. `board` (the
    match just written and when it was read, by time.monotonic()) is handed to the board keeper
    first, so that the sockets of this process need not read it at all; on a layer whose
    messages reach other processes (`carries_boards`) the message carries it too, so that
    theirs need not either (games.carried)."""
    layer = get_channel_layer()
    if layer is not None:
        message = {**message, "stamp": f"{_process}-{next(_stamps)}"}
        if board is not None and board_keeper is not None:
            board_keeper(board[0], message["stamp"], board[1])
        carries = board_packer is not None and getattr(layer, "carries_boards", False)
        if board is not None and carries:
            message["board"] = board_packer(board[0])
        run_soon(_send_in_turn, layer, group, message)


# At most this many group messages of a process are on their way at once; the others wait their
# turn here, in order. (channels-redis' list layer took a connection of redis-py's pool for each,
# and the pool refuses past its size; its pub/sub layer, the site's, publishes one at a time.)
SENDS_AT_ONCE = 32
_turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


async def _send_in_turn(layer, group: str, message: dict[str, Any]) -> None:
    loop = asyncio.get_running_loop()
    turn = _turns.get(loop)
    if turn is None:
        turn = _turns[loop] = asyncio.Semaphore(SENDS_AT_ONCE)
    async with turn:
        await layer.group_send(group, message)
