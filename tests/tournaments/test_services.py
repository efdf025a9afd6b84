"""The tournament write path: entries, rounds, results, corrections, playoffs, permissions."""

from __future__ import annotations

import datetime as dt
from datetime import timedelta

import pytest

from games.tournaments import services
from games.tournaments.models import (
    Correction,
    Dispute,
    Entrant,
    Game,
    Pairing,
    Round,
    Standing,
    Tournament,
)

from .conftest import current_games, play_round

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bea", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal"]


def meetings(event):
    pairs = Pairing.objects.filter(round__tournament=event, b__isnull=False)
    return [frozenset((p.a_id, p.b_id)) for p in pairs]


def test_it_creates_an_event_with_the_acc_defaults(tess):
    event = services.tournament_create(director=tess, name="Club night", date=dt.date(2026, 1, 6))
    assert (event.points_win, event.points_skunk, event.points_double_skunk, event.points_loss) == (
        2, 3, 3, 0,
    )  # fmt: skip
    assert (event.skunk_line, event.bye_points, event.bye_spread) == (None, 2, 0)
    assert event.skunk_lines_in_force == (90, 60)  # the game's own lines (the scoreboard's)
    assert (event.rounds, event.series_length, event.players, event.target) == (9, 3, 2, 121)
    assert event.tiebreak_order == ["game_points", "wins", "spread", "head_to_head"]
    assert event.stage == Tournament.Stage.ENTRY


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": "  "}, "name"),
        ({"variant": "chess"}, "variant"),
        ({"players": 3}, "players"),
        ({"options": {"target": 100}}, "options.target"),
        ({"options": {"games": 3}}, "options.games"),
        ({"rounds": 0}, "rounds"),
        ({"series_length": 2}, "series_length"),
        ({"tiebreaks": ["wins", "luck"]}, "tiebreaks"),
        ({"qualifying": "none"}, "playoff"),
        ({"points": {"skunk_line": 40}}, "skunk_line"),
    ],
)
def test_it_refuses_a_bad_event(tess, changes, field):
    kwargs = {"name": "Night", "date": dt.date(2026, 1, 6), **changes}
    with pytest.raises(services.ServiceError) as error:
        services.tournament_create(director=tess, **kwargs)
    assert error.value.field == field and error.value.status == 400


def test_a_61_point_event_moves_the_skunk_line(tess):
    event = services.tournament_create(
        director=tess, name="Short", date=dt.date(2026, 1, 6), options={"target": 61}
    )
    # From the scoreboard: a skunk on 30 or fewer, and no double skunk line in so short a game.
    assert event.skunk_lines_in_force == (30, None)


def test_only_a_director_creates_or_runs_events(sam, alice, make_event):
    for outsider in (sam, alice):
        with pytest.raises(services.Forbidden):
            services.tournament_create(director=outsider, name="x", date=dt.date(2026, 1, 1))
    event = make_event(NAMES[:4])
    for outsider in (sam, alice):
        with pytest.raises(services.Forbidden):
            services.round_generate(tournament_id=event.pk, by=outsider)
        with pytest.raises(services.Forbidden):
            services.entrant_add(tournament_id=event.pk, by=outsider, guest_name="Zed")


def test_entries_are_checked(make_event, tess, alice):
    event = make_event([alice])
    with pytest.raises(services.Conflict, match="already entered"):
        services.entrant_add(tournament_id=event.pk, by=tess, user=alice)
    with pytest.raises(services.ServiceError, match="one of the two"):
        services.entrant_add(tournament_id=event.pk, by=tess)
    with pytest.raises(services.ServiceError, match="singles"):
        services.entrant_add(
            tournament_id=event.pk, by=tess, guest_name="X", partner_guest_name="Y"
        )
    online = make_event(venue="online")
    with pytest.raises(services.ServiceError, match="member"):
        services.entrant_add(tournament_id=online.pk, by=tess, guest_name="Walk-in")


def test_doubles_enter_teams(make_event, tess, alice, bob):
    event = make_event(players=4)
    team = services.entrant_add(tournament_id=event.pk, by=tess, user=alice, partner=bob)
    assert team.name == "Alice & Bob"
    with pytest.raises(services.ServiceError, match="partner"):
        services.entrant_add(tournament_id=event.pk, by=tess, guest_name="Solo")
    with pytest.raises(services.Conflict, match="Bob is already entered"):
        services.entrant_add(tournament_id=event.pk, by=tess, user=bob, partner_guest_name="Kim")


