"""Tournaments for any registered game: races whose winner may pass the target, game-point
races, games ranked by final score, tables of three and four with byes, skunk lines from the
scoreboard alone, and the setup form offering each game's own options."""

from __future__ import annotations

import datetime as dt
import io
import json
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse

from games import services as match_services
from games.engine import variant_keys
from games.engine.core.scoreboard import skunk_lines
from games.models import Match
from games.tournaments import services
from games.tournaments.models import Game, Pairing, Standing, Tournament
from tests.games.helpers import play_out

from .conftest import current_games
from .fakes import registered

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fake_games():
    with registered():
        yield


def standings_of(event) -> dict:
    return {s.entrant.name: s for s in Standing.objects.filter(tournament=event)}


def enter(game, by, *scores):
    letters = "abcd"[: len(scores)]
    kwargs = {f"score_{letter}": s for letter, s in zip(letters, scores, strict=True)}
    return services.result_enter(game_id=game.pk, by=by, **kwargs)


# -- races --------------------------------------------------------------------------------


def test_a_race_whose_winner_may_pass_the_target(make_event, tess):
    event = make_event(["Ann", "Bea", "Cat", "Dot"], variant="tally_pass")
    services.round_generate(tournament_id=event.pk, by=tess)
    first, second = current_games(event)
    enter(first, tess, 130, 95)  # past the target, the loser clear of the skunk line
    enter(second, tess, 80, 127)  # a skunk: the loser on 90 or fewer
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.winner, first.points_a, first.points_b, first.spread_a) == ("a", 2, 0, 35)
    assert (second.winner, second.points_b, second.skunk, second.spread_b) == ("b", 3, 1, 47)
    with pytest.raises(services.ServiceError, match="reach 121"):
        services.result_correct(game_id=first.pk, by=tess, score_a=120, score_b=100)
    with pytest.raises(services.ServiceError, match="cannot end level"):
        services.result_correct(game_id=first.pk, by=tess, score_a=125, score_b=125)


def test_a_stopping_race_still_refuses_a_score_past_the_target(make_event, tess):
    event = make_event(["Ann", "Bea"], variant="tally_stop", options={"target": 61})
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    with pytest.raises(services.ServiceError, match="enter 61"):
        enter(game, tess, 70, 40)
    enter(game, tess, 61, 30)
    game.refresh_from_db()
    assert (game.points_a, game.skunk) == (3, 1)  # 30 or fewer in a game to 61


def test_a_game_point_race_spreads_by_game_points_with_no_skunk(make_event, tess):
    event = make_event(["Ann", "Bea"], variant="tally_points")
    assert event.target == 31
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    enter(game, tess, 4, 36)  # game points: the winner past 31, the loser far behind
    game.refresh_from_db()
    assert (game.winner, game.points_b, game.skunk, game.spread_b, game.spread_a) == (
        "b", 2, 0, 32, -32,
    )  # fmt: skip
    assert standings_of(event)["Bea"].spread == 32


# -- skunk lines: one place -----------------------------------------------------------------


@pytest.mark.parametrize("target", [121, 61])
def test_skunk_lines_come_from_the_scoreboard(make_event, tess, target):
    event = make_event(["Ann", "Bea", "Cat", "Dot"], options={"target": target})
    assert (event.skunk_line, event.double_skunk_line) == (None, None)
    own = skunk_lines(target) + (None,) * (2 - len(skunk_lines(target)))
    assert event.skunk_lines_in_force == own
    services.round_generate(tournament_id=event.pk, by=tess)
    on_line, above = current_games(event)
    enter(on_line, tess, target, own[0])
    enter(above, tess, own[0] + 1, target)
    on_line.refresh_from_db()
    above.refresh_from_db()
    assert (on_line.skunk, on_line.points_a) == (1, 3)
    assert (above.skunk, above.points_b) == (0, 2)
    assert not hasattr(services, "SKUNK_LINES")


def test_the_director_may_still_set_own_skunk_lines(make_event, tess):
    event = make_event(["Ann", "Bea"], points={"skunk_line": 95})
    assert event.skunk_lines_in_force == (95, 60)
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    enter(game, tess, 121, 94)
    game.refresh_from_db()
    assert game.skunk == 1


