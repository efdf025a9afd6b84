"""The computer for Table Top Cribbage and CrossCrib, from its seat's view alone.

"easy" places the turned card where it changes the score the most right now: its own side's
lines up, the other side's down. "strong" values each line by what it is expected to score
once full: the cards in it plus the empty squares filled from the cards this seat has not
seen (exactly, over the ranks and suits still unseen). In CrossCrib it also weighs a card's
worth in the crib against its best square and how many crib cards it still owes.
"""

from __future__ import annotations

import random
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from math import comb
from typing import Any

from ..pieces.cards import FULL_DECK, Card, parse_card
from ..scoring.combinations import FIFTEEN, combination_points
from ..scoring.line import LINE_LENGTH, SUITS, line_points

LEVELS = ("easy", "strong")  # weakest first; "random" is offered for every game by the core

Board = list[list[Card | None]]


def choose(view: dict[str, Any], level: str, rng: random.Random) -> dict[str, Any]:
    """The move for the seat whose view this is (its legal moves are in the view)."""
    legal = view["legal_moves"]
    if legal[0]["type"] == "continue" or len(legal) == 1:
        return legal[0]
    card = parse_card(view["turned"])
    board: Board = [[None if c is None else parse_card(c) for c in row] for row in view["board"]]
    mine = view["seat_sides"][view["seat"]]
    flush_min = view["rules"]["flush_min"]
    squares = [m for m in legal if m["type"] in ("place", "advise")]
    if level == "strong":
        worth = Expectation(_unseen(view, board, card), flush_min)
        scored = [(_gain(board, card, m, mine, worth.line), m) for m in squares]
    else:
        scored = [(_gain(board, card, m, mine, _now(flush_min)), m) for m in squares]
    best_value, best = max(scored, key=lambda pair: (pair[0], rng.random()))
    if any(m["type"] == "crib" for m in legal) and _crib_now(view, card, best_value, level):
        return {"type": "crib"}
    return best


def _gain(board: Board, card: Card, move: dict[str, Any], mine: int, worth) -> float:
    """How much better the board is for `mine` with `card` on the move's square: the change in
    the worth of its column (side 0) and row (side 1), ours counted up and theirs down."""
    r, c = move["row"], move["col"]
    row = [x for x in board[r] if x is not None]
    column = [board[i][c] for i in range(LINE_LENGTH) if board[i][c] is not None]
    column_gain = worth(tuple(column) + (card,)) - worth(tuple(column))
    row_gain = worth(tuple(row) + (card,)) - worth(tuple(row))
    return column_gain - row_gain if mine == 0 else row_gain - column_gain


@lru_cache(maxsize=2)
def _now(flush_min: int):
    """The easy player's worth of a line: what it scores as it stands."""
    return lambda cards: line_points(cards, flush_min)


def _unseen(view: dict[str, Any], board: Board, card: Card) -> list[Card]:
    seen = {c for row in board for c in row if c is not None}
    seen.add(card)
    seen.update(parse_card(c) for c in view["crib"]["mine"])
    return [c for c in FULL_DECK if c not in seen]


class Expectation:
    """The expected final score of a line whose empty squares are filled at random from the
    unseen cards: fifteens, pairs and runs over the unseen ranks, the flush over the suits.

    Lines with up to three empty squares are counted exactly over the ranks this seat has not
    seen. A line with four or five empty squares is far from done: its worth comes from a table
    over the ranks of a full deck (less the line's own cards), kept between moves, so a move
    costs a few milliseconds.
    """

    def __init__(self, unseen: list[Card], flush_min: int) -> None:
        self.flush_min = flush_min
        self.total = len(unseen)
        self.ranks = [0] * 14
        self.suits = dict.fromkeys(SUITS, 0)
        for card in unseen:
            self.ranks[card.rank] += 1
            self.suits[card.suit] += 1
        self._fills: dict[int, list[tuple[int, float]]] = {}
        self._memo: dict[tuple[int, tuple[int, ...]], float] = {}

    def line(self, cards: tuple[Card, ...]) -> float:
        empty = LINE_LENGTH - len(cards)
        if empty == 0:
            return line_points(cards, self.flush_min)
        key = sum(_RANK_KEY[card.rank] for card in cards)
        memo_key = (key, _suit_profile(cards))
        value = self._memo.get(memo_key)
        if value is None:
            if empty > EXACT_EMPTY:
                ranks = _generic(key, empty)
            else:
                ranks = sum(p * _points(key + fill) for fill, p in self._fill(empty))
            value = self._memo[memo_key] = ranks + self._flush(cards, empty)
        return value

    def _fill(self, empty: int) -> list[tuple[int, float]]:
        """Every multiset of `empty` ranks the unseen cards can give (as a rank key), with its
        probability."""
        if empty not in self._fills:
            ways = comb(self.total, empty)
            found = []
            for key, counts in _multisets(empty):
                n = 1
                for rank, count in counts:
                    n *= comb(self.ranks[rank], count)
                if n:
                    found.append((key, n / ways))
            self._fills[empty] = found
        return self._fills[empty]

    def _flush(self, cards: tuple[Card, ...], empty: int) -> float:
        """Expected flush points: for each suit, the chance the line ends with at least
        `flush_min` of it (a line of five has at most one such suit)."""
        ways = comb(self.total, empty)
        expected = 0.0
        for suit, unseen in self.suits.items():
            have = sum(1 for card in cards if card.suit == suit)
            for extra in range(max(0, self.flush_min - have), empty + 1):
                chance = comb(unseen, extra) * comb(self.total - unseen, empty - extra) / ways
                expected += (have + extra) * chance
        return expected


