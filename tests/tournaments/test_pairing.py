"""The pure arithmetic: ACC game points, Swiss pairing, round robins, standings, brackets."""

from __future__ import annotations

import itertools
import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.core.outcome import TournamentScoring
from games.tournaments import pairing as p
from games.tournaments import scoring as sc
from games.tournaments import tables as t

ACC = sc.Points()


@pytest.mark.parametrize(
    ("a", "b", "points_a", "points_b", "spread", "skunk"),
    [
        (121, 100, 2, 0, 21, 0),  # a plain win
        (121, 91, 2, 0, 30, 0),  # 91 is clear of the skunk line
        (121, 90, 3, 0, 31, 1),  # 90 or fewer: skunk
        (121, 61, 3, 0, 60, 1),
        (121, 60, 3, 0, 61, 2),  # double skunk counts as a skunk by default
        (80, 121, 0, 3, -41, 1),
    ],
)
def test_it_scores_games_the_acc_way(a, b, points_a, points_b, spread, skunk):
    scored = sc.score_game([a, b], ACC)
    assert (scored.points_a, scored.points_b, scored.spread_a, scored.skunk) == (
        points_a, points_b, spread, skunk,
    )  # fmt: skip


def test_every_value_is_a_setting():
    rules = sc.Points(win=1, skunk=2, double_skunk=4, loss=-1, skunk_line=95, double_skunk_line=50)
    assert sc.score_game([121, 96], rules).points_a == 1
    assert sc.score_game([121, 95], rules).points_a == 2
    assert sc.score_game([121, 50], rules).points_a == 4
    assert sc.score_game([121, 50], rules).points_b == -1


@pytest.mark.parametrize(
    ("a", "b", "reason"),
    [
        (110, 100, "must reach 121"),
        (121, 121, "both scores reach 121"),
        (121, -3, "negative"),
        (130, 90, "enter 121"),
        ("121", 90, "whole numbers"),
        (True, 90, "whole numbers"),
    ],
)
def test_impossible_scores_are_refused_with_a_reason(a, b, reason):
    with pytest.raises(sc.BadResult, match=reason):
        sc.check_scores([a, b], ACC)


def test_a_short_game_goes_to_61():
    short = sc.Points(target=61)
    assert sc.check_scores([45, 61], short) == [45, 61]
    with pytest.raises(sc.BadResult):
        sc.check_scores([121, 50], short)


def r(a, b, score_a, score_b, rules=ACC):
    s = sc.score_game([score_a, score_b], rules)
    return p.Result((a, b), s.points, s.spreads, frozenset("ab".index(w) for w in s.winners))


def test_standings_rank_by_points_then_wins_then_spread():
    results = [
        r("ann", "bea", 121, 85),  # ann skunks: 3 points, 1 win, +36
        r("cat", "dot", 121, 100),  # cat 2 points, 1 win, +21
        r("bea", "cat", 121, 119),  # bea 2 points, +2
        r("dot", "ann", 121, 120),  # dot 2, +1
    ]
    lines = p.standings(["ann", "bea", "cat", "dot"], results)
    assert [(x.entrant, x.card, x.spread) for x in lines] == [
        ("ann", "3/1", 35),
        ("cat", "2/1", 19),
        ("dot", "2/1", -20),
        ("bea", "2/1", -34),
    ]
    assert [x.position for x in lines] == [1, 2, 3, 4]


def test_the_tie_break_order_is_a_setting():
    rules = sc.Points(double_skunk=4)
    # x wins twice plainly (4 points, 2 wins, +22); y double skunks once (4 points, 1 win,
    # +71) and loses twice narrowly (+66 in all).
    results = [
        r("x", "z", 121, 110, rules), r("x", "w", 121, 110, rules),
        r("y", "z", 121, 50, rules), r("w", "y", 121, 119, rules), r("z", "y", 121, 118, rules),
    ]  # fmt: skip
    lines = p.standings(["y", "x"], results, order=["game_points", "wins", "spread"])
    assert [(x.entrant, x.card, x.spread) for x in lines] == [("x", "4/2", 22), ("y", "4/1", 66)]
    lines = p.standings(["x", "y"], results, order=["game_points", "spread", "wins"])
    assert [x.entrant for x in lines] == ["y", "x"]
    with pytest.raises(ValueError, match="tie-break"):
        p.standings(["x"], results, order=["luck"])