def test_only_checked_in_entrants_are_drawn(make_event, tess, alice):
    event = make_event(NAMES[:4], checked_in=False)
    with pytest.raises(services.Conflict, match="check in"):
        services.round_generate(tournament_id=event.pk, by=tess)
    entrants = list(event.entrants.all())
    for e in entrants[:3]:
        services.entrant_check_in(entrant_id=e.pk, by=tess)
    mine = services.entrant_add(tournament_id=event.pk, by=tess, user=alice)
    services.entrant_check_in(entrant_id=mine.pk, by=alice)  # a member checks in themselves
    round_ = services.round_generate(tournament_id=event.pk, by=tess)
    drawn = {x for p in round_.pairings.all() for x in (p.a_id, p.b_id) if x}
    assert drawn == {entrants[0].pk, entrants[1].pk, entrants[2].pk, mine.pk}
    with pytest.raises(services.Conflict, match="check-in closed"):
        services.entrant_check_in(entrant_id=entrants[3].pk, by=tess)


def test_a_club_night_never_repeats_a_meeting_and_gives_byes_to_the_lowest(make_event, tess):
    event = make_event(NAMES[:7], rounds=5)
    byes = []
    for number in range(1, 6):
        ranked = list(
            Standing.objects.filter(tournament=event).order_by("position")
            .values_list("entrant_id", flat=True)
        )  # fmt: skip
        round_ = services.round_generate(tournament_id=event.pk, by=tess)
        assert round_.number == number
        tables = [p.table for p in round_.pairings.exclude(b=None).order_by("table")]
        assert tables == [1, 2, 3]
        bye = round_.pairings.get(b=None)
        assert bye.status == Pairing.Status.DONE and bye.table is None
        if number > 1:
            lowest_without = [e for e in reversed(ranked) if e not in byes][0]
            assert bye.a_id == lowest_without
        byes.append(bye.a_id)
        play_round(event, tess, scores=[(121, 95), (88, 121), (121, 60)])
    assert len(set(meetings(event))) == len(meetings(event))
    assert len(set(byes)) == 5
    event.refresh_from_db()
    assert event.stage == Tournament.Stage.FINISHED
    with pytest.raises(services.Conflict, match="over"):
        services.round_generate(tournament_id=event.pk, by=tess)


def test_the_next_round_waits_for_every_result(make_event, tess):
    event = make_event(NAMES[:4])
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    services.result_enter(game_id=game.pk, by=tess, score_a=121, score_b=100)
    with pytest.raises(services.Conflict, match="1 pairing without a result"):
        services.round_generate(tournament_id=event.pk, by=tess)


def test_round_two_pairs_the_leaders(make_event, tess):
    event = make_event(NAMES[:4])
    services.round_generate(tournament_id=event.pk, by=tess)
    play_round(event, tess, scores=[(121, 80), (121, 119)])  # table 1 skunk, table 2 close
    top = list(Standing.objects.filter(tournament=event).order_by("position"))
    assert [s.card for s in top] == ["3/1", "2/1", "0/0", "0/0"]
    round_ = services.round_generate(tournament_id=event.pk, by=tess)
    first = round_.pairings.get(table=1)
    assert {first.a_id, first.b_id} == {top[0].entrant_id, top[1].entrant_id}


def test_a_round_robin_plays_everyone(make_event, tess):
    event = make_event(NAMES[:5], qualifying="round_robin")
    while event.stage != Tournament.Stage.FINISHED:
        services.round_generate(tournament_id=event.pk, by=tess)
        play_round(event, tess)
        event.refresh_from_db()
    assert event.round_set.count() == 5
    assert sorted(Standing.objects.filter(tournament=event).values_list("games", flat=True)) == [
        5,
        5,
        5,
        5,
        5,
    ]  # fmt: skip  (four games and a bye, which counts as a won game)
    byes = Pairing.objects.filter(round__tournament=event, b=None).values_list("a_id", flat=True)
    assert sorted(byes) == sorted(event.entrants.values_list("pk", flat=True))
    assert len(set(meetings(event))) == 10


