"""Online tournament games: a match per pairing, and the result flowing back by itself."""

from __future__ import annotations

import pytest

from games import services as match_services
from games.models import Match
from games.tournaments import services
from games.tournaments.models import Game, Standing
from tests.games.helpers import play_out

from .conftest import current_games

pytestmark = pytest.mark.django_db


def test_a_round_creates_a_seated_match_per_pairing(make_event, tess, alice, bob, charlie, dana):
    event = make_event([alice, bob, charlie, dana], venue="online", options={"target": 61})
    services.round_generate(tournament_id=event.pk, by=tess)
    games = current_games(event)
    assert len(games) == 2
    for game in games:
        match = game.match
        assert game.source == Game.Source.ONLINE
        assert (match.variant, match.options["target"], match.status) == ("cribbage", 61, "active")
        seated = [s.user_id for s in match.seats.order_by("index")]
        assert seated == [game.pairing.a.user_id, game.pairing.b.user_id]


def test_a_finished_match_becomes_the_games_result(make_event, tess, alice, bob):
    event = make_event([alice, bob], venue="online", options={"target": 61})
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    members = {0: game.pairing.a.user, 1: game.pairing.b.user}
    match = play_out(game.match, members)
    assert match.status == Match.Status.FINISHED
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    by_seat = {tuple(s["seats"]): s["score"] for s in match.outcome["sides"]}
    assert (game.score_a, game.score_b) == (min(by_seat[(0,)], 61), min(by_seat[(1,)], 61))
    assert game.winner == ("a" if 0 in match.outcome["winners"] else "b")
    winner = game.pairing.a if game.winner == "a" else game.pairing.b
    assert Standing.objects.get(entrant=winner).wins == 1


def test_a_resignation_gives_the_game_to_the_other_side(make_event, tess, alice, bob):
    event = make_event([alice, bob], venue="online")
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    loser = game.pairing.b.user
    match_services.match_resign(match_id=game.match_id, user=loser)
    game.refresh_from_db()
    assert (game.status, game.winner, game.score_a) == ("confirmed", "a", 121)
    assert game.score_b < 121 and game.points_a == 3  # the loser had pegged little: a skunk


def test_a_playoff_series_sets_up_the_next_match(make_event, tess, alice, bob):
    event = make_event([alice, bob], venue="online", rounds=1, playoff=True, qualifiers=2)
    services.round_generate(tournament_id=event.pk, by=tess)
    first = current_games(event)[0]
    match_services.match_resign(match_id=first.match_id, user=first.pairing.b.user)
    final = services.playoffs_start(tournament_id=event.pk, by=tess).pairings.get()
    game1 = final.games.get()
    match_services.match_resign(match_id=game1.match_id, user=final.a.user)
    game2 = final.games.get(number=2)
    assert game2.match is not None and game2.match.status == Match.Status.ACTIVE
    assert game2.match_id != game1.match_id


def test_a_mixed_event_plays_guests_over_the_table(make_event, tess, alice):
    event = make_event([alice, "Guest Gail"], venue="mixed")
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    assert game.match is None and game.source == Game.Source.TABLE


def test_doubles_partners_sit_opposite(make_event, tess, alice, bob, charlie, dana):
    event = make_event(venue="online", players=4)
    services.entrant_add(tournament_id=event.pk, by=tess, user=alice, partner=bob, checked_in=True)
    services.entrant_add(
        tournament_id=event.pk, by=tess, user=charlie, partner=dana, checked_in=True
    )
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    seats = {s.index: s for s in game.match.seats.all()}
    a, b = game.pairing.a, game.pairing.b
    assert [seats[i].user_id for i in range(4)] == [
        a.user_id,
        b.user_id,
        a.partner_id,
        b.partner_id,
    ]
    assert seats[0].team == seats[2].team != seats[1].team


def test_a_swap_before_anyone_moves_reseats_the_online_matches(
    make_event, tess, alice, bob, charlie, dana
):
    event = make_event([alice, bob, charlie, dana], venue="online", options={"target": 61})
    round_ = services.round_generate(tournament_id=event.pk, by=tess)
    first, second = current_games(event)
    old = {first.match_id, second.match_id}
    mover, other = first.pairing.a, second.pairing.a
    services.pairing_swap(
        round_id=round_.pk, entrant_id=mover.pk, other_entrant_id=other.pk, by=tess
    )
    assert set(Match.objects.filter(pk__in=old).values_list("status", flat=True)) == {"aborted"}
    for game in current_games(event):
        seated = [s.user_id for s in game.match.seats.order_by("index")]
        assert seated == [game.pairing.a.user_id, game.pairing.b.user_id]
        assert game.match_id not in old and game.match.status == "active"


def test_no_swap_once_a_move_is_made_online(make_event, tess, alice, bob, charlie, dana):
    from tests.games.helpers import any_move

    event = make_event([alice, bob, charlie, dana], venue="online", options={"target": 61})
    round_ = services.round_generate(tournament_id=event.pk, by=tess)
    first, second = current_games(event)
    match = first.match
    seat_user = first.pairing.a.user
    match_services.match_play(
        match_id=match.pk, user=seat_user, seq=match.seq, move=any_move(match, 0)
    )
    with pytest.raises(services.Conflict, match="has started"):
        services.pairing_swap(
            round_id=round_.pk,
            entrant_id=first.pairing.a.pk,
            other_entrant_id=second.pairing.a.pk,
            by=tess,
        )
    assert Match.objects.get(pk=match.pk).status == "active"


def test_forfeiting_an_online_game_ends_its_match(
    make_event, tess, alice, bob, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from tests.games.helpers import any_move

    event = make_event([alice, bob], venue="online", options={"target": 61})
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    match = game.match
    match_services.match_play(
        match_id=match.pk, user=game.pairing.a.user, seq=match.seq, move=any_move(match, 0)
    )
    Game.objects.filter(pk=game.pk).update(started_at=game.started_at - timedelta(hours=1))
    with django_capture_on_commit_callbacks(execute=True):
        services.game_forfeit(game_id=game.pk, by=tess, absent="b")
    game.refresh_from_db()
    assert (game.status, game.winner) == ("forfeit", "a")
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.ending, match.outcome) == ("aborted", "aborted", None)


def test_a_tournament_matchs_board_no_longer_kept_is_freed_at_once(make_event, tess, alice, bob):
    """A tournament match's board (its game read with it points back to it) is freed as soon
    as the next board is kept, not left for Python's cyclic collector."""
    import gc
    import time
    import weakref

    from games import presenters

    event = make_event([alice, bob], venue="online")
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    board = presenters.shared_board(game.match_id, stamp="first", heard=0.0)
    assert board.tournament_game.pk == game.pk
    gone = weakref.ref(board)
    del board
    match_services.seat_connected(match_id=game.match_id, user=alice)  # another board next
    gc.collect()
    gc.disable()
    try:
        presenters.shared_board(game.match_id, stamp="next", heard=time.monotonic() + 1)
        assert gone() is None
    finally:
        gc.enable()