def test_head_to_head_separates_a_tie():
    results = [r("a", "b", 119, 121), r("a", "c", 121, 100), r("b", "d", 100, 121)]
    # a and b: 2 points, 1 win each; spread set equal by the head-to-head order alone.
    lines = p.standings(["a", "b"], results, order=["game_points", "wins", "head_to_head"])
    assert [x.entrant for x in lines] == ["b", "a"]


def test_a_bye_is_a_win_worth_its_setting():
    lines = p.standings(["a"], [p.Result.bye("a", 2, 0)])
    assert (lines[0].card, lines[0].spread, lines[0].byes) == ("2/1", 0, 1)


def test_a_late_entrant_starts_with_the_carried_score():
    carried = {"late": p.Carry(game_points=4, wins=2, spread=10, games=3)}
    lines = p.standings(["late", "early"], [r("early", "x", 121, 100)], carried=carried)
    assert (lines[0].entrant, lines[0].card, lines[0].games, lines[0].losses) == (
        "late", "4/2", 3, 1,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("entrants", "qualifiers", "size", "byes"),
    [(108, 27, 32, 5), (132, 33, 64, 31), (60, 15, 16, 1), (16, 4, 4, 0), (6, 2, 2, 0)],
)
def test_the_top_quarter_qualifies_and_the_top_seeds_take_byes(entrants, qualifiers, size, byes):
    q = p.qualifier_count(entrants)
    assert q == qualifiers
    plan = p.bracket(list(range(1, q + 1)))
    assert plan.size == size
    assert plan.byes == list(range(1, byes + 1))
    assert sum(1 for _, b in plan.first_round if b is None) == byes
    assert sorted(x for pair in plan.first_round for x in pair if x) == list(range(1, q + 1))


def test_a_set_number_of_qualifiers_overrides_the_quarter():
    assert p.qualifier_count(40, number=8) == 8
    assert p.qualifier_count(5, number=8) == 5


def test_standard_seeding_has_one_meet_the_lowest():
    plan = p.bracket([1, 2, 3, 4, 5, 6, 7, 8])
    assert plan.first_round == [(1, 8), (4, 5), (2, 7), (3, 6)]
    # 1 and 2 sit in different halves, so they can only meet in the final.
    halves = plan.first_round[:2], plan.first_round[2:]
    assert any(1 in pair for pair in halves[0]) and any(2 in pair for pair in halves[1])
    assert p.seed_order(4) == [1, 4, 2, 3]


@pytest.mark.parametrize(
    ("winners", "length", "expected"),
    [
        (["a"], 1, "a"),
        (["a", "b"], 3, None),
        (["a", "b", "b"], 3, "b"),
        (["a", "a"], 3, "a"),
        (["b", "a", "b", "a"], 5, None),
        (["b", "a", "b", "a", "a"], 5, "a"),
    ],
)
def test_a_series_goes_to_the_first_past_half(winners, length, expected):
    assert p.series_winner(winners, length) == expected


@pytest.mark.parametrize("n", [2, 5, 6, 9])
@pytest.mark.parametrize("double", [False, True])
def test_a_round_robin_meets_everyone_once_per_cycle(n, double):
    schedule = p.round_robin(list(range(n)), double=double)
    meetings = [frozenset(pair) for rnd in schedule for pair in rnd if pair[1] is not None]
    cycles = 2 if double else 1
    assert len(meetings) == cycles * n * (n - 1) // 2
    for pair in itertools.combinations(range(n), 2):
        assert meetings.count(frozenset(pair)) == cycles
    for rnd in schedule:
        seen = [x for pair in rnd for x in pair if x is not None]
        assert sorted(seen) == list(range(n))  # everyone once a round, byes included


def test_the_first_round_is_drawn_from_the_seed():
    ids = list(range(12))
    first, _ = p.swiss_round(ids, set(), set(), first=True, seed="club")
    again, _ = p.swiss_round(ids, set(), set(), first=True, seed="club")
    other, _ = p.swiss_round(ids, set(), set(), first=True, seed="other")
    assert first == again and first != other


def test_later_rounds_pair_down_the_standings():
    pairs, bye = p.swiss_round(["a", "b", "c", "d"], {frozenset("ab")}, set())
    assert (pairs, bye) == ([("a", "c"), ("b", "d")], None)


def test_the_bye_goes_to_the_lowest_ranked_without_one():
    pairs, bye = p.swiss_round(["a", "b", "c", "d", "e"], set(), {"e"})
    assert bye == "d"
    assert "e" in {x for pair in pairs for x in pair}


