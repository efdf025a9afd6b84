"""Settings come from the environment and refuse nonsense loudly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STRONG_KEY = "k" * 20 + "-a-real-random-secret-for-production-0123456789"


def run(code: str, **env: str) -> subprocess.CompletedProcess:
    dropped = {"DEBUG", "SECRET_KEY", "HTTPS", "STATIC_MANIFEST", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    base = {k: v for k, v in os.environ.items() if k not in dropped}
    base.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "cribsite.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def load(**env: str) -> subprocess.CompletedProcess:
    return run("import django; django.setup(); from django.conf import settings", **env)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "maybe"}, "DEBUG='maybe' is not a yes/no value"),
        ({"DEBUG": "0"}, "SECRET_KEY must be set when DEBUG is off"),
        ({"DEBUG": "0", "SECRET_KEY": "short"}, "SECRET_KEY is too weak"),
        ({"DEBUG": "1", "CSRF_TRUSTED_ORIGINS": "club.example"}, "CSRF_TRUSTED_ORIGINS holds"),
        ({"DEBUG": "1", "DATABASE_URL": "mysql://x/y"}, "DATABASE_URL must start with one of"),
        ({"DEBUG": "1", "REDIS_URL": "http://x"}, "REDIS_URL must start with one of"),
        ({"DEBUG": "1", "AXES_FAILURE_LIMIT": "lots"}, "AXES_FAILURE_LIMIT='lots' is not a whole"),
    ],
)
def test_it_fails_loudly_on_nonsense(env, message):
    result = load(**env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert message in result.stderr


def test_the_deploy_check_finds_nothing_serious():
    result = run(
        "import sys; from django.core.management import execute_from_command_line;"
        "execute_from_command_line(['manage.py', 'check', '--deploy', '--fail-level', 'WARNING'])",
        DEBUG="0",
        SECRET_KEY=STRONG_KEY,
        SECURE_HSTS_PRELOAD="1",
    )
    assert result.returncode == 0, result.stderr


def test_sqlite_waits_for_writers_instead_of_failing(settings):
    options = settings.DATABASES["default"].get("OPTIONS", {})
    if settings.DATABASES["default"]["ENGINE"] != "cribsite.sqlite":
        pytest.skip("this run uses PostgreSQL")
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] >= 5
    assert "journal_mode=WAL" in options["init_command"]


@pytest.mark.django_db
def test_sqlite_really_is_in_wal_mode(settings):
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("this run uses PostgreSQL")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
