"""Django for an in-process benchmark: production settings (DEBUG off) on a throw-away SQLite
database in a temporary folder, the in-memory channel layer, the computer playing inline.

    from tests.bench.django_setup import start_django
    WORK = start_django("ratings")   # before importing anything of Django's or the project's
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def start_django(name: str) -> Path:
    """Set the environment up and call django.setup(); the temporary folder it made."""
    work = Path(tempfile.mkdtemp(prefix=f"crib-bench-{name}-"))
    os.environ.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
            "HTTPS": "0",
            "STATIC_MANIFEST": "0",
            "DATABASE_URL": f"sqlite:///{work / 'bench.sqlite3'}",
            "ALLOWED_HOSTS": "testserver",
            "COMPUTER_MODE": "inline",
            "LOG_LEVEL": "WARNING",
            "DJANGO_SETTINGS_MODULE": "cribsite.settings",
        }
    )
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    return work
