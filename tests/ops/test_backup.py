"""`manage.py backup`: a consistent copy of the SQLite database taken during live play."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games import services
from games.models import Match
from tests.games.helpers import any_move, fresh

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sqlite_only():
    if connection.vendor != "sqlite":
        pytest.skip("the online backup is SQLite's; PostgreSQL is backed up with pg_dump")


def test_a_backup_taken_during_play_holds_every_move_acknowledged_before_it(
    sqlite_only, alice, bob, tmp_path
):
    match = services.match_create(
        creator=alice, variant="cribbage", players=2, options={"target": 121}
    )
    services.match_join(match_id=match.pk, user=bob)
    members = {0: alice, 1: bob}
    acknowledged: list[tuple[float, int]] = []  # (when the answer came back, seq)
    stop = threading.Event()
    errors: list[BaseException] = []

    def player() -> None:
        try:
            current = fresh(match)
            while not stop.is_set() and current.status == Match.Status.ACTIVE:
                seat = next(s for s in current.to_move if s in members)
                move = any_move(current, seat)
                services.match_play(
                    match_id=match.pk, user=members[seat], seq=current.seq, move=move
                )
                acknowledged.append((time.monotonic(), current.seq + 1))
                current = fresh(match)
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=player)
    thread.start()
    while len(acknowledged) < 20 and thread.is_alive():
        time.sleep(0.01)
    began = time.monotonic()
    target = tmp_path / "club.sqlite3"
    call_command("backup", str(target))
    time.sleep(0.2)  # play goes on after the copy
    stop.set()
    thread.join(timeout=60)
    assert not errors, errors
    before = [seq for when, seq in acknowledged if when < began]
    assert len(before) >= 20 and len(acknowledged) > len(before), "play went on around it"

    copy = sqlite3.connect(target)
    (check,) = copy.execute("PRAGMA integrity_check").fetchone()
    seqs = [row[0] for row in copy.execute(
        "SELECT seq FROM games_move WHERE match_id = ? ORDER BY seq", (match.pk,)
    )]  # fmt: skip
    (stored_seq,) = copy.execute("SELECT seq FROM games_match WHERE id = ?", (match.pk,)).fetchone()
    copy.close()
    assert check == "ok"
    assert set(before) <= set(seqs), "a move acknowledged before the backup is missing"
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "the log has no gaps or repeats"
    assert stored_seq == seqs[-1], "the match row and its moves are from one moment"


def test_it_refuses_to_overwrite_a_file(sqlite_only, tmp_path):
    target = tmp_path / "exists.sqlite3"
    target.write_text("keep me")
    with pytest.raises(CommandError, match="already exists"):
        call_command("backup", str(target))
    assert target.read_text() == "keep me"


def test_on_postgresql_it_points_to_pg_dump():
    if connection.vendor == "sqlite":
        pytest.skip("this pass runs on SQLite")
    with pytest.raises(CommandError, match="pg_dump"):
        call_command("backup")
