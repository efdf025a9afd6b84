"""Exact discard values: the crib's expected show against a deal-by-deal count, the issue's
worked numbers, known best discards and whose crib it is."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from games.engine.cribbage.discard import (
    CribOdds,
    crib_owner_is_side,
    expected_crib,
    rank_discards,
)
from games.engine.pieces.cards import FULL_DECK, Card, parse_cards
from games.engine.scoring import score_hand


def brute_crib(thrown: tuple[Card, ...], unseen: list[Card]) -> float:
    """Every starter, and every set of the other crib cards from what is left, one by one."""
    total, deals = 0, 0
    for starter in unseen:
        rest = [c for c in unseen if c != starter]
        for others in combinations(rest, 4 - len(thrown)):
            total += score_hand([*thrown, *others], starter, crib=True)
            deals += 1
    return total / deals


def brute_hand(kept: list[Card], unseen: list[Card]) -> float:
    return sum(score_hand(kept, starter) for starter in unseen) / len(unseen)


def test_it_gives_the_issues_numbers_for_5h_5c_jd_6s_7s_kh():
    ranking = rank_discards(parse_cards("5H 5C JD 6S 7S KH"), own_crib=True)
    assert ranking[0].to_json() == {
        "cards": ["6S", "7S"],
        "hand": 12.43,
        "crib": 5.37,
        "total": 17.81,
    }
    assert ranking[1].to_json() == {
        "cards": ["JD", "KH"],
        "hand": 12.22,
        "crib": 4.0,
        "total": 16.22,
    }
    assert len(ranking) == 15


@pytest.mark.parametrize("hand", ["5H 5C JD 6S 7S KH", "JH 4H 8H QS 3H 9C"])
def test_two_handed_crib_values_match_the_deal_by_deal_count(hand):
    dealt = parse_cards(hand)
    unseen = [c for c in FULL_DECK if c not in dealt]
    pairs = list(combinations(dealt, 2))
    for thrown in random.Random(hand).sample(pairs, 2):
        assert expected_crib(thrown, dealt) == pytest.approx(brute_crib(thrown, unseen), abs=1e-9)


def test_sampled_crib_values_match_brute_force_on_smaller_decks():
    # The same exact method with fewer unseen cards, so brute force stays quick: one and two
    # cards thrown (three and four handed; two handed), with flushes and jacks about.
    rng = random.Random(14)
    for case in range(40):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        if case % 4 == 0:  # crowd one suit so that crib flushes happen
            deck.sort(key=lambda c: (c.suit != "H", rng.random()))
        throw = 1 + case % 2
        thrown, unseen = tuple(deck[:throw]), deck[throw : throw + 14]
        odds = CribOdds(unseen, throw)
        assert odds.expected(thrown) == pytest.approx(brute_crib(thrown, unseen), abs=1e-9)


def test_hand_values_are_the_average_over_every_starter():
    dealt = parse_cards("3H 4H 5S 5D JC QC")
    unseen = [c for c in FULL_DECK if c not in dealt]
    for d in rank_discards(dealt, own_crib=False):
        kept = [c for c in dealt if c not in d.cards]
        assert d.hand == pytest.approx(brute_hand(kept, unseen))
        assert d.total == pytest.approx(d.hand - d.crib)


@pytest.mark.parametrize(
    ("hand", "dealer", "best"),
    [
        ("5H 5C 5S JD 2C 9S", True, {"2C", "9S"}),  # keep 5 5 5 J either way
        ("5H 5C 5S JD 2C 9S", False, {"2C", "9S"}),
        ("AS 2D 3C 5H TD KS", True, {"5H", "TD"}),  # a five and a ten to one's own crib
        ("AS 2D 3C 5H TD KS", False, {"TD", "KS"}),  # never a five to the other's crib
        ("3H 4H 5S 5D JC QC", True, {"3H", "4H"}),
        ("3H 4H 5S 5D JC QC", False, {"JC", "QC"}),
    ],
)
def test_known_best_discards(hand, dealer, best):
    ranking = rank_discards(parse_cards(hand), own_crib=dealer)
    assert {str(c) for c in ranking[0].cards} == best
    totals = [d.total for d in ranking]
    assert totals == sorted(totals, reverse=True)


def test_partners_share_the_crib_and_three_handed_it_is_the_dealers():
    assert crib_owner_is_side(dealer=2, seat=0, players=4)
    assert crib_owner_is_side(dealer=0, seat=2, players=4)
    assert not crib_owner_is_side(dealer=1, seat=0, players=4)
    assert not crib_owner_is_side(dealer=3, seat=2, players=4)
    assert crib_owner_is_side(dealer=1, seat=1, players=3)
    assert not crib_owner_is_side(dealer=1, seat=0, players=3)
    assert not crib_owner_is_side(dealer=1, seat=2, players=3)


def test_bad_hands_are_refused():
    with pytest.raises(ValueError, match="6 cards"):
        rank_discards(parse_cards("5H 5C JD 6S 7S"), own_crib=True)
    with pytest.raises(ValueError, match="twice"):
        rank_discards(parse_cards("5H 5C JD 6S 7S 5H", distinct=False), own_crib=True)
    with pytest.raises(ValueError, match="players"):
        rank_discards(parse_cards("5H 5C JD 6S 7S"), own_crib=True, players=5)
