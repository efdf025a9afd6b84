"""The board a process keeps for a match (games.presenters.load_match): handed out again only
while the database gives the very rows it was made from, so that a page, a fragment or a socket
never shows a board older than the database's; never changed by those who read it."""

from __future__ import annotations

import random
import time

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import presenters, services
from games.models import Match, Seat
from tests.games.helpers import any_move

pytestmark = pytest.mark.django_db


def _values(obj) -> dict:
    return {field.attname: getattr(obj, field.attname) for field in obj._meta.concrete_fields}


def as_read(board: Match) -> dict:
    """Everything a board holds from the database, its seats and their members with it."""
    return {
        "match": _values(board),
        "creator": _member(board.created_by),
        "seats": [_values(s) for s in board.seats.all()],
        "members": [_member(s.user) for s in board.seats.all()],
    }


def _member(user) -> tuple | None:
    """What a board holds of a member (services.MEMBER_FIELDS), the rest being left unread."""
    return user and (user.pk, user.username, user.display_name, user.is_active)


@pytest.fixture
def started(alice, bob):
    match = services.match_create_seated(creator=alice, players=[alice, bob], variant="cribbage")
    return Match.objects.get(pk=match.pk)


def test_an_unchanged_match_is_handed_out_again_after_its_one_query(started):
    first = presenters.load_match(started.pk)
    with CaptureQueriesContext(connection) as queries:
        again = presenters.load_match(started.pk)
    assert again is first
    assert len(queries) == 1  # the read still runs: only the making of the board is saved


def _a_move(match, alice, bob):
    board = services.read_match(match.pk)
    seat = min(board.to_move)
    move = any_move(board, seat, random.Random(1))
    services.match_play(match_id=match.pk, user=[alice, bob][seat], seq=board.seq, move=move)


CHANGES = {
    "a move": _a_move,
    "a page counted in": lambda m, a, b: services.seat_connected(match_id=m.pk, user=b),
    "a member's new name": lambda m, a, b: User.objects.filter(pk=b.pk).update(
        display_name="Roberta"
    ),
    "the match's row alone": lambda m, a, b: Match.objects.filter(pk=m.pk).update(rated=False),
    "a seat's row alone": lambda m, a, b: Seat.objects.filter(match=m, index=1).update(team=3),
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_any_change_in_the_database_makes_a_fresh_board(started, alice, bob, change):
    first = presenters.load_match(started.pk)
    before = as_read(first)
    change(started, alice, bob)
    again = presenters.load_match(started.pk)
    assert again is not first
    assert as_read(again) == as_read(services.read_match(started.pk))  # as it now stands
    assert as_read(again) != before
    assert presenters.load_match(started.pk) is again  # and kept in its turn


def test_the_board_a_move_wrote_is_for_the_sockets_not_for_the_pages(started):
    """A move hands its sockets the board it wrote (not made from rows read): a page reads the
    rows and makes its own."""
    with transaction.atomic():
        written = services.read_match(started.pk, lock=True)
    presenters.keep_board(written, "the move", time.monotonic())
    assert presenters.kept_board(started.pk, stamp="the move", heard=0.0) is written
    page = presenters.load_match(started.pk)
    assert page is not written and as_read(page) == as_read(written)
    assert presenters.load_match(started.pk) is page


def test_a_read_that_began_before_the_board_kept_leaves_that_board(started, bob, monkeypatch):
    """Two readers at once, a change between their reads: the one whose read began first (and
    saw the match before the change) does not push out the board of the one that began after
    it."""
    rows = services.match_rows
    later = {}

    def meanwhile(match_id):
        found = rows(match_id)
        if not later:  # the match changes, and another reader keeps the board as it now is
            later["board"] = None
            services.seat_connected(match_id=match_id, user=bob)
            later["board"] = presenters.load_match(match_id)
        return found

    presenters.forget_kept()
    monkeypatch.setattr(services, "match_rows", meanwhile)
    mine = presenters.load_match(started.pk)
    monkeypatch.setattr(services, "match_rows", rows)
    assert mine is not later["board"]
    assert [s.connections for s in mine.seats.all()] == [0, 0]  # what this read saw
    assert presenters.load_match(started.pk) is later["board"]
    assert [s.connections for s in later["board"].seats.all()] == [0, 1]


# That every game's readers (page, fragment, sockets' drawing, API) leave the board they share
# as the database has it: tests/web/test_board_read.py, which reads them all.
