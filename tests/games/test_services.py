"""The one write path: create, join, start, play, stale seq, double submit, resign, abort,
claim, finish, outsiders refused."""

from __future__ import annotations

import hashlib
import threading

import pytest
from django.db import connection

from games import services
from games.models import Match, Move
from tests.games.helpers import any_move, fresh, play_out

pytestmark = pytest.mark.django_db(transaction=True)


def two_player(alice, bob, **options) -> Match:
    match = services.match_create(
        creator=alice, variant="cribbage", players=2, options={"target": 61, **options}
    )
    services.match_join(match_id=match.pk, user=bob)
    return fresh(match)


def test_it_creates_a_waiting_match_with_a_committed_seed(alice):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    assert match.status == Match.Status.WAITING
    assert match.options == {"target": 121, "games": 1, "muggins": False}
    assert hashlib.sha256(bytes.fromhex(match.seed)).hexdigest() == match.seed_sha256
    assert [(s.index, s.user) for s in match.seats.all()] == [(0, alice), (1, None)]
    assert match.snapshot is None


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"variant": "chess"}, "variant", "there is no game called 'chess'"),
        ({"players": 5}, "players", "Cribbage is for 2, 3, 4 players"),
        ({"players": "2"}, "players", "whole number"),
        ({"options": {"target": 100}}, "options.target", "121 or 61"),
        ({"options": {"colour": "red"}}, "options.colour", "no such option"),
        ({"computer_seats": [2]}, "computer_seats", "seats run from 0 to 1"),
        ({"computer_seats": [0, 1]}, "computer_seats", "leave at least one seat"),
        ({"invite_only": True}, "invited", "needs someone invited"),
    ],
)
def test_it_refuses_bad_settings_naming_the_field(alice, kwargs, field, message):
    settings = {"creator": alice, "variant": "cribbage", "players": 2, **kwargs}
    with pytest.raises(services.ServiceError) as caught:
        services.match_create(**settings)
    assert caught.value.field == field
    assert message in caught.value.message
    assert Match.objects.count() == 0


def test_it_starts_when_the_last_seat_is_taken(alice, bob):
    match = two_player(alice, bob)
    assert match.status == Match.Status.ACTIVE
    assert match.started_at is not None
    assert match.to_move == [0, 1]  # both discard at once
    assert match.snapshot["phase"] == "discard"


def test_a_full_or_started_match_cannot_be_joined(alice, bob, charlie):
    match = two_player(alice, bob)
    with pytest.raises(services.Conflict, match="not waiting"):
        services.match_join(match_id=match.pk, user=charlie)
    waiting = services.match_create(creator=alice, variant="cribbage", players=3)
    with pytest.raises(services.Conflict, match="already have a seat"):
        services.match_join(match_id=waiting.pk, user=alice)


def test_invitations_keep_others_out(alice, bob, charlie):
    match = services.match_create(
        creator=alice, variant="cribbage", players=2, invited=[bob], invite_only=True
    )
    with pytest.raises(services.Forbidden, match="invitation only"):
        services.match_join(match_id=match.pk, user=charlie)
    services.match_join(match_id=match.pk, user=bob)
    assert fresh(match).status == Match.Status.ACTIVE


def test_it_plays_a_whole_game_and_the_log_replays_it(alice, bob):
    match = play_out(two_player(alice, bob), {0: alice, 1: bob})
    assert match.status == Match.Status.FINISHED
    assert match.ending == Match.Ending.PLAYED
    assert match.outcome["winners"] in ([0], [1])
    assert max(side["score"] for side in match.outcome["sides"]) == 61
    assert match.moves.count() == match.moves_played
    states = services.replay(match)
    assert len(states) == match.moves_played + 1


def test_a_stale_seq_is_refused(alice, bob):
    match = two_player(alice, bob)
    move = any_move(match, 0)
    with pytest.raises(services.Stale) as caught:
        services.match_play(match_id=match.pk, user=alice, seq=match.seq - 1, move=move)
    assert caught.value.seq == match.seq
    assert caught.value.status == 409


def test_the_same_move_submitted_twice_applies_once(alice, bob):
    match = two_player(alice, bob)
    move = any_move(match, 0)
    services.match_play(match_id=match.pk, user=alice, seq=match.seq, move=move)
    with pytest.raises(services.Stale):
        services.match_play(match_id=match.pk, user=alice, seq=match.seq, move=move)
    assert Move.objects.filter(match=match).count() == 1


def test_a_discard_made_while_the_other_player_discarded_still_counts(alice, bob):
    match = two_player(alice, bob)
    seen = match.seq  # both choose their crib cards on this board
    services.match_play(match_id=match.pk, user=bob, seq=seen, move=any_move(match, 1))
    services.match_play(match_id=match.pk, user=alice, seq=seen, move=any_move(match, 0))
    assert fresh(match).moves.count() == 2


