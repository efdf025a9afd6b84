"""On SQLite a process's writers queue on a Python lock before their BEGIN (cribsite/sqlite), so
the next one goes as soon as the last commits, instead of sleeping in SQLite's busy handler; the
lock is let go at COMMIT, ROLLBACK or when the connection closes, and a writer that waits longer
than the busy timeout fails as SQLite would."""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection, connections, transaction

from accounts.models import User
from cribsite.sqlite.base import writers_lock

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lock():
    if connection.vendor != "sqlite":
        pytest.skip("this run uses PostgreSQL")
    return writers_lock(connection.settings_dict["NAME"])


def in_thread(func):
    """Run `func` in a thread of its own (its own connection), closed after."""
    outcome = {}

    def run():
        try:
            outcome["value"] = func()
        except Exception as error:  # noqa: BLE001 - handed to the test
            outcome["error"] = error
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def test_a_second_writer_waits_for_the_first_to_commit(lock):
    began, release = threading.Event(), threading.Event()

    def first():
        with transaction.atomic():
            User.objects.create(username="first")
            began.set()
            release.wait(10)

    def second():
        with transaction.atomic():
            return User.objects.create(username="second").username

    one, _ = in_thread(first)
    assert began.wait(10) and lock.locked()
    two, outcome = in_thread(second)
    two.join(0.3)
    assert two.is_alive() and "value" not in outcome  # queued behind the first, not failed
    release.set()
    one.join(10)
    two.join(10)
    assert outcome == {"value": "second"} and not lock.locked()
    assert set(User.objects.values_list("username", flat=True)) >= {"first", "second"}


def test_the_lock_is_let_go_after_a_rollback_and_a_commit(lock):
    with pytest.raises(ValueError), transaction.atomic():
        User.objects.create(username="rolled-back")
        assert lock.locked()
        raise ValueError("undo")
    assert not lock.locked() and not User.objects.filter(username="rolled-back").exists()
    with transaction.atomic():
        User.objects.create(username="kept")
        with transaction.atomic():  # a savepoint takes nothing more
            User.objects.create(username="kept-too")
    assert not lock.locked() and User.objects.filter(username__startswith="kept").count() == 2


def test_the_lock_is_let_go_when_the_connection_closes_mid_transaction(lock):
    def abandon():
        transaction.atomic().__enter__()  # never left: the thread's connection is closed
        User.objects.create(username="abandoned")
        assert lock.locked()

    thread, outcome = in_thread(abandon)
    thread.join(10)
    assert "error" not in outcome and not lock.locked()


def test_a_writer_that_waits_past_the_busy_timeout_fails_as_sqlite_would(lock):
    options = connection.settings_dict.setdefault("OPTIONS", {})
    timeout = options.get("timeout")
    assert lock.acquire(timeout=5)  # another writer of this process, holding on
    try:
        options["timeout"] = 0.2

        def write():
            with transaction.atomic():
                User.objects.create(username="too-late")

        thread, outcome = in_thread(write)
        thread.join(10)
    finally:
        options["timeout"] = timeout
        lock.release()
    assert isinstance(outcome.get("error"), OperationalError)
    assert "database is locked" in str(outcome["error"])
    assert not User.objects.filter(username="too-late").exists()
