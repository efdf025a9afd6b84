"""Pegging during the play: what the card just laid scores against the cards already in the count.

A count is the cards played since the last reset to 0, in the order they were laid. Only the
combinations of the play are here (fifteen, thirty-one, pairs, runs); the go and the point for
the last card depend on whose turn it is and belong to the game flow. Reaching exactly 31 is
worth 2 points in all: the player who makes it takes no extra point for the go on top.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..scoring import FIFTEEN, FIFTEEN_POINTS, MIN_RUN, PAIR_POINTS, Ranked

COUNT_LIMIT = 31
THIRTY_ONE_POINTS = 2

_SAME_RANK_NAMES = {2: "pair", 3: "three of a kind", 4: "four of a kind"}


class CountError(ValueError):
    """A count that cannot happen: no cards at all, or cards adding up past 31."""


def count_total(cards: Sequence[Ranked]) -> int:
    """The running count: the sum of the cards' values."""
    return sum(card.value for card in cards)


def peg_points(count_cards: Sequence[Ranked]) -> list[tuple[str, int]]:
    """What the last card of `count_cards` scores, as (reason, points) pairs in calling order.

    * fifteen: the count reaches exactly 15, 2 points;
    * thirty-one: the count reaches exactly 31, 2 points;
    * pair: the card matches the rank of the card before it, 2 points; a third card in a row of
      that rank makes three of a kind (6), a fourth four of a kind (12);
    * run: the last n cards (n >= 3), taken together in any order, are n consecutive ranks;
      only the longest such run scores, 1 point a card. Any card that does not belong, such as
      a repeated rank, breaks it.

    Raises CountError for an empty count or one that passes 31.
    """
    if not count_cards:
        raise CountError("no card has been played in this count")
    total = count_total(count_cards)
    if total > COUNT_LIMIT:
        raise CountError(f"the count would reach {total}, past {COUNT_LIMIT}")
    reasons: list[tuple[str, int]] = []
    if total == FIFTEEN:
        reasons.append(("fifteen", FIFTEEN_POINTS))
    elif total == COUNT_LIMIT:
        reasons.append(("thirty-one", THIRTY_ONE_POINTS))
    same = _same_rank_at_end(count_cards)
    if same >= 2:
        pairs_made = same * (same - 1) // 2
        reasons.append((_SAME_RANK_NAMES.get(same, f"{same} of a kind"), PAIR_POINTS * pairs_made))
    run = _run_at_end(count_cards)
    if run:
        reasons.append((f"run of {run}", run))
    return reasons


def peg_total(count_cards: Sequence[Ranked]) -> int:
    """The sum of `peg_points`."""
    return sum(points for _, points in peg_points(count_cards))


# --- helpers --------------------------------------------------------------------------------


def _same_rank_at_end(cards: Sequence[Ranked]) -> int:
    """How many cards at the end of the count share the last card's rank."""
    last = cards[-1].rank
    same = 0
    for card in reversed(cards):
        if card.rank != last:
            break
        same += 1
    return same


def _run_at_end(cards: Sequence[Ranked]) -> int:
    """The length of the longest run formed by the last cards of the count, or 0 for none."""
    longest = 0
    ranks: set[int] = set()
    low, high = 14, 0
    for length, card in enumerate(reversed(cards), start=1):
        if card.rank in ranks:
            break  # a repeated rank: no longer window can be a run
        ranks.add(card.rank)
        low, high = min(low, card.rank), max(high, card.rank)
        if length >= MIN_RUN and high - low + 1 == length:
            longest = length
    return longest
