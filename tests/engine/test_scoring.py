"""Show scoring: the combinations, the classic hand and crib count, the fast path and the odds."""

from __future__ import annotations

import random
import re
from collections import Counter
from itertools import combinations, product
from math import comb
from pathlib import Path
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.pieces.cards import FULL_DECK, SUITS, Card, CardError, parse_card, parse_cards
from games.engine.scoring import (
    DEALS,
    ShowScore,
    check_show,
    combination_points,
    fifteens,
    five_rank_multisets,
    flush,
    nobs,
    pairs,
    rank_group_scores,
    runs,
    score_combinations,
    score_hand,
    score_show,
    show_distribution,
)

HANDS_FILE = Path(__file__).parent / "data" / "cribbage_hands.txt"


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def points(items) -> int:
    return sum(item.points for item in items)


class Tile(NamedTuple):
    """A suitless piece, as in the tile game of the family."""

    rank: int

    @property
    def value(self) -> int:
        return min(self.rank, 10)


def tiles(text: str) -> list[Tile]:
    ranks = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}
    return [Tile(ranks.get(ch) or int(ch)) for ch in text]


# --- the hands file ---------------------------------------------------------------------------


def read_hands() -> list[tuple[int, tuple[Card, ...], Card, bool, int]]:
    hands = []
    pattern = re.compile(
        r"^(?P<hand>.+?)\|(?P<starter>\s*\S+)\s*(?P<crib>crib)?\s*=\s*(?P<total>\d+)$"
    )
    for number, line in enumerate(HANDS_FILE.read_text().splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        match = pattern.match(line)
        assert match, f"line {number} of {HANDS_FILE.name} is malformed: {line!r}"
        hand = cards(match["hand"])
        hands.append(
            (number, hand, parse_card(match["starter"]), bool(match["crib"]), int(match["total"]))
        )
    return hands


HANDS = read_hands()


def test_the_hands_file_covers_enough_hands() -> None:
    assert len(HANDS) >= 60
    assert {total for *_, total in HANDS} >= {0, 4, 5, 16, 20, 21, 24, 28, 29}
    assert any(crib for _, _, _, crib, _ in HANDS)


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "total"),
    [pytest.param(h, s, c, t, id=f"line{n}") for n, h, s, c, t in HANDS],
)
def test_known_hands_score_their_total_both_ways(hand, starter, crib, total) -> None:
    assert score_show(hand, starter, crib=crib).total == total
    assert score_hand(hand, starter, crib) == total


# --- the combinations --------------------------------------------------------------------------


def test_fifteens_counts_every_distinct_set_of_cards() -> None:
    found = fifteens(cards("5H 5C 5S JD 5D"))
    assert len(found) == 8  # four jack-and-five, four five-five-five
    assert all(item.kind == "fifteen" and item.points == 2 for item in found)
    assert len({frozenset(item.cards) for item in found}) == 8
    assert all(sum(c.value for c in item.cards) == 15 for item in found)


def test_fifteens_include_a_single_card_set_of_all_five() -> None:
    (item,) = fifteens(cards("AC 2D 3H 4S 5C"))
    assert len(item.cards) == 5


def test_pictures_count_ten_towards_fifteen() -> None:
    assert len(fifteens(cards("5C KD QH JS TC"))) == 4


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("7C 7D 2H", 2),  # a pair
        ("7C 7D 7H", 6),  # triplet, pair royal
        ("7C 7D 7H 7S", 12),  # four of a kind, double pair royal
        ("7C 7D 9H 9S", 4),  # two pairs
        ("7C 8D 9H", 0),
    ],
)
def test_pairs_score_two_for_every_two_cards_of_a_rank(hand: str, expected: int) -> None:
    assert points(pairs(cards(hand))) == expected


def test_face_cards_pair_only_by_rank() -> None:
    assert pairs(cards("QC KD JH TS")) == ()
    assert points(pairs(cards("QC QD"))) == 2


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("4C 5D 7H", 0),  # a gap: 9-10-Q is no run either
        ("9C TD JH", 3),
        ("9C TD QH", 0),
        ("4C 6D 5H", 3),  # the order does not matter
        ("3C 4D 5H 6S", 4),  # the runs of 3 inside a run of 4 do not count
        ("AC 2D 3H 4S 5C", 5),
        ("QC KD AH", 0),  # no turning the corner from king to ace
        ("KC AD 2H", 0),
        ("AC 2D 3H", 3),  # ace is low
        ("JC QD KH", 3),
        ("2C 3D 4H 8S 9C", 3),  # a pair of stretches, only one long enough
    ],
)
def test_runs_score_one_point_a_card_for_the_longest_stretch(hand: str, expected: int) -> None:
    assert points(runs(cards(hand))) == expected


@pytest.mark.parametrize(
    ("hand", "expected", "name"),
    [
        ("AC AD 2H 3S", 8, "double run"),
        ("AC 2D 3H 4S 4C", 10, "double run of four"),
        ("AC AD AH 2S 3C", 15, "triple run"),
        ("AC AD 2H 2S 3C", 16, "double-double run"),
        ("AC AD AH AS", 12, "four of a kind"),
        ("AC AD AH", 6, "triplet"),
    ],
)
def test_the_basic_formulations_for_pairs_and_runs(hand: str, expected: int, name: str) -> None:
    held = cards(hand)
    assert points(pairs(held)) + points(runs(held)) == expected, name


