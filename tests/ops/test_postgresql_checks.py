"""On PostgreSQL a kept connection is health-checked (`SELECT 1`) before a request or socket hop
only when it has been idle a while (cribsite/postgresql): one used a moment ago is taken as
alive, and a connection the database dropped still heals, quiet or busy."""

from __future__ import annotations

import time

import pytest
from django.db import OperationalError, close_old_connections, connection, connections

from cribsite.postgresql.base import ALIVE_SECONDS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("this run uses SQLite (its health check sends nothing)")
    yield
    connection.close()  # none of these tests leaves a broken connection to the next


@pytest.fixture
def checks(monkeypatch):
    """The health checks the connection makes from here on."""
    made = []
    really = connection.is_usable

    def is_usable():
        made.append(time.monotonic())
        return really()

    monkeypatch.setattr(connection, "is_usable", is_usable)
    return made


def _query() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _idle(seconds: float) -> None:
    """As if the connection had last been used `seconds` ago."""
    connection.used_at = time.monotonic() - seconds


def test_the_engine_is_the_projects_own():
    assert connection.settings_dict["ENGINE"] == "cribsite.postgresql"
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True


def test_a_connection_used_a_moment_ago_is_not_checked_again(checks):
    pid = _query()
    for _ in range(5):  # five requests, one after the other
        close_old_connections()
        assert _query() == pid
        close_old_connections()
    assert checks == []


def test_a_connection_idle_longer_is_checked_once_a_request(checks):
    pid = _query()
    close_old_connections()
    _idle(ALIVE_SECONDS + 0.5)
    assert _query() == pid
    assert _query() == pid  # later queries of the same request: no check
    assert len(checks) == 1


def test_a_connection_dropped_while_idle_heals_without_an_error(checks):
    dropped = _query()
    _terminate(dropped)
    close_old_connections()
    _idle(ALIVE_SECONDS + 0.5)
    assert _query() != dropped  # checked, found dead, replaced
    assert len(checks) == 1


def test_a_connection_dropped_while_busy_fails_one_request_and_heals_at_the_next(checks):
    dropped = _query()
    _terminate(dropped)
    close_old_connections()
    _idle(0)  # however long the database took to drop it, the connection was in use just now
    with pytest.raises(OperationalError):
        _query()  # used a moment ago, so not checked: the query itself finds it gone
    close_old_connections()  # the next request's start: the error is seen, the connection closed
    assert _query() != dropped


def test_a_connection_that_had_an_error_is_checked_whatever_its_age(checks):
    _query()
    connection.errors_occurred = True
    close_old_connections()  # Django's own check, for a connection that had an error
    _query()
    assert len(checks) == 1
    assert not connection.errors_occurred


def _terminate(pid: int) -> None:
    """Have the database drop the connection `pid`, as a restart would."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            with other.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
                if cursor.fetchone()[0] == 0:
                    return
            time.sleep(0.01)
        raise AssertionError(f"the database kept connection {pid}")
    finally:
        other.close()
