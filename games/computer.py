"""When the computer moves: after a short, natural delay, off the request threads.

`on_match_changed` listens to `games.signals.match_changed` (connected in the app's ready())
and schedules a move when a computer seat is to move. In the
default "thread" mode the move is armed as a timer on the server's event loop and made in a
worker thread, so no request ever waits for it. A sweeper on the same loop looks every few
seconds for matches where the computer should have moved (after a restart, or when the process
that armed the timer died) and moves there too, so no match waits forever. Making the same move
twice is impossible: each attempt names the board's seq, and only one can match it.

"inline" mode (the test suite) makes the computer's moves at once, right after the commit.
"""

from __future__ import annotations

import asyncio
import logging
import random
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from games import realtime, services
from games.models import Match

log = logging.getLogger(__name__)
_sweeping: set[int] = set()  # ids of the event loops that run a sweeper


def on_match_changed(*, match_id: int, seq: int, computer_to_move: bool, **_: object) -> None:
    """After a match changed (the commit is done): let the computer move if it is to move."""
    if computer_to_move:
        schedule(match_id, seq)


def schedule(match_id: int, seq: int) -> None:
    """Arrange for the computer to move in `match_id` at `seq` (called after the commit)."""
    if settings.COMPUTER_MODE == "inline":
        _play_now(match_id, seq)
    else:
        _arm(match_id, seq)


def ensure_sweeper() -> None:
    """Start the sweeper on the running event loop (once per loop). Called by the ASGI app."""
    if settings.COMPUTER_MODE != "thread":
        return
    loop = asyncio.get_running_loop()
    if id(loop) not in _sweeping:
        _sweeping.add(id(loop))
        loop.create_task(_sweep_forever())


def delay_seconds() -> float:
    low, high = settings.COMPUTER_DELAY_SECONDS
    return random.uniform(low, high)  # noqa: S311 - a pause, not a shuffle


def _play_now(match_id: int, seq: int) -> None:
    services.match_play_computer(match_id=match_id, seq=seq)


def _arm(match_id: int, seq: int) -> None:
    try:
        realtime.run_soon(_arm_on_loop, match_id, seq)
    except RuntimeError:  # no server loop here (a shell, a command): the sweeper catches up
        log.debug("no event loop to arm the computer for match %s", match_id)


async def _arm_on_loop(match_id: int, seq: int) -> None:
    loop = asyncio.get_running_loop()
    ensure_sweeper()
    loop.call_later(delay_seconds(), lambda: loop.create_task(_play_later(match_id, seq)))


async def _play_later(match_id: int, seq: int) -> None:
    try:
        await sync_to_async(_play_in_worker, thread_sensitive=False)(match_id, seq)
    except Exception:
        log.exception("the computer could not move in match %s at %s", match_id, seq)


def _play_in_worker(match_id: int, seq: int) -> None:
    close_old_connections()
    try:
        _play_now(match_id, seq)
    finally:
        close_old_connections()


async def _sweep_forever() -> None:
    while True:
        await asyncio.sleep(settings.COMPUTER_SWEEP_SECONDS)
        try:
            due = await sync_to_async(_overdue, thread_sensitive=False)()
        except Exception:
            log.exception("the computer sweep failed")
            continue
        for match_id, seq in due:
            await _play_later(match_id, seq)


def _overdue() -> list[tuple[int, int]]:
    """Matches in play where a computer seat is to move and nothing has happened for a while."""
    close_old_connections()
    try:
        quiet = timezone.now() - timedelta(seconds=settings.COMPUTER_DELAY_SECONDS[1] * 2)
        rows = (
            Match.objects.filter(
                status=Match.Status.ACTIVE, seats__is_computer=True, updated_at__lt=quiet
            )
            .distinct()
            .prefetch_related("seats")
        )
        return [
            (m.pk, m.seq)
            for m in rows
            if any(s.is_computer and s.index in m.to_move for s in m.seats.all())
        ]
    finally:
        close_old_connections()
