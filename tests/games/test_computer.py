"""The computer player's scheduling: a missed move is found by the sweep and made once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import computer, services
from games.models import Match
from tests.games.helpers import fresh

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_computer_move_that_was_never_made_is_found_and_made_once(alice, settings):
    settings.COMPUTER_MODE = "thread"  # no server loop here: the timer is lost, as after a crash
    match = services.match_create(creator=alice, variant="cribbage", players=2, computer_seats=[1])
    match = fresh(match)
    assert 1 in match.to_move and not match.moves.exists()
    assert computer._overdue() == []  # too recent: the timer may still fire
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    due = computer._overdue()
    assert due == [(match.pk, match.seq)]
    for match_id, seq in due:
        computer._play_now(match_id, seq)
        computer._play_now(match_id, seq)  # a second attempt at the same board does nothing
    match = fresh(match)
    assert list(match.moves.values_list("seat", "by_computer")) == [(1, True)]
    assert match.to_move == [0]


def test_the_delay_stays_within_the_setting(settings):
    settings.COMPUTER_DELAY_SECONDS = (0.5, 0.9)
    assert all(0.5 <= computer.delay_seconds() <= 0.9 for _ in range(50))