def test_it_says_so_when_no_round_avoids_a_repeat():
    met = {frozenset("ab"), frozenset("ac"), frozenset("ad")}
    with pytest.raises(p.NoPairing):
        p.swiss_round(["a", "b", "c", "d"], met, set())


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 30), seed=st.integers(0, 10_000), data=st.data())
def test_rounds_never_repeat_a_meeting(n, seed, data):
    """Over random events, every round pairs everyone once and nobody meets anyone twice.

    While fewer than half the field has been met, a repeat-free round always exists (each
    entrant can still meet at least half the others), so the pairing must find one.
    """
    rounds = data.draw(st.integers(1, max(1, (n - 1) // 2)))
    rng = random.Random(seed)
    ids = list(range(n))
    met: set[frozenset] = set()
    byes: set[int] = set()
    for number in range(rounds):
        ranked = rng.sample(ids, n)  # any standings order at all
        pairs, bye = p.swiss_round(ranked, met, byes, first=number == 0, seed=seed)
        seen = [x for pair in pairs for x in pair] + ([bye] if bye is not None else [])
        assert sorted(seen) == ids
        for a, b in pairs:
            assert frozenset((a, b)) not in met
            met.add(frozenset((a, b)))
        assert (bye is None) == (n % 2 == 0)
        if bye is not None:
            assert bye not in byes or len(byes) == n
            byes.add(bye)


# -- tables of more than two ----------------------------------------------------------------


def test_tables_go_down_the_standings():
    tables, byes = t.tables_round(list(range(1, 9)), 4)
    assert (tables, byes) == ([(1, 2, 3, 4), (5, 6, 7, 8)], [])


def test_a_table_fills_with_fresh_opponents_from_nearby():
    met = {frozenset((1, 2)): 2}
    tables, _ = t.tables_round(list(range(1, 9)), 4, met=met)
    assert tables[0] == (1, 3, 4, 5) and tables[1] == (2, 6, 7, 8)


def test_the_lowest_ranked_without_a_bye_sits_out():
    tables, byes = t.tables_round(list(range(1, 11)), 4, byes_had={10: 1, 9: 1})
    assert byes == [7, 8] and [len(x) for x in tables] == [4, 4]
    with pytest.raises(p.NoPairing, match="needs 4"):
        t.tables_round([1, 2, 3], 4)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=4, max_value=23), st.integers(min_value=3, max_value=4),
       st.randoms(use_true_random=False))  # fmt: skip
def test_nobody_sits_out_twice_before_everyone_has_once(n, size, rng):
    entrants = list(range(n))
    byes: dict[int, int] = {}
    for number in range(8):
        ranked = entrants[:]
        rng.shuffle(ranked)  # any standings
        tables, out = t.tables_round(ranked, size, byes_had=byes, first=number == 0, seed=n)
        seated = [e for table in tables for e in table] + out
        assert sorted(seated) == entrants and len(out) == n % size
        for e in out:
            byes[e] = byes.get(e, 0) + 1
        counts = [byes.get(e, 0) for e in entrants]
        assert max(counts) - min(counts) <= 1


RANKED = sc.Points(scoring=TournamentScoring(kind="ranked"), places=(3, 2, 1, 0))


def test_a_ranked_game_takes_the_engines_places_when_it_gives_them():
    assert sc.score_game([10, 10, 5, 0], RANKED).points == (
        Decimal("2.5"), Decimal("2.5"), 1, 0,
    )  # fmt: skip
    assert sc.score_game([10, 10, 5, 0], RANKED, places=[2, 1, 3, 4]).points == (2, 3, 1, 0)


def test_a_resigner_at_a_ranked_table_comes_last_whatever_the_score():
    scored = sc.score_game([40, 10, 5, 0], RANKED, winners=[1, 2, 3])
    assert scored.places == (4, 1, 2, 3) and scored.points == (0, 3, 2, 1)
    assert scored.winners == "bcd"  # as the match layer said, so a recount agrees


def test_a_game_may_declare_its_own_points_by_place():
    class WinnerTakesTwo:
        kind = "ranked"
        places = (2, 0)

    assert sc.default_places(4) == (3, 2, 1, 0) and sc.default_places(2) == (2, 0)
    assert sc.default_places(3, WinnerTakesTwo()) == (2, 0, 0)
    rules = sc.Points(scoring=TournamentScoring(kind="ranked"), places=(2, 0, 0))
    assert sc.score_game([30, 30, 10], rules).points == (1, 1, 0)  # two share the win
