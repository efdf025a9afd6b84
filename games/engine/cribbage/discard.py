"""Exact discard values: the kept hand over every starter and the crib's expected show.

For one seat's dealt cards, every way to lay cards away is valued by
* `hand`: the kept cards' show averaged over every starter the seat has not seen;
* `crib`: the crib's show averaged over every set of cards the other seats (and, three-handed,
  the deck) may put in it and every starter, all drawn alike from the unseen cards;
* `total`: hand + crib when the crib is the seat's side's, hand - crib otherwise.

The crib value is computed exactly without visiting the deals one by one. Fifteens, pairs and
runs depend only on the five ranks, so the unseen cards are grouped by the ranks they show
(each group weighted by its number of suit choices); a crib flush needs every unseen card of
the thrown suit; nobs needs the jack of the starter's suit among the four crib cards. Two-handed
that is 455 rank groups instead of 45,540 deals for each discard, and the result is the same
(tests/engine/cribbage_bot checks it against the deal-by-deal count).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from math import comb
from typing import NamedTuple

from ..pieces.cards import FULL_DECK, JACK, SUITS, Card
from ..scoring import rank_key, score_hand
from ..scoring.combinations import _combination_table  # the show's own rank table, shared
from .state import TABLES

CRIB_SIZE = 4  # cards in the crib; with the starter they make five
FLUSH_CRIB_POINTS = 5  # a crib counts a flush only with the starter, for 5


class Discard(NamedTuple):
    """One way to lay away: the thrown cards and their expected points."""

    cards: tuple[Card, ...]
    hand: float
    crib: float
    total: float

    def to_json(self, places: int | None = 2) -> dict:
        def rounded(x: float) -> float:
            return x if places is None else round(x, places)

        return {
            "cards": [str(c) for c in self.cards],
            "hand": rounded(self.hand),
            "crib": rounded(self.crib),
            "total": rounded(self.total),
        }


def rank_discards(dealt: Sequence[Card], own_crib: bool, players: int = 2) -> list[Discard]:
    """Every discard of `dealt` with its values, best first (ties keep the dealt order).

    `own_crib` is True when the crib belongs to the seat's side (its own or its partner's deal).
    Raises ValueError for a wrong number of cards or a repeated card.
    """
    table = TABLES.get(players)
    if table is None:
        raise ValueError(f"cribbage is for 2, 3 or 4 players, not {players}")
    cards = tuple(dealt)
    if len(cards) != table.deal:
        raise ValueError(f"{players} players are dealt {table.deal} cards each, not {len(cards)}")
    if len(set(cards)) != len(cards):
        raise ValueError("a card appears twice")
    unseen = [c for c in FULL_DECK if c not in cards]
    crib = CribOdds(unseen, table.lay_away)
    ranked = []
    for thrown in combinations(cards, table.lay_away):
        kept = [c for c in cards if c not in thrown]
        hand = sum(score_hand(kept, starter) for starter in unseen) / len(unseen)
        crib_value = crib.expected(thrown)
        total = hand + crib_value if own_crib else hand - crib_value
        ranked.append(Discard(tuple(thrown), hand, crib_value, total))
    ranked.sort(key=lambda d: -d.total)
    return ranked


def discard_report(
    dealt: Sequence[Card], thrown: Sequence[Card], *, dealer: int, seat: int, players: int
) -> dict:
    """How a discard compares with every other: the ranking (JSON, two decimals) with the one
    made marked `yours`, and `cost`, the expected points it gave up against the best."""
    own_crib = crib_owner_is_side(dealer, seat, players)
    ranking = rank_discards(dealt, own_crib, players)
    made = set(thrown)
    chosen = next(i for i, d in enumerate(ranking) if set(d.cards) == made)
    rows = [{**d.to_json(), "yours": i == chosen} for i, d in enumerate(ranking)]
    return {
        "dealt": [str(c) for c in dealt],
        "thrown": [str(c) for c in ranking[chosen].cards],
        "dealer": dealer,
        "seat": seat,
        "own_crib": own_crib,
        "discards": rows,
        "place": chosen + 1,
        "cost": round(ranking[0].total - ranking[chosen].total, 2),
    }


def crib_owner_is_side(dealer: int, seat: int, players: int) -> bool:
    """Whether the crib of `dealer` counts for `seat`'s side (partners share a crib)."""
    sides = TABLES[players].sides
    return dealer % len(sides) == seat % len(sides)


def expected_crib(thrown: Sequence[Card], seen: Iterable[Card]) -> float:
    """The crib's expected show given the thrown cards and every card the thrower has seen
    (its whole deal, thrown cards included); the rest of the crib and the starter come from
    the unseen cards."""
    known = set(seen) | set(thrown)
    unseen = [c for c in FULL_DECK if c not in known]
    return CribOdds(unseen, len(thrown)).expected(thrown)


class CribOdds:
    """The unseen cards, grouped once, for valuing many throws of the same size."""

    def __init__(self, unseen: Sequence[Card], thrown: int) -> None:
        self.unseen = list(unseen)
        self.drawn = CRIB_SIZE + 1 - thrown  # crib cards from elsewhere, plus the starter
        self.deals = comb(len(self.unseen), self.drawn)
        left = [0] * 14
        suits = dict.fromkeys(SUITS, 0)
        for card in self.unseen:
            left[card.rank] += 1
            suits[card.suit] += 1
        self.suit_counts = suits
        self.jacks = {card.suit for card in self.unseen if card.rank == JACK}
        self.groups = _rank_groups(tuple(left), self.drawn)

    def expected(self, thrown: Sequence[Card]) -> float:
        """The crib's expected show with these cards thrown into it."""
        table = _combination_table()
        key = rank_key(card.rank for card in thrown)
        combos = sum(weight * table[key + group] for group, weight in self.groups)
        points = combos / self.deals
        suit = thrown[0].suit
        if all(card.suit == suit for card in thrown):
            points += FLUSH_CRIB_POINTS * comb(self.suit_counts[suit], self.drawn) / self.deals
        return points + self._nobs(thrown)

    def _nobs(self, thrown: Sequence[Card]) -> float:
        """The chance that the crib holds the jack of the starter's suit."""
        thrown_jacks = {card.suit for card in thrown if card.rank == JACK}
        others = self.drawn - 1  # crib cards drawn besides the starter
        pool = len(self.unseen) - 1
        chance = 0.0
        for suit, count in self.suit_counts.items():
            if suit in thrown_jacks:
                chance += count
            elif suit in self.jacks:
                chance += (count - 1) * others / pool  # the starter is not that jack
        return chance / len(self.unseen)


@lru_cache(maxsize=256)
def _rank_groups(left: tuple[int, ...], drawn: int) -> tuple[tuple[int, int], ...]:
    """(rank key, number of card sets) for every multiset of `drawn` ranks the unseen cards
    (`left[rank]` of each rank) can make."""
    groups = []
    for ranks in combinations_with_replacement(range(1, 14), drawn):
        weight = 1
        for rank in set(ranks):
            weight *= comb(left[rank], ranks.count(rank))
        if weight:
            groups.append((rank_key(ranks), weight))
    return tuple(groups)