def test_a_late_entrant_joins_with_the_score_the_director_sets(make_event, tess, bob):
    event = make_event(NAMES[:4])
    with pytest.raises(services.Conflict, match="usual way"):
        services.entrant_late_entry(tournament_id=event.pk, by=tess, user=bob)
    services.round_generate(tournament_id=event.pk, by=tess)
    play_round(event, tess)
    with pytest.raises(services.ServiceError, match="0 to 1"):
        services.entrant_late_entry(tournament_id=event.pk, by=tess, user=bob, games=2)
    with pytest.raises(services.ServiceError, match="game points are 2 to 3"):
        services.entrant_late_entry(
            tournament_id=event.pk, by=tess, user=bob, games=1, wins=1, game_points=5
        )
    late = services.entrant_late_entry(
        tournament_id=event.pk, by=tess, user=bob, games=1, wins=1, game_points=2, spread=15
    )
    line = Standing.objects.get(entrant=late)
    assert (line.card, line.spread, line.games) == ("2/1", 15, 1)
    round_ = services.round_generate(tournament_id=event.pk, by=tess)
    assert round_.pairings.filter(b=None).count() == 1  # five now: someone has the bye
    assert late.pk in {x for p in round_.pairings.all() for x in (p.a_id, p.b_id)}


def test_a_withdrawn_entrant_is_not_paired_but_their_games_stand(make_event, tess):
    event = make_event(NAMES[:4])
    services.round_generate(tournament_id=event.pk, by=tess)
    play_round(event, tess)
    winner = Pairing.objects.get(round__tournament=event, table=1).winner
    services.entrant_withdraw(entrant_id=winner.pk, by=tess)
    with pytest.raises(services.Conflict, match="already withdrawn"):
        services.entrant_withdraw(entrant_id=winner.pk, by=tess)
    round_ = services.round_generate(tournament_id=event.pk, by=tess)
    assert winner.pk not in {x for p in round_.pairings.all() for x in (p.a_id, p.b_id)}
    assert Standing.objects.get(entrant=winner).card == "2/1"


def test_a_member_may_withdraw_their_own_entry_only(make_event, alice, bob):
    event = make_event([alice, bob])
    mine, theirs = event.entrants.order_by("pk")
    with pytest.raises(services.Forbidden):
        services.entrant_withdraw(entrant_id=theirs.pk, by=alice)
    assert services.entrant_withdraw(entrant_id=mine.pk, by=alice).withdrawn


def test_the_director_swaps_a_pairing_before_it_starts(make_event, tess):
    event = make_event(NAMES[:5])
    round_ = services.round_generate(tournament_id=event.pk, by=tess)
    t1, t2 = round_.pairings.get(table=1), round_.pairings.get(table=2)
    bye = round_.pairings.get(b=None)
    services.pairing_swap(round_id=round_.pk, entrant_id=t1.b_id, other_entrant_id=t2.a_id, by=tess)
    new1, new2 = Pairing.objects.get(pk=t1.pk), Pairing.objects.get(pk=t2.pk)
    assert (new1.a_id, new1.b_id, new2.a_id, new2.b_id) == (t1.a_id, t2.a_id, t1.b_id, t2.b_id)
    # The bye can move too.
    services.pairing_swap(
        round_id=round_.pk, entrant_id=bye.a_id, other_entrant_id=t1.a_id, by=tess
    )
    assert Pairing.objects.get(pk=bye.pk).a_id == t1.a_id
    game = Game.objects.get(pairing=t2)
    services.result_enter(game_id=game.pk, by=tess, score_a=121, score_b=90)
    with pytest.raises(services.Conflict, match="started"):
        services.pairing_swap(
            round_id=round_.pk, entrant_id=new2.a_id, other_entrant_id=new1.a_id, by=tess
        )


# -- results --------------------------------------------------------------------------------


@pytest.fixture
def table_game(make_event, alice, bob, tess):
    event = make_event([alice, bob])
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    a_user = game.pairing.a.user
    b_user = game.pairing.b.user
    return game, a_user, b_user