def test_an_online_game_keeps_the_engines_skunk(make_event, tess, alice, bob):
    event = make_event([alice, bob], variant="tally_stop", venue="online", options={"target": 40})
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    match = play_out(game.match, {0: game.pairing.a.user, 1: game.pairing.b.user})
    game.refresh_from_db()
    loser = next(s for s in match.outcome["sides"] if s["place"] == 2)
    assert game.skunk == loser["skunk"]
    assert game.status == Game.Status.CONFIRMED and max(game.score_a, game.score_b) == 40


# -- ranked games ----------------------------------------------------------------------------


def test_a_ranked_game_for_two_gives_two_for_a_win_and_one_each_for_a_tie(make_event, tess):
    event = make_event(["Ann", "Bea", "Cat", "Dot"], variant="tally_ranked")
    assert event.places == (2, 0) and event.bye_points == 1
    services.round_generate(tournament_id=event.pk, by=tess)
    won, tied = current_games(event)
    enter(won, tess, 64, 80)
    enter(tied, tess, 70, 70)
    won.refresh_from_db()
    tied.refresh_from_db()
    assert (won.winner, won.points_a, won.points_b, won.spread_a) == ("b", 0, 2, -16)
    assert (tied.winner, tied.points_a, tied.points_b, tied.spread_a) == ("ab", 1, 1, 0)
    tied.pairing.refresh_from_db()  # a qualifying tie settles the table, with no winner
    assert (tied.pairing.status, tied.pairing.winner_id) == ("done", None)
    assert tied.pairing.games.count() == 1
    lines = standings_of(event)
    tied_names = [tied.pairing.a.name, tied.pairing.b.name]
    for name in tied_names:
        assert (lines[name].game_points, lines[name].wins, lines[name].losses) == (1, 0, 0)
        assert lines[name].card == "1/0"


def test_a_table_of_four_scores_three_two_one_nothing_shared_on_ties(make_event, tess):
    names = [f"Player {n}" for n in range(1, 9)]
    event = make_event(names, variant="tally_ranked", players=4)
    assert (event.table_size, event.places, event.is_doubles) == (4, (3, 2, 1, 0), False)
    services.round_generate(tournament_id=event.pk, by=tess)
    first, second = current_games(event)
    enter(first, tess, 50, 40, 40, 10)
    enter(second, tess, 30, 30, 30, 30)
    first.refresh_from_db()
    second.refresh_from_db()
    points = [first.points_a, first.points_b, first.points_c, first.points_d]
    assert points == [3, Decimal("1.5"), Decimal("1.5"), 0]
    assert [first.spread_a, first.spread_b, first.spread_c, first.spread_d] == [20, 7, 7, -33]
    assert first.winner == "a"
    assert [second.points_a, second.points_d] == [Decimal("1.5"), Decimal("1.5")]
    lines = standings_of(event)
    assert lines[first.pairing.a.name].card == "3/1"
    assert lines[first.pairing.b.name].card == "1.5/0"
    assert lines[first.pairing.b.name].losses == 1


def test_tables_of_four_draw_by_standings_and_spread_the_byes(make_event, tess):
    names = [f"Player {n:02}" for n in range(1, 11)]  # ten: two tables and two byes a round
    event = make_event(names, variant="tally_ranked", players=4, rounds=5)
    byes: dict[int, int] = {}
    for number in range(1, 6):
        round_ = services.round_generate(tournament_id=event.pk, by=tess)
        pairings = list(round_.pairings.all())
        tables = [p for p in pairings if not p.is_bye]
        assert len(tables) == 2 and all(len(p.entrant_ids) == 4 for p in tables)
        for p in pairings:
            if p.is_bye:
                byes[p.a_id] = byes.get(p.a_id, 0) + 1
        counts = [byes.get(e.pk, 0) for e in event.entrants.all()]
        assert max(counts) - min(counts) <= 1, f"round {number}: {counts}"
        if number > 1:  # by standings: the leader at table 1, the better half there
            position = {s.entrant_id: s.position for s in Standing.objects.filter(tournament=event)}
            by_table = sorted(tables, key=lambda p: p.table)
            ranks = [sorted(position[e] for e in p.entrant_ids) for p in by_table]
            playing = sorted(r for table in ranks for r in table)
            assert ranks[0][0] == playing[0] and sum(ranks[0]) < sum(ranks[1])
        for i, game in enumerate(current_games(event)):
            enter(game, tess, 60 + i, 50, 40 - i, 20)
    assert sorted(byes.values()) == [1] * 10  # after five rounds everyone has sat out once
    event.refresh_from_db()
    assert event.stage == Tournament.Stage.FINISHED


