"""Threads kept for Django's synchronous work under the server's event loop, each with its own
database connection kept between calls (CONN_MAX_AGE): the pool that serves pages
(cribsite.asgi.PooledHandler) and the one where sockets read and write the database.

Channels runs every socket's database work (`database_sync_to_async`) in one thread per process.
With two processes on PostgreSQL and 500 matches, that thread was where a move waited longest on
its way to the other player's page (the socket there reads the board the move wrote): each read
gives up Python's interpreter lock while PostgreSQL answers and waits its turn to take it back,
and every socket of the process waited behind it. Sockets' reads now go to a few threads, each
waiting for its own answers."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import connections


class KeptThreads:
    """A pool of `threads` threads (named `name`_0, `name`_1...), kept for the life of the
    process."""

    def __init__(self, threads: int, name: str) -> None:
        self.threads = threads
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=name)
        self.served = False  # since the threads' connections were last closed

    def close_connections(self, timeout: float = 30) -> None:
        """Close the database connection each thread keeps. For the tests, which serve pages and
        sockets in their own process: a test database cannot be dropped while anyone is
        connected to it."""
        if not self.served:
            return
        self.served = False
        self.in_every_thread(connections.close_all, timeout)

    def in_every_thread(self, func, timeout: float = 30) -> list:
        """Call `func` once in each thread of the pool, and return what each call returned."""
        everyone = threading.Barrier(self.threads)

        def call():
            everyone.wait(timeout)  # every thread takes one call, none takes two
            return func()

        return [
            done.result(timeout) for done in [self.pool.submit(call) for _ in range(self.threads)]
        ]


class DatabaseThreads(KeptThreads):
    """`await socket_database(func)(*args)` does what channels' `database_sync_to_async` does
    (old connections closed before and after the call), in one of this pool's threads."""

    def __call__(self, func):
        self.served = True
        return DatabaseSyncToAsync(func, thread_sensitive=False, executor=self.pool)


socket_database = DatabaseThreads(settings.SOCKET_DB_THREADS, "socket-db")