def test_a_double_run_lists_each_run_with_its_own_cards() -> None:
    found = runs(cards("AC AD 2H 3S"))
    assert len(found) == 2
    assert {item.cards[0] for item in found} == set(cards("AC AD"))
    assert all(item.points == 3 for item in found)


def test_flush_needs_every_card_of_one_suit_and_the_minimum_length() -> None:
    assert points(flush(cards("2H 4H 6H 8H"), 4)) == 4
    assert points(flush(cards("2H 4H 6H 8H TH"), 5)) == 5
    assert flush(cards("2H 4H 6H 8H"), 5) == ()
    assert flush(cards("2H 4H 6H 8C"), 4) == ()


def test_nobs_is_the_jack_of_the_starters_suit_in_the_hand() -> None:
    (item,) = nobs(cards("JH 2C 4D 8S"), parse_card("6H"))
    assert item.points == 1 and item.cards == (parse_card("JH"),)
    assert nobs(cards("JH 2C 4D 8S"), parse_card("6C")) == ()
    assert nobs(cards("2C 4D 6H 8S"), parse_card("JC")) == ()  # a jack starter is his heels


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("98799", 17),  # one fifteen, three of a kind, three runs of 3
        ("K69K", 4),
        ("JJ5", 6),
        ("87879", 24),
        ("9TJJ5", 14),
        ("67788", 24),
        ("T9", 0),
    ],
)
def test_the_combinations_work_on_suitless_tiles(line: str, expected: int) -> None:
    assert score_combinations(tiles(line)).total == expected


# --- the show ---------------------------------------------------------------------------------


def test_a_hand_flush_is_four_and_five_with_the_starter() -> None:
    hand = cards("2H 4H 6H 8H")
    assert score_show(hand, parse_card("TC")).total == 4
    assert score_show(hand, parse_card("TH")).total == 5


def test_a_crib_scores_only_the_five_card_flush() -> None:
    crib = cards("2H 4H 6H 8H")
    assert score_show(crib, parse_card("TC"), crib=True).total == 0
    assert score_show(crib, parse_card("TH"), crib=True).total == 5


def test_the_starter_does_not_make_a_four_card_flush_with_three_hand_cards() -> None:
    assert score_show(cards("2H 4H 6H 8C"), parse_card("TH")).total == 0


def test_the_breakdown_is_a_running_count() -> None:
    show = score_show(cards("2C 3D JS JH"), parse_card("4S"))
    assert show.breakdown() == ["fifteen 2", "fifteen 4", "a pair is 6", "run of 3 is 9", "nobs 10"]
    assert show.text() == "fifteen 2, fifteen 4, a pair is 6, run of 3 is 9, nobs 10"
    assert str(show) == show.text()


def test_the_breakdown_calls_groups_by_their_names() -> None:
    best = score_show(cards("5H 5C 5S JD"), parse_card("5D"))
    assert best.breakdown()[-2:] == ["four of a kind is 28", "nobs 29"]
    triple = score_show(cards("3H 3C 3D 4S"), parse_card("5H"))
    assert triple.breakdown()[-2:] == ["three of a kind is 12", "three runs of 3 is 21"]
    flushed = score_show(cards("3H 4H 5H 6H"), parse_card("9H"))
    assert flushed.breakdown()[-2:] == ["run of 4 is 8", "flush of 5 is 13"]


def test_a_hand_with_nothing_says_so() -> None:
    show = score_show(cards("2H 4C 6D 8S"), parse_card("TH"))
    assert show == ShowScore(0, ())
    assert show.breakdown() == []
    assert show.text() == "nothing"


def test_a_show_score_cannot_disagree_with_its_items() -> None:
    (pair,) = pairs(cards("7C 7D"))
    assert ShowScore.of([pair]) == ShowScore(2, (pair,))
    with pytest.raises(ValueError, match="does not match"):
        ShowScore(3, (pair,))


def test_show_items_add_up_to_the_total() -> None:
    show = score_show(cards("4H 4C 5D 5S"), parse_card("6H"))
    assert show.total == sum(item.points for item in show.items) == 24
    assert Counter(item.kind for item in show.items) == {"fifteen": 4, "pair": 2, "run": 4}


@pytest.mark.parametrize(
    ("hand", "starter", "message"),
    [
        ("5H 5C 5S", "5D", "not 3"),
        ("5H 5C 5S JD 2C", "5D", "not 5"),
        ("5H 5C 5H JD", "5D", "5H appears twice"),
        ("5H 5C 5S JD", "5H", "the starter 5H is also in the hand"),
    ],
)
def test_impossible_shows_are_refused(hand: str, starter: str, message: str) -> None:
    held = parse_cards(hand, distinct=False)
    with pytest.raises(CardError, match=message):
        check_show(held, parse_card(starter))
    with pytest.raises(CardError, match=message):
        score_show(held, parse_card(starter))