def test_a_table_of_three(make_event, tess):
    event = make_event(["Ann", "Bea", "Cat", "Dot"], variant="tally_ranked", players=3)
    assert event.places == (2, 1, 0)
    round_ = services.round_generate(tournament_id=event.pk, by=tess)
    assert sorted(len(p.entrant_ids) for p in round_.pairings.all()) == [1, 3]
    (game,) = current_games(event)
    enter(game, tess, 10, 30, 20)
    game.refresh_from_db()
    assert [game.points_a, game.points_b, game.points_c, game.winner] == [0, 2, 1, "b"]


def test_the_director_sets_the_points_by_place(make_event, tess):
    event = make_event(["A", "B", "C", "D"], variant="tally_ranked", players=4,
                       points={"places": "5,3,1,0"})  # fmt: skip
    assert event.places == (5, 3, 1, 0)
    for bad, reason in (("3,2,1", "each of the 4"), ("1,2,3,4", "fewer"), ("x,1,1,1", "not a")):
        with pytest.raises(services.ServiceError, match=reason):
            make_event(variant="tally_ranked", players=4, points={"places": bad})


def test_forfeits_disputes_and_corrections_at_a_table_of_four(
    make_event, tess, alice, bob, charlie, dana
):
    event = make_event([alice, bob, charlie, dana], variant="tally_ranked", players=4,
                       forfeit_minutes=0)  # fmt: skip
    services.round_generate(tournament_id=event.pk, by=tess)
    (game,) = current_games(event)
    players = [e.user for _, e in game.pairing.seated if not e.user.is_superuser]
    enter(game, players[0], 40, 30, 20, 10)
    game.refresh_from_db()
    assert game.status == Game.Status.PENDING and game.score_d == 10
    enter(game, players[1], 40, 30, 10, 20)
    game.refresh_from_db()
    assert game.status == Game.Status.DISPUTED
    dispute = game.disputes.get()
    services.dispute_resolve(dispute_id=dispute.pk, by=tess, score_a=40, score_b=30, score_c=20,
                             score_d=10)  # fmt: skip
    game.refresh_from_db()
    assert (game.status, game.points_a, game.points_d) == ("confirmed", 3, 0)
    with pytest.raises(services.ServiceError, match="each of the 4 seats"):
        services.result_correct(game_id=game.pk, by=tess, score_a=1, score_b=2)
    services.result_correct(game_id=game.pk, by=tess, forfeit_by="c")
    game.refresh_from_db()
    assert game.status == Game.Status.FORFEIT and game.winner == "abd"
    assert [game.points_a, game.points_c] == [event.bye_points, 0]
    with pytest.raises(services.ServiceError, match="a, b, c or d"):
        services.result_correct(game_id=game.pk, by=tess, forfeit_by="e")


def test_tables_of_four_have_no_bracket_and_no_round_robin(make_event, tess):
    with pytest.raises(services.ServiceError, match="two sides") as error:
        make_event(variant="tally_ranked", players=4, playoff=True)
    assert error.value.field == "playoff"
    with pytest.raises(services.ServiceError, match="by standings") as error:
        make_event(variant="tally_ranked", players=4, qualifying="round_robin")
    assert error.value.field == "qualifying"
    event = make_event(["A", "B", "C", "D"], variant="tally_ranked", players=4, rounds=1)
    Tournament.objects.filter(pk=event.pk).update(playoff=True)  # set in the admin, say
    services.round_generate(tournament_id=event.pk, by=tess)
    enter(current_games(event)[0], tess, 4, 3, 2, 1)
    with pytest.raises(services.Conflict, match="two sides"):
        services.playoffs_start(tournament_id=event.pk, by=tess)


def test_a_tied_playoff_game_in_a_ranked_game_is_played_again(make_event, tess):
    event = make_event(["A", "B"], variant="tally_ranked", qualifying="none", playoff=True,
                       series_length=1)  # fmt: skip
    final = services.playoffs_start(tournament_id=event.pk, by=tess).pairings.get()
    enter(final.games.get(), tess, 50, 50)
    final.refresh_from_db()
    assert final.status == Pairing.Status.PLAYING and final.games.count() == 2
    enter(final.games.get(number=2), tess, 50, 60)
    final.refresh_from_db()
    assert final.winner_id == final.b_id