def test_a_move_from_a_board_where_it_was_not_your_turn_is_stale(alice, bob):
    match = two_player(alice, bob)
    services.match_play(match_id=match.pk, user=alice, seq=match.seq, move=any_move(match, 0))
    services.match_play(match_id=match.pk, user=bob, seq=match.seq + 1, move=any_move(match, 1))
    match = fresh(match)
    first = match.to_move[0]  # the play: one seat leads
    user = alice if first == 0 else bob
    other = bob if user == alice else alice
    services.match_play(match_id=match.pk, user=user, seq=match.seq, move=any_move(match, first))
    later = fresh(match)
    # The other seat answers, but from the board before the lead it had not seen.
    with pytest.raises(services.Stale):
        services.match_play(
            match_id=match.pk, user=other, seq=match.seq, move=any_move(later, 1 - first)
        )


def test_two_threads_submitting_the_same_move_apply_it_once(alice, bob):
    match = two_player(alice, bob)
    move = any_move(match, 0)
    results: list[str] = []
    barrier = threading.Barrier(2)

    def submit():
        barrier.wait()
        try:
            services.match_play(match_id=match.pk, user=alice, seq=match.seq, move=move)
            results.append("applied")
        except services.Stale:
            results.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(results) == ["applied", "stale"]
    assert Move.objects.filter(match=match).count() == 1
    assert fresh(match).seq == match.seq + 1


def test_an_illegal_move_says_which_rule_and_changes_nothing(alice, bob):
    match = two_player(alice, bob)
    with pytest.raises(services.Illegal, match="exactly 2 cards"):
        services.match_play(
            match_id=match.pk,
            user=alice,
            seq=match.seq,
            move={"type": "discard", "cards": [match.snapshot["held"][0][0]]},
        )
    after = fresh(match)
    assert (after.seq, after.snapshot, after.moves.count()) == (match.seq, match.snapshot, 0)


def test_it_is_not_your_turn(alice, bob):
    match = two_player(alice, bob)
    services.match_play(match_id=match.pk, user=alice, seq=match.seq, move=any_move(match, 0))
    match = fresh(match)
    with pytest.raises(services.Forbidden, match="not your turn"):
        services.match_play(match_id=match.pk, user=alice, seq=match.seq, move=any_move(match, 1))


def test_outsiders_are_refused(alice, bob, charlie):
    match = two_player(alice, bob)
    for action in (services.match_resign, services.match_abort, services.match_claim):
        with pytest.raises(services.Forbidden, match="no seat"):
            action(match_id=match.pk, user=charlie)
    with pytest.raises(services.Forbidden, match="no seat"):
        services.match_play(match_id=match.pk, user=charlie, seq=match.seq, move={"type": "go"})
    with pytest.raises(services.NotFound):
        services.match_play(match_id=99999, user=alice, seq=1, move={"type": "go"})


def test_resigning_ends_the_match_with_the_others_winning(alice, bob):
    match = two_player(alice, bob)
    services.match_play(match_id=match.pk, user=alice, seq=match.seq, move=any_move(match, 0))
    services.match_resign(match_id=match.pk, user=bob)
    match = fresh(match)
    assert match.status == Match.Status.FINISHED
    assert match.ending == Match.Ending.RESIGNED
    assert match.outcome["winners"] == [0]
    assert "resigned" in match.outcome["reason"]
    with pytest.raises(services.Conflict, match="over"):
        services.match_play(match_id=match.pk, user=alice, seq=match.seq, move={"type": "go"})


def test_resigning_a_partnership_loses_for_both_partners(make_member):
    a, b, c, d = (make_member(n) for n in "abcd")
    match = services.match_create(creator=a, variant="cribbage", players=4)
    for user in (b, c, d):
        services.match_join(match_id=match.pk, user=user)
    services.match_resign(match_id=match.pk, user=c)  # seat 2, partner of seat 0
    assert fresh(match).outcome["winners"] == [1, 3]


def test_a_match_nobody_moved_in_can_be_aborted_and_only_then(alice, bob):
    match = two_player(alice, bob)
    services.match_abort(match_id=match.pk, user=bob)
    match = fresh(match)
    assert (match.status, match.ending, match.outcome) == ("aborted", "aborted", None)

    other = two_player(alice, bob)
    services.match_play(match_id=other.pk, user=alice, seq=other.seq, move=any_move(other, 0))
    with pytest.raises(services.Conflict, match="resign instead"):
        services.match_abort(match_id=other.pk, user=alice)