@pytest.mark.parametrize(
    ("score_a", "score_b", "reason"),
    [
        (100, 90, "must reach 121"),
        (121, 121, "both scores reach 121"),
        (121, -1, "negative"),
        (-5, 121, "negative"),
        (140, 100, "enter 121"),
        (121, "lots", "whole numbers"),
    ],
)
def test_impossible_results_are_refused(table_game, tess, score_a, score_b, reason):
    game, _, _ = table_game
    with pytest.raises(services.ServiceError, match=reason) as error:
        services.result_enter(game_id=game.pk, by=tess, score_a=score_a, score_b=score_b)
    assert error.value.status == 400 and error.value.field == "score"
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN and not game.entries.exists()


def test_a_result_for_a_game_not_in_play_is_refused(table_game, tess):
    game, a_user, _ = table_game
    services.result_enter(game_id=game.pk, by=tess, score_a=121, score_b=100)
    for who in (tess, a_user):
        with pytest.raises(services.Conflict, match="already has a result"):
            services.result_enter(game_id=game.pk, by=who, score_a=121, score_b=99)
    with pytest.raises(services.NotFound):
        services.result_enter(game_id=999_999, by=tess, score_a=121, score_b=99)


def test_a_player_enters_and_the_opponent_confirms(table_game):
    game, a_user, b_user = table_game
    services.result_enter(game_id=game.pk, by=a_user, score_a=121, score_b=85)
    game.refresh_from_db()
    assert game.status == Game.Status.PENDING
    assert not Standing.objects.get(entrant=game.pairing.a).wins
    with pytest.raises(services.Forbidden, match="opponent has to confirm"):
        services.result_confirm(game_id=game.pk, by=a_user)
    services.result_confirm(game_id=game.pk, by=b_user)
    game.refresh_from_db()
    assert (game.status, game.winner, game.points_a, game.spread_a) == ("confirmed", "a", 3, 36)
    assert (game.entered_by, game.confirmed_by) == (a_user, b_user)
    assert Standing.objects.get(entrant=game.pairing.a).card == "3/1"


def test_the_same_result_entered_by_both_players_stands(table_game):
    game, a_user, b_user = table_game
    services.result_enter(game_id=game.pk, by=b_user, score_a=110, score_b=121)
    services.result_enter(game_id=game.pk, by=a_user, score_a=110, score_b=121)
    game.refresh_from_db()
    assert (game.status, game.winner) == ("confirmed", "b")


def test_a_conflicting_entry_goes_to_the_director(table_game, tess):
    game, a_user, b_user = table_game
    services.result_enter(game_id=game.pk, by=a_user, score_a=121, score_b=100)
    services.result_enter(game_id=game.pk, by=b_user, score_a=100, score_b=121)
    game.refresh_from_db()
    assert game.status == Game.Status.DISPUTED
    dispute = Dispute.objects.get(game=game)
    with pytest.raises(services.Conflict, match="disputed"):
        services.result_enter(game_id=game.pk, by=a_user, score_a=121, score_b=100)
    with pytest.raises(services.Forbidden):
        services.dispute_resolve(dispute_id=dispute.pk, by=a_user, score_a=121, score_b=100)
    services.dispute_resolve(
        dispute_id=dispute.pk, by=tess, score_a=121, score_b=100, note="score card"
    )
    game.refresh_from_db()
    dispute.refresh_from_db()
    assert (game.status, game.winner, dispute.resolved_by) == ("confirmed", "a", tess)
    with pytest.raises(services.Conflict, match="already settled"):
        services.dispute_resolve(dispute_id=dispute.pk, by=tess, score_a=121, score_b=100)


def test_outsiders_cannot_enter_or_confirm(table_game, charlie, sam):
    game, a_user, _ = table_game
    for outsider in (charlie, sam):
        with pytest.raises(services.Forbidden):
            services.result_enter(game_id=game.pk, by=outsider, score_a=121, score_b=100)
    services.result_enter(game_id=game.pk, by=a_user, score_a=121, score_b=100)
    with pytest.raises(services.Forbidden):
        services.result_confirm(game_id=game.pk, by=charlie)


