"""Test-wide settings and personas.

Alice and Bob are members; Charlie is an outsider to whatever Alice and Bob share; Dana is staff.
"""

from __future__ import annotations

import gc
import os
import sys

import pytest

PASSWORD = "correct-horse-battery-staple"  # noqa: S105


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def skip_or_fail(reason: str) -> None:
    """On a laptop a missing service or browser skips; in CI it fails the run."""
    if in_ci():
        pytest.fail(f"CI=true but {reason}")
    pytest.skip(reason)


def signed_in(user, **options):
    """A test client (`options` as Django's Client takes them) signed in as `user`."""
    from django.test import Client

    client = Client(**options)
    client.force_login(user)
    return client


def redis_url_on(database: int) -> str:
    """The Redis of this run (REDIS_URL, else the local one) with `database` in place of its own,
    so that no server's sockets hear what a test sends there; skips (in CI: fails) when Redis is
    not reachable."""
    import socket
    import urllib.parse

    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    parts = urllib.parse.urlsplit(url)
    try:
        socket.create_connection((parts.hostname, parts.port or 6379), timeout=1).close()
    except OSError:
        skip_or_fail(f"Redis is not reachable at {parts.hostname}:{parts.port or 6379}")
    return urllib.parse.urlunsplit(parts._replace(path=f"/{database}"))


@pytest.fixture
def make_member(db):
    from accounts.models import User

    def make(username: str, **fields):
        fields.setdefault("email", f"{username}@example.org")
        fields.setdefault("display_name", username.title())
        return User.objects.create_user(username=username, password=PASSWORD, **fields)

    return make


@pytest.fixture
def alice(make_member):
    return make_member("alice")


@pytest.fixture
def bob(make_member):
    return make_member("bob")


@pytest.fixture
def charlie(make_member):
    return make_member("charlie")


@pytest.fixture
def dana(make_member):
    return make_member("dana", is_staff=True, is_superuser=True)


@pytest.fixture(autouse=True)
def _site_language_between_tests():
    """Each test starts in the site's default language: a request in Spanish leaves Spanish
    active in the thread that served it (here, the test's own thread)."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _nothing_drawn_or_kept_by_an_earlier_test():
    """The boards and drawings a process keeps for its sockets, and the counts of them, are
    keyed by match id, and a later test's database gives its matches the same ids again: each
    test starts with none, so that what it counts is its own. So are the pieces of pages kept
    by member id (the site's header)."""
    from cribsite import kept
    from games import presenters

    presenters.forget_kept()
    kept.forget_kept()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's test databases, dropped with no connection of this process left open.
    A thread that read the database and then ended (the executor of an async test's event loop,
    where finished matches' statistics are counted) leaves its connection to the garbage
    collector, and PostgreSQL will not drop a database someone is still connected to (the
    warning "is being accessed by other users" at the end of a run, 2 sessions, both idle
    since such threads' last queries)."""
    yield
    gc.collect()  # closes them: each connection that nothing refers to any more


def fresh_channel_layers() -> None:
    """Forget the channel layers made so far: the next use makes new ones."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _channel_layers_of_its_own():
    """Each test gets channel layers of its own (channels keeps one layer object per process),
    so no group membership or subscription made by one test is still there for the next."""
    fresh_channel_layers()


@pytest.fixture(autouse=True)
def _close_connections_kept_by_other_threads():
    """Sockets read the database from their own threads (cribsite.threads.socket_database),
    async views and channels' log-in from asgiref's one sync thread, and pages served through
    the ASGI application from its pool's threads (cribsite.asgi.pages), each of which keeps its
    connection (CONN_MAX_AGE) from test to test: the test framework closes only the main
    thread's, and PostgreSQL will not drop a test database someone is still connected to.
    Close them after each test, as a server closes old connections between requests."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    from cribsite.threads import socket_database

    SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=30)
    socket_database.close_connections()
    asgi = sys.modules.get("cribsite.asgi")  # never imported here: importing it sets a server up
    if asgi is not None:
        asgi.pages.close_connections()
