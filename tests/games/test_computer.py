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


def test_a_member_who_moves_while_the_computer_thinks_wins_and_the_computer_tries_again(
    alice, settings, monkeypatch
):
    settings.COMPUTER_MODE = "thread"  # nothing plays by itself: this test drives the computer
    match = fresh(services.match_create(creator=alice, variant="cribbage", players=2,
                                        computer_seats=[1]))  # fmt: skip
    board = match.seq
    thinking = services.computer_move

    def slow_thought(engine, state, seat, level):
        # While the computer thinks, the row is free: Alice discards, moving the board on.
        hand = services.engine_view(fresh(match), 0)["hand"]
        services.match_play(
            match_id=match.pk, user=alice, seq=board, move={"type": "discard", "cards": hand[:2]}
        )
        return thinking(engine, state, seat, level)

    monkeypatch.setattr(services, "computer_move", slow_thought)
    assert services.match_play_computer(match_id=match.pk, seq=board) is None
    match = fresh(match)
    assert list(match.moves.values_list("seat", "by_computer")) == [(0, False)]
    monkeypatch.setattr(services, "computer_move", thinking)
    services.match_play_computer(
        match_id=match.pk, seq=match.seq
    )  # its next turn, on the new board
    assert list(fresh(match).moves.values_list("seat", "by_computer")) == [(0, False), (1, True)]
