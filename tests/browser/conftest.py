"""A real daphne process on the test database, and Debian's chromium driven by playwright."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from tests.conftest import skip_or_fail
from tests.live_server import daphne

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def live_url(django_db_setup, django_db_blocker):
    """Serve the site with daphne, as `make run` does, against the test database."""
    with daphne("live-daphne") as (port, _):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="package")
def chromium():
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        skip_or_fail(f"no chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the test extras install it
        skip_or_fail("the playwright package is not installed")
    # Playwright's sync API runs an event loop in this thread; Django's ORM, used by the
    # fixtures around a browser test, must still be allowed to run here.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        yield from _launch(sync_playwright)
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


def _launch(sync_playwright):
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"],
        )  # fmt: skip
        yield browser
        browser.close()


@pytest.fixture
def page(chromium, live_url, transactional_db):
    from tests.browser.table_check import Console

    context = chromium.new_context(base_url=live_url, viewport={"width": 1100, "height": 800})
    page = context.new_page()
    page.set_default_timeout(10_000)
    # Nothing may reach the console: no error or warning of a script (htmx's own included), no
    # uncaught exception, no failed load, no refusal of the Content-Security-Policy ("Refused
    # to ... because it violates the following Content Security Policy directive"). A form or
    # a move the site refuses is answered 4xx on purpose: the browser's line for it may pass.
    console = Console(refusals=True).watch(page)
    yield page
    context.close()
    _until_the_server_is_quiet()
    assert not console.lines, f"the console said: {console.lines[:5]}"


def _until_the_server_is_quiet(timeout: float = 10.0, quiet_for: float = 0.4) -> None:
    """On PostgreSQL, wait until the server has had no transaction open for `quiet_for` seconds
    (longer than a computer's pause between moves). The test database is emptied after each
    test by one TRUNCATE of every table, which takes their locks one by one: a computer's move
    still being written took them in another order, and PostgreSQL ended the TRUNCATE as a
    deadlock (seen once in CI)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + timeout
    quiet_since = time.monotonic()
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND xact_start IS NOT NULL"
            )
            busy = cursor.fetchone()[0]
        now = time.monotonic()
        if busy:
            quiet_since = now
        elif now - quiet_since >= quiet_for:
            return
        time.sleep(0.05)


@pytest.fixture
def screenshot():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