def test_a_swap_at_a_table_of_four(make_event, tess):
    names = [f"P{n}" for n in range(1, 6)]
    event = make_event(names, variant="tally_ranked", players=4)
    round_ = services.round_generate(tournament_id=event.pk, by=tess)
    table = round_.pairings.get(b__isnull=False)
    bye = round_.pairings.get(b__isnull=True)
    sitting_out, moving = bye.a_id, table.c_id
    services.pairing_swap(round_id=round_.pk, entrant_id=moving, other_entrant_id=sitting_out,
                          by=tess)  # fmt: skip
    table.refresh_from_db()
    bye.refresh_from_db()
    assert (table.c_id, bye.a_id) == (sitting_out, moving)


# -- online ---------------------------------------------------------------------------------


def test_a_table_of_four_plays_online(make_event, tess, alice, bob, charlie, dana):
    event = make_event([alice, bob, charlie, dana], variant="tally_ranked", players=4,
                       venue="online", options={"turns": 2})  # fmt: skip
    services.round_generate(tournament_id=event.pk, by=tess)
    (game,) = current_games(event)
    seated = game.pairing.seated
    members = {i: entrant.user for i, (_, entrant) in enumerate(seated)}
    assert [s.user_id for s in game.match.seats.order_by("index")] == [
        m.pk for m in members.values()
    ]
    match = play_out(game.match, members)
    game.refresh_from_db()
    by_seat = {s["seats"][0]: s["score"] for s in match.outcome["sides"]}
    assert game.scores("abcd") == [by_seat[i] for i in range(4)]
    assert sum(game.scores("abcd")) > 0 and game.status == Game.Status.CONFIRMED
    total = game.points_a + game.points_b + game.points_c + game.points_d
    assert total == 6  # 3 + 2 + 1 + 0, however it was shared


def test_a_resignation_at_a_table_of_four_puts_the_resigner_last(
    make_event, tess, alice, bob, charlie, dana
):
    event = make_event([alice, bob, charlie, dana], variant="tally_ranked", players=4,
                       venue="online")  # fmt: skip
    services.round_generate(tournament_id=event.pk, by=tess)
    (game,) = current_games(event)
    seated = dict(game.pairing.seated)
    state = game.match.snapshot
    state["scores"] = [0, 90, 40, 10]  # b leads when b resigns
    state["turn"] = 8
    Match.objects.filter(pk=game.match_id).update(snapshot=state)
    match_services.match_resign(match_id=game.match_id, user=seated["b"].user)
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED and game.winner == "acd"
    assert game.scores("abcd") == [0, 90, 40, 10]
    # Last place for the resigner, whatever the score; the others by their scores.
    assert [game.points_a, game.points_b, game.points_c, game.points_d] == [1, 0, 3, 2]
    services.standings_recompute(tournament_id=event.pk, by=tess)
    game.refresh_from_db()
    assert [game.points_a, game.points_b, game.points_c, game.winner] == [1, 0, 3, "acd"]


def test_a_resigned_race_that_may_pass_the_target(make_event, tess, alice, bob):
    event = make_event([alice, bob], variant="tally_pass", venue="online")
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    match_services.match_resign(match_id=game.match_id, user=game.pairing.a.user)
    game.refresh_from_db()
    assert (game.winner, game.score_b, game.score_a) == ("b", 121, 0)
    assert (game.points_b, game.skunk) == (3, 2)  # a resignation at 0: a double skunk


def test_a_match_called_off_leaves_the_game_for_the_director(make_event, tess, alice, bob):
    event = make_event([alice, bob], variant="tally_stop", venue="online")
    services.round_generate(tournament_id=event.pk, by=tess)
    game = current_games(event)[0]
    match_services.match_call_off(match_id=game.match_id)
    game.refresh_from_db()
    assert game.in_play and Match.objects.get(pk=game.match_id).status == "aborted"


# -- the setup form and the pages ---------------------------------------------------------


