"""A line of a grid counted as a cribbage hand without a starter (Table Top Cribbage, CrossCrib).

A line is up to five cards in a row or a column. It scores fifteens, pairs and runs as a hand
does, and a flush when at least `flush_min` of its cards share a suit (Table Top: all five, for
5; CrossCrib: four or five, one point a card). There is no nobs, heels, go or last card in a
line. A line still filling counts the same way, so a board can show running totals.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..pieces.cards import Card, CardError
from .combinations import (
    ShowScore,
    combination_points,
    fifteens,
    flush,
    pairs,
    rank_key,
    runs,
)

LINE_LENGTH = 5
SUITS = "CDHS"

_POINTS_BY_RANKS: dict[int, int] = {}  # rank_key of a line's ranks -> fifteens + pairs + runs


def score_line(cards: Sequence[Card], flush_min: int = LINE_LENGTH) -> ShowScore:
    """Count a line item by item: fifteens, pairs, runs, then the flush (if any)."""
    check_line(cards)
    return ShowScore.of(fifteens(cards) + pairs(cards) + runs(cards) + line_flush(cards, flush_min))


def line_points(cards: Sequence[Card], flush_min: int = LINE_LENGTH) -> int:
    """The total of `score_line`, fast (a table of rank multisets): for bots and running totals.

    The cards are trusted (no duplicate check)."""
    key = rank_key(card.rank for card in cards)
    points = _POINTS_BY_RANKS.get(key)
    if points is None:
        points = _POINTS_BY_RANKS[key] = combination_points([card.rank for card in cards])
    if len(cards) >= flush_min:
        counts = [0, 0, 0, 0]
        for card in cards:
            counts[SUITS.index(card.suit)] += 1
        most = max(counts)
        if most >= flush_min:
            points += most
    return points


def line_flush(cards: Sequence[Card], flush_min: int) -> tuple:
    """The flush of a line: the cards of one suit when there are at least `flush_min` of them,
    one point a card. A line of five holds at most one such suit when `flush_min` > 2."""
    for suit in SUITS:
        found = flush([card for card in cards if card.suit == suit], flush_min)
        if found:
            return found
    return ()


def check_line(cards: Sequence[Card]) -> None:
    """Raise CardError unless `cards` are at most five different cards."""
    if len(cards) > LINE_LENGTH:
        raise CardError(f"a line holds at most {LINE_LENGTH} cards, not {len(cards)}")
    if len(set(cards)) != len(cards):
        twice = next(card for card in cards if list(cards).count(card) > 1)
        raise CardError(f"{twice} appears twice in the line")