def test_a_player_may_change_their_own_entry_until_confirmed(table_game):
    game, a_user, b_user = table_game
    services.result_enter(game_id=game.pk, by=a_user, score_a=121, score_b=100)
    services.result_enter(game_id=game.pk, by=a_user, score_a=121, score_b=101)
    services.result_confirm(game_id=game.pk, by=b_user)
    game.refresh_from_db()
    assert (game.score_a, game.score_b) == (121, 101)


def test_a_correction_is_recorded_and_recomputes(table_game, tess, alice):
    game, _, _ = table_game
    services.result_enter(game_id=game.pk, by=tess, score_a=121, score_b=100)
    with pytest.raises(services.Forbidden):
        services.result_correct(game_id=game.pk, by=alice, score_a=121, score_b=80)
    with pytest.raises(services.ServiceError, match="negative"):
        services.result_correct(game_id=game.pk, by=tess, score_a=121, score_b=-80)
    correction = services.result_correct(
        game_id=game.pk, by=tess, score_a=95, score_b=121, reason="scores were swapped"
    )
    assert correction.by == tess and correction.reason == "scores were swapped"
    assert correction.before["score_a"] == 121 and correction.before["winner"] == "a"
    assert correction.after["score_b"] == 121 and correction.after["winner"] == "b"
    assert correction.after["points_b"] == 2
    assert Standing.objects.get(entrant=game.pairing.b).card == "2/1"
    assert Standing.objects.get(entrant=game.pairing.a).card == "0/0"
    assert Correction.objects.count() == 1


def test_a_correction_needs_a_result_that_stands(table_game, tess):
    game, _, _ = table_game
    with pytest.raises(services.Conflict, match="enter it instead"):
        services.result_correct(game_id=game.pk, by=tess, score_a=121, score_b=80)


def test_a_no_show_is_forfeited_only_after_the_wait(table_game, tess, alice):
    game, _, _ = table_game
    with pytest.raises(services.Conflict, match="15 minutes"):
        services.game_forfeit(game_id=game.pk, by=tess, absent="b")
    Game.objects.filter(pk=game.pk).update(started_at=game.started_at - timedelta(minutes=16))
    with pytest.raises(services.Forbidden):
        services.game_forfeit(game_id=game.pk, by=alice, absent="b")
    services.game_forfeit(game_id=game.pk, by=tess, absent="b")
    game.refresh_from_db()
    assert (game.status, game.winner, game.points_a, game.spread_a) == ("forfeit", "a", 2, 0)


def test_changed_settings_apply_on_recompute(table_game, tess, alice):
    game, _, _ = table_game
    services.result_enter(game_id=game.pk, by=tess, score_a=121, score_b=80)
    event = game.pairing.round.tournament
    Tournament.objects.filter(pk=event.pk).update(points_skunk=4)
    with pytest.raises(services.Forbidden):
        services.standings_recompute(tournament_id=event.pk, by=alice)
    services.standings_recompute(tournament_id=event.pk, by=tess)
    assert Standing.objects.get(entrant=game.pairing.a).card == "4/1"


# -- playoffs -------------------------------------------------------------------------------


def run_qualifying(event, tess):
    while event.round_set.filter(stage=Round.Stage.QUALIFYING).count() < event.rounds:
        services.round_generate(tournament_id=event.pk, by=tess)
        play_round(event, tess, scores=[(121, 95), (70, 121), (121, 118)])
    event.refresh_from_db()


def test_the_playoff_seeds_the_top_quarter(make_event, tess):
    names = [f"Player {i}" for i in range(1, 17)]
    event = make_event(names, rounds=2, playoff=True, series_length=3)
    with pytest.raises(services.Conflict, match="qualifying rounds first"):
        services.playoffs_start(tournament_id=event.pk, by=tess)
    run_qualifying(event, tess)
    assert event.stage == Tournament.Stage.QUALIFYING  # a playoff is still to come
    with pytest.raises(services.Conflict, match="start the playoff"):
        services.round_generate(tournament_id=event.pk, by=tess)
    round_ = services.playoffs_start(tournament_id=event.pk, by=tess)
    top = list(Standing.objects.filter(tournament=event).order_by("position")[:4])
    pairs = list(round_.pairings.order_by("slot"))
    assert [(p.seed_a, p.seed_b) for p in pairs] == [(1, 4), (2, 3)]
    assert (pairs[0].a_id, pairs[0].b_id) == (top[0].entrant_id, top[3].entrant_id)
    assert all(p.series_length == 3 for p in pairs)
    with pytest.raises(services.Conflict, match="already started"):
        services.playoffs_start(tournament_id=event.pk, by=tess)