def test_the_form_offers_every_game_and_its_own_options(client, tess):
    client.force_login(tess)
    page = client.get(reverse("tournament_new")).content.decode()
    for key in variant_keys():
        assert f'data-variant="{key}"' in page and f'<option value="{key}"' in page
    assert 'name="cribbage__target"' in page and 'name="tally_ranked__turns"' in page
    assert "cribbage__games" not in page  # a match of several games: the series does that
    data = {
        "name": "Tally night", "date": "2026-04-01", "variant": "tally_ranked", "players": "4",
        "tally_ranked__turns": "7", "cribbage__target": "not even a number",
        "venue": "table", "qualifying": "swiss", "rounds": "3", "series_length": "1",
        "points_win": "2", "points_skunk": "3", "points_double_skunk": "3",
        "places": "4,2,1,0", "tiebreaks": "game_points,wins,spread,head_to_head",
        "forfeit_minutes": "10",
    }  # fmt: skip
    assert client.post(reverse("tournament_new"), data).status_code == 302
    event = Tournament.objects.get(name="Tally night")
    assert (event.variant, event.players, event.options) == ("tally_ranked", 4, {"turns": 7})
    assert event.places == (4, 2, 1, 0)
    bad = client.post(reverse("tournament_new"), {**data, "tally_ranked__turns": "99"})
    assert bad.status_code == 400


def test_the_form_refuses_a_race_for_three(client, tess):
    with pytest.raises(services.ServiceError, match="two sides"):
        services.tournament_create(director=tess, name="X", date=dt.date(2026, 1, 1),
                                   variant="cribbage", players=3)  # fmt: skip


def test_pages_and_exports_for_a_table_of_four(client, make_event, tess):
    names = [f"Player {n}" for n in range(1, 6)]
    event = make_event(names, variant="tally_ranked", players=4)
    services.round_generate(tournament_id=event.pk, by=tess)
    (game,) = current_games(event)
    enter(game, tess, 50, 40, 40, 10)
    detail = client.get(reverse("tournament", args=[event.pk])).content.decode()
    assert "50–40–40–10" in detail and "game points by place 3/2/1/0" in detail
    assert "has the bye" in detail or "(bye)" in detail
    client.force_login(tess)
    direct = client.get(reverse("tournament_direct", args=[event.pk]))
    assert direct.status_code == 200
    sheet = client.get(reverse("tournament_print", args=[event.pk])).content.decode()
    assert sheet.count('class="box"') == 4
    csv_text = client.get(reverse("tournament_export", args=[event.pk, "games"])).content.decode()
    header, first = csv_text.splitlines()[:2]
    assert "score_d" in header and "points_c" in header
    assert ",50,40,40,10," in first and ",3,1.5,1.5,0," in first
    standings = client.get(reverse("tournament_export", args=[event.pk, "standings"]))
    assert "1.5/0" in standings.content.decode()


def test_simulate_tournament_runs_any_game(tmp_path):
    out = io.StringIO()
    call_command("simulate_tournament", "--variant", "tally_ranked", "--players", "4",
                 "--entrants", "14", "--rounds", "4", "--json", stdout=out)  # fmt: skip
    report = json.loads(out.getvalue())
    assert len(report["rounds"]) == 4 and len(report["standings"]) == 14
    assert sum(line["game_points"] for line in report["standings"]) == pytest.approx(
        4 * 3 * 6 + 4 * 2 * 1.5  # three tables of four a round (6 points each), two byes
    )
    out = io.StringIO()
    call_command("simulate_tournament", "--variant", "tally_pass", "--entrants", "6",
                 "--rounds", "3", "--json", stdout=out)  # fmt: skip
    assert len(json.loads(out.getvalue())["rounds"]) == 3


def test_the_test_game_runs_a_tournament_online(make_event, tess, alice, bob, charlie, dana):
    """High Card (tests/testgame, registered by the test settings) is ranked by final total."""
    event = make_event([alice, bob, charlie, dana], variant="testgame", venue="online",
                       options={"cards": 2}, rounds=2)  # fmt: skip
    for _ in range(2):
        services.round_generate(tournament_id=event.pk, by=tess)
        for game in current_games(event):
            members = {0: game.pairing.a.user, 1: game.pairing.b.user}
            match = play_out(game.match, members)
            game.refresh_from_db()
            totals = {s["seats"][0]: s["score"] for s in match.outcome["sides"]}
            assert game.scores("ab") == [totals[0], totals[1]]
            expected = (
                (1, 1) if totals[0] == totals[1] else (2, 0) if totals[0] > totals[1] else (0, 2)
            )
            assert (game.points_a, game.points_b) == expected
    event.refresh_from_db()
    assert event.stage == Tournament.Stage.FINISHED
    assert sum(s.game_points for s in Standing.objects.filter(tournament=event)) == 8
