"""Cribbage scoring combinations (fifteens, pairs, runs, flush, nobs) and the classic show count.

The combination functions work on any sequence of cards or tiles that carry a `rank` (1..13, ace
low) and a counting `value`; `flush` also needs a `suit`. Every variant of the cribbage family
scores its lines, hands or tricks with them, choosing its own flush length and extras.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, combinations_with_replacement, product
from typing import Protocol

from ..pieces.cards import JACK, Card, CardError

FIFTEEN = 15
FIFTEEN_POINTS = 2
PAIR_POINTS = 2
MIN_RUN = 3
HAND_SIZE = 4
NOBS_POINTS = 1

FIFTEEN_KIND = "fifteen"
PAIR_KIND = "pair"
RUN_KIND = "run"
FLUSH_KIND = "flush"
NOBS_KIND = "nobs"


class Ranked(Protocol):
    """Anything scored by rank and counting value: a card, or a suitless tile."""

    @property
    def rank(self) -> int: ...

    @property
    def value(self) -> int: ...


class Suited(Ranked, Protocol):
    """A ranked piece that also has a suit, so it can be part of a flush."""

    @property
    def suit(self) -> str: ...


@dataclass(frozen=True)
class ScoreItem:
    """One scoring combination: its kind, the cards that make it, and what it is worth."""

    kind: str
    cards: tuple[Ranked, ...]
    points: int

    def __str__(self) -> str:
        return f"{self.kind} {' '.join(str(c) for c in self.cards)} for {self.points}"


@dataclass(frozen=True)
class ShowScore:
    """The count of a hand: its total and every combination that makes it up, in counting order."""

    total: int
    items: tuple[ScoreItem, ...]

    def __post_init__(self) -> None:
        if self.total != sum(item.points for item in self.items):
            raise ValueError(f"a show total of {self.total} does not match its items")

    @classmethod
    def of(cls, items: Iterable[ScoreItem]) -> ShowScore:
        """Total up a list of combinations."""
        items = tuple(items)
        return cls(sum(item.points for item in items), items)

    def breakdown(self) -> list[str]:
        """The count as a player says it aloud, each phrase ending with the running total.

        Fifteens are counted one by one ("fifteen 2, fifteen 4"); the pairs of one rank are
        called together ("a pair is 6", "three of a kind is 12"), as are the runs over the same
        ranks ("two runs of 3 is 18"); then the flush and nobs.
        """
        lines: list[str] = []
        running = 0
        for phrase, points in _phrases(self.items):
            running += points
            lines.append(
                f"{phrase} {running}" if phrase in _BARE_PHRASES else f"{phrase} is {running}"
            )
        return lines

    def calls(self) -> list[dict[str, object]]:
        """The same count as data, one call per phrase, for a page in another language:
        {"kind": "fifteen" | "pair" | "run" | "flush" | "nobs" | another item kind, "size":
        cards in one combination, "many": combinations called together, "points", "running"}."""
        out: list[dict[str, object]] = []
        running = 0
        for group in _groups(self.items):
            points = sum(item.points for item in group)
            running += points
            first = group[0]
            out.append(
                {"kind": first.kind, "size": len(first.cards), "many": len(group),
                 "points": points, "running": running}
            )  # fmt: skip
        return out

    def text(self) -> str:
        """The breakdown on one line, or 'nothing' for a hand that scores no points."""
        return ", ".join(self.breakdown()) or "nothing"

    def __str__(self) -> str:
        return self.text()


# --- combinations ---------------------------------------------------------------------------


def fifteens(cards: Sequence[Ranked]) -> tuple[ScoreItem, ...]:
    """Every distinct set of two or more cards whose values add up to 15, for 2 points each."""
    found = []
    for size in range(2, len(cards) + 1):
        for group in combinations(cards, size):
            if sum(card.value for card in group) == FIFTEEN:
                found.append(ScoreItem(FIFTEEN_KIND, group, FIFTEEN_POINTS))
    return tuple(found)


def pairs(cards: Sequence[Ranked]) -> tuple[ScoreItem, ...]:
    """Every two cards of the same rank, for 2 points each.

    So three of a kind holds three pairs (6 points) and four of a kind six pairs (12).
    """
    return tuple(
        ScoreItem(PAIR_KIND, (a, b), PAIR_POINTS)
        for a, b in combinations(cards, 2)
        if a.rank == b.rank
    )


def runs(cards: Sequence[Ranked]) -> tuple[ScoreItem, ...]:
    """Every run of three or more consecutive ranks, 1 point per card, suits ignored.

    Only the longest stretch of consecutive ranks counts: the shorter runs inside a run of four
    score nothing. A duplicated rank in the stretch makes one run per choice of card, so a
    doubled card gives a double run. Aces are low and a run never turns from king to ace.
    """
    by_rank: dict[int, list[Ranked]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    found = []
    for low, high in _stretches(sorted(by_rank)):
        length = high - low + 1
        if length >= MIN_RUN:
            for choice in product(*(by_rank[rank] for rank in range(low, high + 1))):
                found.append(ScoreItem(RUN_KIND, choice, length))
    return tuple(found)


def flush(cards: Sequence[Suited], min_length: int) -> tuple[ScoreItem, ...]:
    """A flush when all the cards, at least `min_length` of them, share a suit: 1 point a card.

    Returns one item or none.
    """
    if len(cards) >= min_length and len({card.suit for card in cards}) == 1:
        return (ScoreItem(FLUSH_KIND, tuple(cards), len(cards)),)
    return ()


def nobs(hand: Sequence[Suited], starter: Suited) -> tuple[ScoreItem, ...]:
    """One point for the jack in the hand that has the starter's suit ("his nobs").

    Returns one item or none. (A jack turned as the starter is "his heels", scored by the
    dealer when it is cut, not here.)
    """
    for card in hand:
        if card.rank == JACK and card.suit == starter.suit:
            return (ScoreItem(NOBS_KIND, (card,), NOBS_POINTS),)
    return ()


def score_combinations(cards: Sequence[Ranked]) -> ShowScore:
    """Fifteens, pairs and runs of any group of cards (no flush, no nobs)."""
    return ShowScore.of(fifteens(cards) + pairs(cards) + runs(cards))


# --- the classic show -----------------------------------------------------------------------


def score_show(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> ShowScore:
    """Count a four-card hand (or crib) with the starter as its fifth card, item by item.

    A hand scores a flush of 4 when its own four cards share a suit, 5 when the starter matches
    too. A crib scores only the five-card flush. Nobs counts in both.
    """
    check_show(hand, starter)
    cards = (*hand, starter)
    flushes = flush(cards, 5) or (() if crib else flush(hand, HAND_SIZE))
    return ShowScore.of(
        fifteens(cards) + pairs(cards) + runs(cards) + flushes + nobs(hand, starter)
    )


def score_hand(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """The total of `score_show`, fast enough to count millions of hands.

    Fifteens, pairs and runs depend only on the five ranks, so their points come from a table
    keyed by the rank multiset; flush and nobs are checked directly. The cards are trusted:
    call `check_show` first on anything that did not come from a deck.
    """
    a, b, c, d = hand
    table = _TABLE or _combination_table()
    key = _RANK_KEY
    points = table[key[a.rank] + key[b.rank] + key[c.rank] + key[d.rank] + key[starter.rank]]
    suit = a.suit
    if b.suit == suit and c.suit == suit and d.suit == suit:
        if starter.suit == suit:
            points += 5
        elif not crib:
            points += 4
    if (JACK, starter.suit) in hand:
        points += NOBS_POINTS
    return points


def check_show(hand: Sequence[Card], starter: Card) -> None:
    """Raise CardError unless `hand` is four different cards and `starter` is not one of them."""
    if len(hand) != HAND_SIZE:
        raise CardError(f"a hand to count has {HAND_SIZE} cards plus the starter, not {len(hand)}")
    seen: set[Card] = set()
    for card in hand:
        if card in seen:
            raise CardError(f"{card} appears twice in the hand")
        seen.add(card)
    if starter in seen:
        raise CardError(f"the starter {starter} is also in the hand")


def combination_points(ranks: Sequence[int]) -> int:
    """Fifteens, pairs and runs of a handful of ranks, counted arithmetically (no item lists).

    Used to build the fast table; it agrees with `score_combinations` on cards of these ranks.
    """
    ways = [1] + [0] * FIFTEEN  # ways[t]: how many subsets of the values seen so far sum to t
    counts = [0] * 15  # counts[rank]; index 14 stays 0 so every stretch ends
    for rank in ranks:
        value = min(rank, 10)
        for target in range(FIFTEEN, value - 1, -1):
            ways[target] += ways[target - value]
        counts[rank] += 1
    points = FIFTEEN_POINTS * ways[FIFTEEN]
    points += sum(n * (n - 1) for n in counts)  # n cards of a rank make n(n-1)/2 pairs of 2
    length, ways_to_pick = 0, 1
    for n in counts[1:]:
        if n:
            length, ways_to_pick = length + 1, ways_to_pick * n
        else:
            if length >= MIN_RUN:
                points += length * ways_to_pick
            length, ways_to_pick = 0, 1
    return points


def five_rank_multisets() -> Iterable[tuple[int, ...]]:
    """Every sorted choice of five ranks a deck can deal (6,175: no rank five times)."""
    for ranks in combinations_with_replacement(range(1, 14), 5):
        if ranks[0] != ranks[4]:
            yield ranks


def rank_key(ranks: Iterable[int]) -> int:
    """A number naming the multiset of ranks (order does not matter): 3 bits of count per rank."""
    return sum(_RANK_KEY[rank] for rank in ranks)


# --- the odds of the show ------------------------------------------------------------------

MAX_SHOW = 29
DEALS = 12_994_800  # 270,725 four-card hands times the 48 starters left for each


@dataclass(frozen=True)
class ShowDistribution:
    """How many of the 12,994,800 (hand, starter) deals score each total from 0 to 29."""

    crib: bool
    counts: tuple[int, ...]  # counts[score]

    @property
    def deals(self) -> int:
        return sum(self.counts)

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(score * n for score, n in enumerate(self.counts)), self.deals)


def show_distribution(*, crib: bool = False) -> ShowDistribution:
    """Count every possible deal exactly, without dealing them one by one.

    Deals are grouped by the multiset of their five ranks (6,175 groups). Within a group the
    fifteens, pairs and runs are the same for every deal; only how many deals carry a flush or
    nobs needs counting, which `rank_group_scores` does with a little combinatorics.
    """
    counts = [0] * (MAX_SHOW + 1)
    for ranks in five_rank_multisets():
        for score, deals in rank_group_scores(ranks, crib=crib).items():
            counts[score] += deals
    return ShowDistribution(crib, tuple(counts))


def rank_group_scores(ranks: Sequence[int], *, crib: bool = False) -> dict[int, int]:
    """For the deals whose five cards have these ranks: score -> number of (hand, starter) deals.

    Each rank r held n_r times can take C(4, n_r) sets of suits. The starter is one of the
    cards of its rank s; the hand then holds h = n_s - 1 cards of that rank. Counting:
    * all deals: the suit sets of the other ranks, times C(4, h) for the hand's cards of rank s,
      times the 4 - h suits left for the starter;
    * deals with nobs (starter not a jack, j jacks in hand): a hand jack must have the starter's
      suit, a suit not taken by the hand's rank-s cards. Summed over suits, that leaves
      C(3, h) * j for rank s and the jacks together;
    * a hand flush needs four different ranks: 4 suits times 3 starter suits off the flush (12),
      plus, when the starter's rank is not in the hand, 4 five-card flushes, each with nobs if
      the hand has its jack. A four-card flush never has nobs (the jack is off the starter suit).
    """
    held = _tally(ranks)
    base = (_TABLE or _combination_table())[rank_key(ranks)]
    scores: dict[int, int] = {}
    for starter_rank, n in held.items():
        h = n - 1
        other_suit_sets = 1
        for rank, count in held.items():
            if rank != starter_rank:
                other_suit_sets *= _CHOOSE_4[count]
        deals = other_suit_sets * _CHOOSE_4[h] * (4 - h)
        jacks = held.get(JACK, 0) if starter_rank != JACK else 0
        with_nobs = other_suit_sets * _CHOOSE_3[h] * jacks
        four_different = len(held) == 5 or (len(held) == 4 and n == 2)
        four_flushes = 12 if four_different else 0
        five_flushes = 4 if four_different and h == 0 else 0
        five_flushes_with_nobs = five_flushes if jacks == 1 else 0
        plain = deals - four_flushes - five_flushes - (with_nobs - five_flushes_with_nobs)
        for score, count in (
            (base, plain),
            (base + NOBS_POINTS, with_nobs - five_flushes_with_nobs),
            (base if crib else base + 4, four_flushes),
            (base + 5, five_flushes - five_flushes_with_nobs),
            (base + 5 + NOBS_POINTS, five_flushes_with_nobs),
        ):
            if count:
                scores[score] = scores.get(score, 0) + count
    return scores


# --- helpers --------------------------------------------------------------------------------

_RANK_KEY = [0] + [1 << (3 * (rank - 1)) for rank in range(1, 14)]
_TABLE: dict[int, int] = {}
_TABLE_LOCK = threading.Lock()

_PAIR_GROUP_NAMES = {1: "a pair", 3: "three of a kind", 6: "four of a kind", 10: "five of a kind"}
_COUNT_WORDS = {2: "two", 3: "three", 4: "four"}
_BARE_PHRASES = {FIFTEEN_KIND, NOBS_KIND}
_CHOOSE_4 = (1, 4, 6, 4, 1)  # C(4, k): ways to pick the suits of k cards of one rank
_CHOOSE_3 = (1, 3, 3, 1)


def _combination_table() -> dict[int, int]:
    """The table of fifteens + pairs + runs for every multiset of five ranks (6,175).

    Built whole and then published in one assignment: threads (the computer players of a
    server) that ask at the same time see either no table or the complete one, never a
    table half filled in."""
    global _TABLE  # noqa: PLW0603 - a cache published once
    if not _TABLE:
        with _TABLE_LOCK:  # one thread builds it; the others wait instead of building it too
            if not _TABLE:
                _TABLE = {rank_key(r): combination_points(r) for r in five_rank_multisets()}
    return _TABLE


def _tally(ranks: Iterable[int]) -> dict[int, int]:
    held: dict[int, int] = {}
    for rank in ranks:
        held[rank] = held.get(rank, 0) + 1
    return held


def _stretches(ranks: list[int]) -> Iterable[tuple[int, int]]:
    """Split sorted distinct ranks into maximal stretches of consecutive ranks (low, high)."""
    start = 0
    for i in range(1, len(ranks) + 1):
        if i == len(ranks) or ranks[i] != ranks[i - 1] + 1:
            yield ranks[start], ranks[i - 1]
            start = i


def _phrases(items: Sequence[ScoreItem]) -> Iterable[tuple[str, int]]:
    """Group the items the way they are called: (phrase, points) in counting order.

    The pairs of one rank go together, as do the runs over the same ranks; every other item
    is called on its own.
    """
    for group in _groups(items):
        yield _phrase(group), sum(item.points for item in group)


def _groups(items: Sequence[ScoreItem]) -> list[list[ScoreItem]]:
    """The items in the groups they are called in, in counting order."""
    groups: list[list[ScoreItem]] = []
    group_of: dict[tuple[str, frozenset[int]], list[ScoreItem]] = {}
    for item in items:
        if item.kind in (PAIR_KIND, RUN_KIND):
            key = (item.kind, frozenset(card.rank for card in item.cards))
            if key in group_of:
                group_of[key].append(item)
                continue
            group_of[key] = [item]
            groups.append(group_of[key])
        else:
            groups.append([item])
    return groups


def _phrase(group: list[ScoreItem]) -> str:
    kind, size, many = group[0].kind, len(group[0].cards), len(group)
    if kind == PAIR_KIND:
        return _PAIR_GROUP_NAMES.get(many, f"{many} pairs")
    if kind == RUN_KIND:
        return f"run of {size}" if many == 1 else f"{_COUNT_WORDS.get(many, many)} runs of {size}"
    if kind == FLUSH_KIND:
        return f"flush of {size}"
    return kind
