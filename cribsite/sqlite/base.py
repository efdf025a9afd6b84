"""Django's SQLite backend, with a process's writers queued in Python, not by SQLite.

Every transaction begins IMMEDIATE (settings), so it takes SQLite's write lock at BEGIN, and a
writer that finds the lock taken is left to SQLite's busy handler: it sleeps and tries again,
for 1, 2, 5 ... then 100 ms at a time, and whoever tries at the right moment wins. With 250
matches playing on one process (about 80 writes a second), BEGIN waited 136-434 ms at the 95th
percentile and up to 2.7 s, while the lock itself was free most of the time. Here the threads of
a process wait for each other on a Python lock before their BEGIN, and the next one goes the
moment the lock is let go. Other processes (a backup, a command) still meet SQLite's own waiting.
A writer waits at most the database's busy timeout, then fails as SQLite would.
"""

from __future__ import annotations

import threading

from django.db.backends.sqlite3 import base
from django.db.utils import OperationalError

_locks: dict[str, threading.Lock] = {}
_locks_lock = threading.Lock()


def writers_lock(name: str) -> threading.Lock:
    """The lock this process's writers to the database file `name` queue on."""
    with _locks_lock:
        return _locks.setdefault(str(name), threading.Lock())


class DatabaseWrapper(base.DatabaseWrapper):
    _writing: threading.Lock | None = None  # held from BEGIN to COMMIT or ROLLBACK

    def _start_transaction_under_autocommit(self):
        lock = writers_lock(self.settings_dict["NAME"])
        wait = float(self.settings_dict.get("OPTIONS", {}).get("timeout", 5))
        if not lock.acquire(timeout=wait):
            raise OperationalError("database is locked")
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            lock.release()
            raise
        self._writing = lock

    def _commit(self):
        done = super()._commit()
        self._let_go()
        return done

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._let_go()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._let_go()

    def _let_go(self) -> None:
        lock, self._writing = self._writing, None
        if lock is not None:
            lock.release()
