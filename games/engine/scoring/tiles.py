"""A tile hand (Kings Cribbage): a line of two to five touching tiles, scored as cribbage
combinations in any order, valid only when every tile takes part in one of them.

Fifteens 2 each, pairs 2 (three of a kind 6, four 12, five 20), runs of 3 to 5 (ace low, never
turning the corner). A hand of six or more tiles, or with a tile that scores nothing, is not a
valid hand. Points and validity depend only on the ranks, so `hand_points` answers from a table
keyed by the additive `rank_key` of the ranks (each entry counted on first use); the five-of-a-suit
bonus is the game's and is checked apart (`is_flush`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..pieces.cards import RANKS
from .combinations import (
    FIFTEEN,
    FIFTEEN_POINTS,
    MIN_RUN,
    PAIR_POINTS,
    Ranked,
    combination_points,
    rank_key,
)

MAX_HAND = 5
MIN_HAND = 2
FLUSH_BONUS = 10
INVALID = -1

RANK_KEY = tuple([0] + [1 << (3 * (rank - 1)) for rank in range(1, 14)])
"""RANK_KEY[rank]: add these up to name a multiset of ranks (the same key as `rank_key`)."""


@dataclass(frozen=True)
class TileHand:
    """What a line of tiles is worth: points by kind, and the tiles that score nothing."""

    ranks: tuple[int, ...]
    fifteens: int
    pairs: int
    runs: int
    idle: tuple[int, ...]  # positions (in the given order) of tiles in no combination

    @property
    def total(self) -> int:
        return self.fifteens + self.pairs + self.runs

    @property
    def valid(self) -> bool:
        return MIN_HAND <= len(self.ranks) <= MAX_HAND and not self.idle

    def problem(self, name: str = "") -> str | None:
        """Why the hand is not valid, in words ('' when it is)."""
        shown = name or "-".join(RANKS[r - 1] for r in self.ranks)
        if len(self.ranks) > MAX_HAND:
            return f"the line {shown} has {len(self.ranks)} tiles, and a hand has at most five"
        if len(self.ranks) < MIN_HAND:
            return f"{shown} is a single tile, and a hand has at least two"
        if self.idle:
            idle = ", ".join(RANKS[self.ranks[i] - 1] for i in self.idle)
            verb = "scores" if len(self.idle) == 1 else "score"
            return f"in the line {shown} the {idle} {verb} nothing"
        return None

    def to_json(self) -> dict[str, int]:
        return {
            "total": self.total,
            "fifteens": self.fifteens,
            "pairs": self.pairs,
            "runs": self.runs,
        }


def score_tile_hand(ranks: Sequence[int]) -> TileHand:
    """Fifteens, pairs and runs of the ranks, and which positions take part in none."""
    ranks = tuple(ranks)
    counts = [0] * 15  # counts[rank]; index 14 stays 0 so every stretch ends
    for rank in ranks:
        counts[rank] += 1
    pairs = sum(n * (n - 1) for n in counts) * PAIR_POINTS // 2
    in_runs = _ranks_in_runs(counts)
    runs = _run_points(counts)
    fifteens = combination_points(ranks) - pairs - runs
    idle_ranks = {
        rank
        for rank in set(ranks)
        if counts[rank] < 2 and rank not in in_runs and not _makes_fifteen(rank, ranks)
    }
    idle = tuple(i for i, rank in enumerate(ranks) if rank in idle_ranks)
    return TileHand(ranks, fifteens, pairs, runs, idle)


def hand_points(key: int) -> int:
    """Points of the valid hand of two to five tiles whose ranks add up to `key` (RANK_KEY),
    or INVALID (-1) when some tile scores nothing. The caller checks the hand's length (two
    to five tiles); each key is counted once and remembered."""
    points = _TABLE.get(key)
    if points is None:
        hand = score_tile_hand(_ranks_of(key))
        points = _TABLE[key] = hand.total if hand.valid else INVALID
    return points


def is_flush(suits: Sequence[str]) -> bool:
    """Five tiles of one suit: the flush bonus."""
    return len(suits) == MAX_HAND and len(set(suits)) == 1


def points_by_ranks(ranks: Sequence[int]) -> int:
    """`hand_points` for a list of ranks (INVALID when not a valid hand of 2 to 5)."""
    if not MIN_HAND <= len(ranks) <= MAX_HAND:
        return INVALID
    return hand_points(rank_key(ranks))


def pieces_ranks(pieces: Sequence[Ranked]) -> list[int]:
    return [piece.rank for piece in pieces]


# --- helpers --------------------------------------------------------------------------------

_TABLE: dict[int, int] = {}


def _ranks_of(key: int) -> list[int]:
    return [rank for rank in range(1, 14) for _ in range((key >> (3 * (rank - 1))) & 7)]


def _ranks_in_runs(counts: list[int]) -> set[int]:
    found: set[int] = set()
    stretch: list[int] = []
    for rank in range(1, 15):
        if counts[rank]:
            stretch.append(rank)
            continue
        if len(stretch) >= MIN_RUN:
            found.update(stretch)
        stretch = []
    return found


def _run_points(counts: list[int]) -> int:
    points = 0
    length, ways = 0, 1
    for rank in range(1, 15):
        n = counts[rank]
        if n:
            length, ways = length + 1, ways * n
            continue
        if length >= MIN_RUN:
            points += length * ways
        length, ways = 0, 1
    return points


def _makes_fifteen(rank: int, ranks: Sequence[int]) -> bool:
    """Whether one tile of `rank` and some of the other tiles of `ranks` add up to FIFTEEN."""
    others = list(ranks)
    others.remove(rank)
    reachable = 1  # bit t set: some of the others add up to t
    for other in others:
        reachable |= reachable << min(other, 10)
    return bool(reachable >> (FIFTEEN - min(rank, 10)) & 1)


__all__ = [
    "FIFTEEN_POINTS", "FLUSH_BONUS", "INVALID", "MAX_HAND", "MIN_HAND", "RANK_KEY", "TileHand",
    "hand_points", "is_flush", "points_by_ranks", "score_tile_hand",
]  # fmt: skip