EXACT_EMPTY = 3  # lines with more empty squares use the full-deck table
_RANK_KEY = [0] + [1 << (3 * (rank - 1)) for rank in range(1, 14)]
_POINTS: dict[int, int] = {}


def _points(key: int) -> int:
    """Fifteens, pairs and runs of the ranks a rank key names (memoised)."""
    points = _POINTS.get(key)
    if points is None:
        ranks = [r for r in range(1, 14) for _ in range((key >> (3 * (r - 1))) & 7)]
        points = _POINTS[key] = combination_points(ranks)
    return points


@cache
def _multisets(size: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Every multiset of `size` ranks (no rank more than four times): its key and counts."""
    found = []
    for ranks in combinations_with_replacement(range(1, 14), size):
        counts = tuple((r, ranks.count(r)) for r in sorted(set(ranks)))
        if all(count <= 4 for _, count in counts):
            found.append((sum(_RANK_KEY[r] for r in ranks), counts))
    return tuple(found)


@cache
def _generic(key: int, empty: int) -> float:
    """Expected fifteens, pairs and runs of a line (rank key) whose `empty` squares are filled
    from a full deck less the line's own cards."""
    held = [(key >> (3 * (r - 1))) & 7 for r in range(1, 14)]
    total = 52 - sum(held)
    ways = comb(total, empty)
    expected = 0.0
    for fill, counts in _multisets(empty):
        n = 1
        for rank, count in counts:
            n *= comb(4 - held[rank - 1], count)
        if n:
            expected += n * _points(key + fill)
    return expected / ways


def _suit_profile(cards: tuple[Card, ...]) -> tuple[int, ...]:
    return tuple(sum(1 for card in cards if card.suit == suit) for suit in SUITS)


# --- CrossCrib: when to crib ------------------------------------------------------------------


def _crib_now(view: dict[str, Any], card: Card, best: float, level: str) -> bool:
    """Whether to put the turned card in the crib rather than on its best square.

    The crib counts for the dealer, so its worth is signed: for us when we deal, against us
    when the other side deals. A card goes in when its best square is worth little next to
    that, the more readily the fewer turns are left to get the owed cards in.
    """
    seat = view["seat"]
    owed = view["crib"]["owed"][seat]
    left = view["stack_counts"][seat]
    if owed >= left:
        return True
    centre = parse_card(view["board"][2][2])
    ours = [parse_card(c) for c in view["crib"]["mine"]]
    worth = _crib_worth(card, centre, ours)
    signed = worth if view["dealer"] == seat else -worth
    if level != "strong":
        return best < 0
    threshold = URGENCY * owed / left - 1.0
    return best - signed < threshold


URGENCY = 6.0  # how fast the bar to crib rises as turns run out


def _crib_worth(card: Card, centre: Card, ours: list[Card]) -> float:
    """A rough worth of a card in a crib with `centre` as its starter and our cards in it."""
    worth = 0.0
    for other in (centre, *ours):
        if card.value + other.value == FIFTEEN:
            worth += 2
        if card.rank == other.rank:
            worth += 2
        if abs(card.rank - other.rank) == 1:
            worth += 1
    if card.rank == 5:
        worth += 1.5
    if card.rank == 11 and card.suit == centre.suit:
        worth += 1
    return worth
