"""A consistent copy of the club's database, taken while the site goes on serving.

On the embedded default (SQLite) this uses SQLite's online backup in one step: in WAL mode the
copy reads one snapshot while other connections go on reading and writing, so the copy is one
consistent moment of the database (every transaction committed before it began, none
half-written). Copying in several steps would restart whenever another connection writes.
The copy is checked with `PRAGMA integrity_check` before the command says it is done.

On PostgreSQL, use `pg_dump` (see the README); this command says so instead of guessing.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connections


class Command(BaseCommand):
    help = "Write a consistent copy of the SQLite database while the site is serving."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "target",
            nargs="?",
            help="file to write (default: var/backups/club-<UTC time>.sqlite3); must not exist",
        )
        parser.add_argument("--database", default="default", help="database alias")

    def handle(self, *args, target: str | None, database: str, **options) -> None:
        connection = connections[database]
        if connection.vendor != "sqlite":
            raise CommandError(
                f"the {connection.vendor} database is backed up with its own tools: for "
                "PostgreSQL, `pg_dump --format=custom` (see the README)"
            )
        path = Path(target) if target else _default_path()
        if path.exists():
            raise CommandError(f"{path} already exists: choose a new file")
        path.parent.mkdir(parents=True, exist_ok=True)
        connection.ensure_connection()
        source = connection.connection
        copy = sqlite3.connect(path)
        try:
            source.backup(copy)
            (verdict,) = copy.execute("PRAGMA integrity_check").fetchone()
        finally:
            copy.close()
        if verdict != "ok":
            path.unlink(missing_ok=True)
            raise CommandError(f"the copy failed its integrity check: {verdict}")
        self.stdout.write(f"backed up to {path} ({path.stat().st_size:,} bytes)")


def _default_path() -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return Path(settings.VAR_DIR) / "backups" / f"club-{stamp}.sqlite3"
