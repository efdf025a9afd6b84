"""A real daphne process serving the test database, as production runs it: for the browser
tests and for the tests that restart or kill servers."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from cribsite.test_settings import TEST_ENV

ROOT = Path(__file__).resolve().parents[1]


def database_url(settings_dict: dict) -> str:
    """The DATABASE_URL of the test database, for a server in another process."""
    if settings_dict["ENGINE"] == "cribsite.sqlite":
        return f"sqlite:///{Path(settings_dict['NAME']).resolve()}"
    user = settings_dict.get("USER") or ""
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def log_path(name: str) -> Path:
    """Where daphne(name) writes its output."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # each test process its own logs
    return ROOT / "var" / (f"{name}-{worker}.log" if worker else f"{name}.log")


@contextmanager
def daphne(
    name: str, extra_env: dict[str, str] | None = None
) -> Iterator[tuple[int, subprocess.Popen]]:
    """Serve the site on a free port until the block ends (then SIGTERM, SIGKILL after 10 s).
    The computer player runs on the server's loop with short pauses; REDIS_URL is passed on
    only when `extra_env` gives it. Its output goes to var/<name>.log (var/<name>-gw0.log
    and so on when the suite runs in several processes)."""
    from django.db import connection

    port = free_port()
    env = {
        **os.environ,
        **TEST_ENV,
        "DEBUG": "0",
        "DATABASE_URL": database_url(connection.settings_dict),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "PYTHONUNBUFFERED": "1",
        "COMPUTER_MODE": "thread",
        "COMPUTER_DELAY_MS": "100",
        "COMPUTER_DELAY_MAX_MS": "250",
        **(extra_env or {}),
    }
    if "REDIS_URL" not in (extra_env or {}):
        env.pop("REDIS_URL", None)
    log = open(log_path(name), "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "cribsite.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                pytest.fail(f"daphne exited early; see {log.name}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("daphne did not start listening within 30 s")
                time.sleep(0.1)
        yield port, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()