# --- the fast path ----------------------------------------------------------------------------


def test_there_are_6175_five_rank_multisets() -> None:
    multisets = list(five_rank_multisets())
    assert len(multisets) == len(set(multisets)) == 6175
    assert all(max(Counter(ranks).values()) <= 4 for ranks in multisets)


def test_the_rank_table_agrees_with_the_combinations_for_every_multiset() -> None:
    for ranks in five_rank_multisets():
        suits_used: Counter[int] = Counter()
        held = []
        for rank in ranks:
            held.append(Card(rank, SUITS[suits_used[rank]]))
            suits_used[rank] += 1
        assert combination_points(ranks) == score_combinations(held).total, ranks


# --- the odds of the show ---------------------------------------------------------------------


def test_the_hand_distribution_matches_the_known_figures() -> None:
    odds = show_distribution()
    assert len(odds.counts) == 30
    assert odds.deals == DEALS == 12_994_800
    assert odds.counts[0] == 1_009_008
    assert odds.counts[29] == 4
    assert [odds.counts[score] for score in (19, 25, 26, 27)] == [0, 0, 0, 0]
    assert round(float(odds.mean), 4) == 4.7692


def test_the_crib_distribution_differs_only_by_the_four_card_flushes() -> None:
    hand, crib = show_distribution(), show_distribution(crib=True)
    assert crib.deals == DEALS
    assert [crib.counts[score] for score in (19, 25, 26, 27)] == [0, 0, 0, 0]
    # a crib loses exactly the 4 points of each four-card flush whose starter is off suit
    flushed_hands = 4 * comb(13, 4)
    off_suit_starters = 39
    assert (hand.mean - crib.mean) * DEALS == 4 * flushed_hands * off_suit_starters
    assert sum(crib.counts[:4]) > sum(hand.counts[:4])


def brute_force_group(ranks: tuple[int, ...], crib: bool) -> Counter[int]:
    """Deal every set of cards with these ranks, each card in turn as the starter."""
    held = Counter(ranks)
    choices = [
        [tuple(Card(rank, suit) for suit in suits) for suits in combinations(SUITS, n)]
        for rank, n in held.items()
    ]
    found: Counter[int] = Counter()
    for pick in product(*choices):
        five = [card for group in pick for card in group]
        for i, starter in enumerate(five):
            found[score_hand(five[:i] + five[i + 1 :], starter, crib)] += 1
    return found


SAMPLED_GROUPS = [
    (5, 5, 5, 5, 11),
    (5, 11, 11, 11, 11),
    (1, 2, 3, 4, 11),
    (1, 11, 11, 12, 13),
    (2, 4, 6, 8, 10),
    (3, 3, 4, 11, 12),
    (5, 5, 10, 11, 11),
    *random.Random(15).sample(list(five_rank_multisets()), 400),
]


@pytest.mark.parametrize("crib", [False, True], ids=["hand", "crib"])
def test_the_rank_group_counts_match_dealing_every_card(crib: bool) -> None:
    for ranks in SAMPLED_GROUPS:
        assert rank_group_scores(ranks, crib=crib) == brute_force_group(ranks, crib), ranks


# --- properties -------------------------------------------------------------------------------

deals = st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=5, unique=True)


@settings(max_examples=400, deadline=None)
@given(deals, st.booleans())
def test_the_fast_path_agrees_with_the_item_by_item_count(five: list[Card], crib: bool) -> None:
    hand, starter = five[:4], five[4]
    assert score_hand(hand, starter, crib) == score_show(hand, starter, crib=crib).total


@settings(max_examples=400, deadline=None)
@given(deals, st.booleans())
def test_no_show_scores_an_impossible_total(five: list[Card], crib: bool) -> None:
    total = score_hand(five[:4], five[4], crib)
    assert 0 <= total <= 29
    assert total not in (19, 25, 26, 27)


@settings(max_examples=200, deadline=None)
@given(deals)
def test_the_crib_never_scores_more_than_the_hand(five: list[Card]) -> None:
    difference = score_hand(five[:4], five[4]) - score_hand(five[:4], five[4], crib=True)
    assert difference in (0, 4)


@settings(max_examples=200, deadline=None)
@given(deals, st.booleans())
def test_the_breakdown_counts_up_to_the_total(five: list[Card], crib: bool) -> None:
    show = score_show(five[:4], five[4], crib=crib)
    running = [int(line.rsplit(" ", 1)[1]) for line in show.breakdown()]
    assert running == sorted(set(running))
    assert (running[-1] if running else 0) == show.total


@settings(max_examples=200, deadline=None)
@given(deals, st.permutations(SUITS))
def test_renaming_the_suits_changes_no_score(five: list[Card], suits: list[str]) -> None:
    rename = dict(zip(SUITS, suits, strict=True))
    renamed = [Card(card.rank, rename[card.suit]) for card in five]
    assert score_combinations(renamed).total == score_combinations(five).total
    assert score_hand(renamed[:4], renamed[4]) == score_hand(five[:4], five[4])
