"""Django's PostgreSQL backend, with the health check left out for a connection in use a moment
ago.

With CONN_HEALTH_CHECKS, Django sends `SELECT 1` before the first query of every request and of
every socket's hop to a database thread (close_old_connections, run at both ends of each, marks
the connection unchecked). Under load each thread's kept connection is used many times a second,
and a move's POST paid a round trip to the database, and its share of the interpreter lock, to
learn what the query a few milliseconds before had just shown. Here a connection used within the
last ALIVE_SECONDS is taken as alive without asking, as connection pools do (HikariCP skips its
check for a connection used in the last 500 ms); one idle longer is checked as before, so a
database restarted while the site was quiet still heals without an error.

Should a connection die inside that second, its next query fails (one request or hop, not a
half-written one: it fails before writing), Django marks the connection as having had an error,
and checks it, or closes it, at the start of the next (close_if_unusable_or_obsolete: a
connection that had an error never gets here unchecked).
"""

from __future__ import annotations

import time

from django.db.backends.postgresql import base

ALIVE_SECONDS = 1.0


class DatabaseWrapper(base.DatabaseWrapper):
    used_at = float("-inf")  # time.monotonic() when a cursor was last made on this connection

    def close_if_health_check_failed(self):
        if self.connection is not None and time.monotonic() - self.used_at < ALIVE_SECONDS:
            self.health_check_done = True
        super().close_if_health_check_failed()

    def _cursor(self, name=None):
        cursor = super()._cursor(name)
        self.used_at = time.monotonic()
        return cursor