def test_a_series_needs_two_wins_and_the_winners_meet_in_the_final(make_event, tess):
    event = make_event(NAMES[:8], rounds=1, playoff=True, qualifiers=4)
    run_qualifying(event, tess)
    round_ = services.playoffs_start(tournament_id=event.pk, by=tess)
    semi1, semi2 = round_.pairings.order_by("slot")
    g1 = semi1.games.get()
    services.result_enter(game_id=g1.pk, by=tess, score_a=121, score_b=100)
    semi1.refresh_from_db()
    assert semi1.status == Pairing.Status.PLAYING and semi1.games.count() == 2
    g2 = semi1.games.get(number=2)
    services.result_enter(game_id=g2.pk, by=tess, score_a=99, score_b=121)
    g3 = semi1.games.get(number=3)
    services.result_enter(game_id=g3.pk, by=tess, score_a=121, score_b=99)
    semi1.refresh_from_db()
    assert (semi1.status, semi1.winner_id) == (Pairing.Status.DONE, semi1.a_id)
    with pytest.raises(services.Conflict, match="without a result"):
        services.round_generate(tournament_id=event.pk, by=tess)
    for number in (1, 2):
        game = semi2.games.get(number=number)
        services.result_enter(game_id=game.pk, by=tess, score_a=80, score_b=121)
    semi2.refresh_from_db()
    assert semi2.winner_id == semi2.b_id and semi2.games.count() == 2
    final_round = services.round_generate(tournament_id=event.pk, by=tess)
    final = final_round.pairings.get()
    assert (final.a_id, final.b_id) == (semi1.a_id, semi2.b_id)
    # Correcting a semi-final game that would change its winner is refused now.
    with pytest.raises(services.Conflict, match="moved on"):
        services.result_correct(game_id=g3.pk, by=tess, score_a=99, score_b=121)
    for number in (1, 2):
        game = final.games.get(number=number)
        services.result_enter(game_id=game.pk, by=tess, score_a=121, score_b=60)
    event.refresh_from_db()
    assert event.stage == Tournament.Stage.FINISHED


def test_a_correction_can_reopen_a_series(make_event, tess):
    event = make_event(NAMES[:2], rounds=1, playoff=True, qualifiers=2)
    run_qualifying(event, tess)
    final = services.playoffs_start(tournament_id=event.pk, by=tess).pairings.get()
    for number in (1, 2):
        game = final.games.get(number=number)
        services.result_enter(game_id=game.pk, by=tess, score_a=121, score_b=100)
    final.refresh_from_db()
    assert final.status == Pairing.Status.DONE
    services.result_correct(game_id=final.games.get(number=2).pk, by=tess, score_a=100, score_b=121)
    final.refresh_from_db()
    assert final.status == Pairing.Status.PLAYING and final.games.filter(number=3).exists()


def test_byes_in_the_bracket_go_to_the_top_seeds(make_event, tess):
    event = make_event([f"P{i}" for i in range(20)], rounds=1, playoff=True)
    run_qualifying(event, tess)
    round_ = services.playoffs_start(tournament_id=event.pk, by=tess)  # 5 qualify: 3 byes
    byes = list(round_.pairings.filter(b=None).order_by("seed_a"))
    assert [p.seed_a for p in byes] == [1, 2, 3]
    assert all(p.status == Pairing.Status.DONE for p in byes)
    assert round_.pairings.exclude(b=None).get().seed_b == 5


def test_an_event_with_only_a_playoff(make_event, tess):
    event = make_event(NAMES[:4], qualifying="none", playoff=True, qualifiers=4)
    with pytest.raises(services.Conflict, match="no qualifying"):
        services.round_generate(tournament_id=event.pk, by=tess)
    round_ = services.playoffs_start(tournament_id=event.pk, by=tess)
    assert round_.pairings.count() == 2
    assert Entrant.objects.filter(tournament=event, draw__isnull=False).count() == 4