def test_cancel_and_leave_before_the_start(alice, bob, charlie):
    match = services.match_create(creator=alice, variant="cribbage", players=3)
    services.match_join(match_id=match.pk, user=bob)
    with pytest.raises(services.Forbidden):
        services.match_cancel(match_id=match.pk, user=bob)
    services.match_leave(match_id=match.pk, user=bob)
    assert fresh(match).seats.filter(user=bob).count() == 0
    services.match_cancel(match_id=match.pk, user=alice)
    match = fresh(match)
    assert (match.status, match.ending) == ("aborted", "cancelled")


def test_the_computer_moves_for_its_seat(alice):
    match = services.match_create(
        creator=alice, variant="cribbage", players=2, options={"target": 61}, computer_seats=[1]
    )
    match = fresh(match)
    assert match.status == Match.Status.ACTIVE
    assert match.to_move == [0, 1] or match.to_move == [0]
    match = play_out(match, {0: alice})
    assert match.status == Match.Status.FINISHED
    assert match.moves.filter(by_computer=True, seat=1).exists()
    assert not match.moves.filter(by_computer=True, seat=0).exists()


def test_the_computer_move_is_skipped_when_the_board_moved_on(alice):
    match = services.match_create(creator=alice, variant="cribbage", players=2, computer_seats=[1])
    match = fresh(match)
    assert services.match_play_computer(match_id=match.pk, seq=match.seq - 1) is None
    assert services.match_play_computer(match_id=match.pk, seq=match.seq + 5) is None


def test_an_absent_opponent_can_be_claimed_in_a_two_sided_game(alice, bob, settings):
    from datetime import timedelta

    from django.utils import timezone

    settings.MATCH_AWAY_SECONDS = 60
    match = two_player(alice, bob)
    services.seat_connected(match_id=match.pk, user=alice)
    with pytest.raises(services.Conflict, match="long enough"):
        services.match_claim(match_id=match.pk, user=alice)
    match.seats.filter(user=bob).update(away_since=timezone.now() - timedelta(seconds=61))
    services.match_claim(match_id=match.pk, user=alice)
    match = fresh(match)
    assert (match.status, match.ending, match.outcome["winners"]) == ("finished", "abandoned", [0])


def test_in_a_three_sided_game_the_computer_takes_over_the_absent_seat(make_member, settings):
    from datetime import timedelta

    from django.utils import timezone

    a, b, c = (make_member(n) for n in "abc")
    match = services.match_create(creator=a, variant="cribbage", players=3)
    services.match_join(match_id=match.pk, user=b)
    services.match_join(match_id=match.pk, user=c)
    match.seats.filter(user=c).update(away_since=timezone.now() - timedelta(seconds=500))
    services.match_claim(match_id=match.pk, user=a)
    match = fresh(match)
    seat = match.seats.get(index=2)
    assert (seat.is_computer, seat.took_over, match.status) == (True, True, "active")
    assert match.moves.filter(seat=2, by_computer=True).exists()  # it discarded at once
    with pytest.raises(services.Forbidden):
        services.match_play(match_id=match.pk, user=c, seq=match.seq, move={"type": "go"})


def test_a_member_who_comes_back_in_time_just_continues(alice, bob):
    match = two_player(alice, bob)
    services.seat_connected(match_id=match.pk, user=bob)
    services.seat_disconnected(match_id=match.pk, user=bob)
    assert fresh(match).seats.get(user=bob).away_since is not None
    services.seat_connected(match_id=match.pk, user=bob)
    seat = fresh(match).seats.get(user=bob)
    assert (seat.connections, seat.away_since) == (1, None)


@pytest.mark.parametrize("step", ["discard", "next hand"])
def test_two_seats_acting_at_once_from_one_board_both_apply(alice, bob, step):
    """Both seats act in the same step (the discard, or saying they are ready for the next
    hand) from the same board, at the same moment: neither is refused as stale."""
    match = two_player(alice, bob)
    if step == "next hand":
        match = play_until(match, lambda m: m.snapshot["phase"] == "counted")
    moves = {alice: any_move(match, match.seats.get(user=alice).index),
             bob: any_move(match, match.seats.get(user=bob).index)}  # fmt: skip
    results: list[str] = []
    barrier = threading.Barrier(2)

    def submit(user):
        barrier.wait()
        try:
            services.match_play(match_id=match.pk, user=user, seq=match.seq, move=moves[user])
            results.append("applied")
        except services.Stale:
            results.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(user,)) for user in (alice, bob)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert results == ["applied", "applied"]
    assert fresh(match).seq == match.seq + 2


def play_until(match: Match, done) -> Match:
    users = {seat.index: seat.user for seat in match.seats.all()}
    for _ in range(500):
        if done(match):
            return match
        seat = match.to_move[0]
        services.match_play(match_id=match.pk, user=users[seat], seq=match.seq,
                            move=any_move(match, seat))  # fmt: skip
        match = fresh(match)
    raise AssertionError("the step never came")
