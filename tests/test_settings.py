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


def _database_options(**env: str) -> str:
    result = run(
        "import django; django.setup(); from django.conf import settings;"
        "print(repr(settings.DATABASES['default'].get('OPTIONS', {})))",
        DEBUG="1",
        **env,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_postgresql_statements_are_prepared_unless_a_pooler_forbids_it():
    url = "postgres://club@db.example:5432/club"
    assert _database_options(DATABASE_URL=url) == (
        "{'server_side_binding': True, 'prepare_threshold': 5}\n"
    )
    assert _database_options(DATABASE_URL=url, DB_PREPARED_STATEMENTS="0") == "{}\n"
    assert "server_side_binding" not in _database_options(DATABASE_URL="sqlite:////tmp/x.db")


@pytest.mark.django_db
def test_postgresql_plans_the_match_read_once_a_connection():
    """The match's read, sent the same way every time, is prepared by the fifth send and then
    run as prepared (its plan kept by the connection)."""
    from django.db import connection

    from accounts.models import User
    from games import presenters, services

    if connection.vendor != "postgresql":
        pytest.skip("this run uses SQLite")

    creator = User.objects.create(username="prepared")
    match = services.match_create(creator=creator, variant="cribbage", players=2)
    assert connection.features.uses_server_side_binding
    for _ in range(6):
        assert presenters.load_match(match.pk).pk == match.pk
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT generic_plans + custom_plans FROM pg_prepared_statements"
            " WHERE statement LIKE %s",
            ['%FROM "games_seat"%'],
        )
        runs = [row[0] for row in cursor.fetchall()]
    assert runs and max(runs) >= 1
