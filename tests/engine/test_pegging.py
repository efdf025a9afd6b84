"""Pegging: what the card just played scores from the cards of the current count."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cribbage.pegging import (
    COUNT_LIMIT,
    CountError,
    count_total,
    peg_points,
    peg_total,
)
from games.engine.pieces.cards import FULL_DECK, Card, parse_cards


def peg(text: str) -> list[tuple[str, int]]:
    return peg_points(parse_cards(text))


def test_the_count_adds_card_values() -> None:
    assert count_total(parse_cards("KH QD AC 9S")) == 30
    assert count_total(()) == 0


def test_the_club_example_with_the_extra_seven() -> None:
    # 8, 7, 7, 6: fifteen for 2, then a pair for 2, and the second 7 spoils the run
    assert peg("8H") == []
    assert peg("8H 7C") == [("fifteen", 2)]
    assert peg("8H 7C 7D") == [("pair", 2)]
    assert peg("8H 7C 7D 6S") == []


def test_the_club_example_of_a_run_played_out_of_order() -> None:
    # 9, 6, 8, 7: fifteen for 2, then a run of four for 4
    assert peg("9H 6C") == [("fifteen", 2)]
    assert peg("9H 6C 8D") == []
    assert peg("9H 6C 8D 7S") == [("run of 4", 4)]


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        ("QH QS", [("pair", 2)]),
        ("QH QS QD", [("three of a kind", 6)]),
        ("3H 3S 3D 3C", [("four of a kind", 12)]),
        ("5H 5S 5D", [("fifteen", 2), ("three of a kind", 6)]),
        ("5H 6S 5D", []),  # a card between breaks the pair
        ("KH QS", []),  # pictures pair only by rank
        ("9H 9S 2D 2C", [("pair", 2)]),
    ],
)
def test_pairs_are_cards_of_one_rank_laid_one_after_another(count: str, expected) -> None:
    assert peg(count) == expected


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        ("4H 5S 6D", [("fifteen", 2), ("run of 3", 3)]),
        ("6H 4S 5D", [("fifteen", 2), ("run of 3", 3)]),
        ("3H 4S 5D 6C", [("run of 4", 4)]),  # the longest run, not a run of 3 as well
        ("AH 2S 3D 4C 5H", [("fifteen", 2), ("run of 5", 5)]),
        ("2H 2S 3D 4C", [("run of 3", 3)]),  # the run is the last three cards
        ("AH 2S 3D 8C", []),  # the run is over once another card comes
        ("QH KS AD", []),  # no going round the corner
        ("KH AS 2D", []),
        ("JH 9S TD", [("run of 3", 3)]),
        ("5H 4S 4D 6C", []),  # the repeated 4 spoils any run ending here
        ("3H 5S 4D 3C", [("fifteen", 2), ("run of 3", 3)]),  # 5-4-3 at the end
        ("7H 3S 5D 4C 6H", [("run of 5", 5)]),
    ],
)
def test_runs_are_the_last_cards_forming_consecutive_ranks(count: str, expected) -> None:
    assert peg(count) == expected


def test_thirty_one_scores_two_in_all() -> None:
    assert peg("KH QS JD AC") == [("thirty-one", 2)]
    assert peg_total(parse_cards("KH QS JD AC")) == 2
    assert peg("TH 9S 6D 6C") == [("thirty-one", 2), ("pair", 2)]
    assert peg("TH QS KD") == []  # thirty is worth nothing


def test_a_count_past_thirty_one_cannot_be_pegged() -> None:
    with pytest.raises(CountError, match="32"):
        peg("KH QS JD 2C")


def test_an_empty_count_cannot_be_pegged() -> None:
    with pytest.raises(CountError):
        peg_points([])


def reference_points(cards: list[Card]) -> int:
    """Pegging written the plain way, straight from the definitions."""
    total = count_total(cards)
    points = 2 if total in (15, 31) else 0
    same = 1
    while same < len(cards) and cards[-same - 1].rank == cards[-1].rank:
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for n in range(len(cards), 2, -1):
        ranks = sorted(card.rank for card in cards[-n:])
        if ranks == list(range(ranks[0], ranks[0] + n)):
            points += n
            break
    return points


@st.composite
def counts(draw: st.DrawFn) -> list[Card]:
    """A legal count: distinct cards laid while the total stays within 31."""
    deck = draw(st.permutations(FULL_DECK))
    played: list[Card] = []
    for card in deck[:13]:
        if count_total(played) + card.value > COUNT_LIMIT:
            break
        played.append(card)
    return played


low_cards = [card for card in FULL_DECK if card.rank <= 7]


@st.composite
def low_counts(draw: st.DrawFn) -> list[Card]:
    """Counts of small cards, where pairs and runs are frequent."""
    cards = draw(st.lists(st.sampled_from(low_cards), min_size=1, max_size=10, unique=True))
    while count_total(cards) > COUNT_LIMIT:
        cards.pop()
    return cards


@settings(max_examples=500, deadline=None)
@given(st.one_of(counts(), low_counts()))
def test_pegging_agrees_with_the_plain_definitions(cards: list[Card]) -> None:
    assert peg_total(cards) == reference_points(cards)
