"""The computer player for Kings Cribbage, from its own seat's view alone.

`easy` lays the move that scores most now (exchanging its whole rack, or passing, when it
cannot lay). `strong` also weighs the tiles it keeps (fives, pairs, a 6 or 9 to turn, what
they would cost on the rack at the end) and what the next player could score at once after it:
the best lay of a few racks drawn from the tiles it cannot see, on the board the move leaves.
It exchanges a poor rack rather than lay for little. Both call Joker when the
last lay was under-counted, which the public board shows.

Exchanges put tiles back in the bag, so a table where nobody can lay could exchange for ever
(an exchange breaks a run of passes). Once no tile has been laid for two whole rounds, both
levels stop exchanging and pass unless they can lay: a game among computers always ends.
"""

from __future__ import annotations

import heapq
import random
from collections import Counter
from typing import Any

from ..core.variant import IllegalMove
from ..pieces.tiles import Laid, Tile, parse_face, parse_tile
from ..scoring.tiles import MAX_HAND
from .board import (
    EMPTY_BOARD,
    GRID,
    SIZE,
    Board,
    Placement,
    Square,
    index,
    parse_placement,
    score_lay,
)
from .movegen import Lay, legal_lays

LEVELS = ("easy", "strong")
FACE_KEY = {
    rank + suit: 1 << (3 * i)
    for i, (rank, suit) in enumerate((rank, suit) for suit in "LD" for rank in "A23456789TJQK")
}  # added up, names a multiset of faces (at most five alike)

# What a tile kept on the rack is worth to the strong player, by rank (fives make fifteens
# with the sixteen ten-cards; a 6 or 9 turns; aces and pictures are hard to place).
KEEP = {1: -1.5, 2: -1.0, 3: -0.5, 4: -0.5, 5: 3.0, 6: 1.0, 7: 0.5, 8: 0.5, 9: 1.0, 10: 0.0}
PAIR_KEPT = 0.5
FIFTEEN_KEPT = 1.0
REPLY_WEIGHT = 1.0  # the next player's best immediate score, against points now
REPLY_SAMPLES = 4  # racks drawn for the next player
SHORTLIST = 6
ENDGAME_BAG = 10  # below this many tiles in the bag, what a rack would cost weighs in
LEAVE_RANGE = 20  # leaves differ by less than this: lays scoring that much less are not weighed
EXCHANGE_PER_TILE = 0.8  # what a fresh tile from the bag is worth, against a lay
STALLED_ROUNDS = 2  # rounds with no tile laid, after which the computer no longer exchanges


def choose(view: dict[str, Any], level: str, rng: random.Random) -> dict[str, Any]:
    """The move for the seat whose view this is (its legal moves are in the view)."""
    legal = view["legal_moves"]
    kinds = {move["type"] for move in legal}
    if "joker" in kinds:
        if missed_points(view) > 0:
            return {"type": "joker"}
        if "accept" in kinds:
            return {"type": "accept"}
    if stalled(view):
        legal = [move for move in legal if move["type"] != "exchange"]
    lays = [move for move in legal if move["type"] == "lay"]
    rack = [parse_tile(tile["id"]) for tile in view["rack"]]
    if level == "strong":
        return _strong(view, legal, lays, rack, rng)
    if lays:
        best = max(move["points"] for move in lays)
        return rng.choice([move for move in lays if move["points"] == best])
    swaps = [move for move in legal if move["type"] == "exchange"]
    if swaps:
        return max(swaps, key=lambda move: len(move["tiles"]))
    return {"type": "pass", "points": 0}


def stalled(view: dict[str, Any]) -> bool:
    """No tile laid for STALLED_ROUNDS whole rounds: the last moves were all exchanges or
    passes (the log's tail; the deal at the start breaks the run)."""
    quiet = 0
    for event in reversed(view["events"]):
        if event["kind"] not in ("exchange", "pass"):
            break
        quiet += 1
    return quiet >= STALLED_ROUNDS * view["players"]


def board_of(view: dict[str, Any]) -> Board:
    """The board from a view."""
    cells: list[Laid | None] = list(EMPTY_BOARD)
    for r, row in enumerate(view["board"]):
        for c, cell in enumerate(row):
            if isinstance(cell, dict):
                cells[r * SIZE + c] = Laid(parse_tile(cell["id"]), parse_face(cell["face"])[0])
    return tuple(cells)


def missed_points(view: dict[str, Any]) -> int:
    """What the last lay was worth beyond its declaration (from the public board)."""
    declaration = view.get("declaration")
    last = view.get("last")
    if not declaration or not last or last["kind"] != "lay":
        return 0
    board = board_of(view)
    squares = [tuple(square) for square in last["squares"]]
    placements = []
    cells = list(board)
    for square in squares:
        laid = board[index(square)]
        assert laid is not None
        placements.append(Placement(square[0], square[1], laid.rank, laid.suit))
        cells[index(square)] = None
    before = tuple(cells)
    options = view["options"]
    try:
        scored = score_lay(
            before,
            placements,
            first=before == EMPTY_BOARD,
            centre_start=options["centre_start"],
            reduced_first_bonus=options["reduced_first_bonus"],
        )
    except IllegalMove:  # pragma: no cover - the lay was legal when made
        return 0
    return scored.total - int(declaration["declared"])


# --- the strong player ----------------------------------------------------------------------


def _strong(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    lays: list[dict[str, Any]],
    rack: list[Tile],
    rng: random.Random,
) -> dict[str, Any]:
    bag = view["bag"]
    board = board_of(view)
    leaves: dict[int, float] = {}
    scored = []
    spread = LEAVE_RANGE + (sum(tile.value for tile in rack) if bag < ENDGAME_BAG else 0)
    floor = max((move["points"] for move in lays), default=0) - spread
    for move in lays:
        if move["points"] < floor:
            continue  # no leave makes up for that many points
        used = sum([FACE_KEY[token[-2:]] for token in move["tiles"]])
        leave = leaves.get(used)
        if leave is None:
            faces = tuple(token[-2:] for token in move["tiles"])
            leave = leaves[used] = leave_value(_kept(rack, faces), bag)
        scored.append((move["points"] + leave, move))
    replies = Replies(view, board, rng)
    weighed = []
    for value, move in heapq.nlargest(SHORTLIST, scored, key=lambda item: item[0]):
        if not bag and len(move["tiles"]) == len(rack):
            # Going out ends the game: no reply, and the others lose what they hold.
            weighed.append((value + replies.held_by_others(), move))
            continue
        placements = [parse_placement(token) for token in move["tiles"]]
        weighed.append((value - REPLY_WEIGHT * replies.after(placements), move))
    best_value, best_move = max(weighed, key=lambda item: item[0], default=(float("-inf"), None))
    swaps = [move for move in legal if move["type"] == "exchange"]
    if swaps and bag >= MAX_HAND:
        swap, swap_value = _best_exchange(rack, swaps, bag)
        swap_value -= REPLY_WEIGHT * replies.now()
        if best_move is None or swap_value > best_value:
            return swap
    if best_move is not None:
        return best_move
    return {"type": "pass", "points": 0}


class Replies:
    """What the next player could score at once after a move: the best lay of a few racks
    drawn from the tiles this seat cannot see (the same racks for every move weighed, so the
    moves are compared on equal terms). The board as it is is searched once a rack. After a
    lay only the lines it can change are searched again: those through and beside its tiles
    and the tiles in line with them. The best lay found before elsewhere still stands, and one
    in those lines counts only if the new search finds it again, so a move that blocks a good
    spot is credited for it. The result is the whole board's search, for less (a test checks
    that)."""

    def __init__(self, view: dict[str, Any], board: Board, rng: random.Random) -> None:
        players, seat = view["players"], view["seat"]
        size = view["rack_sizes"][(seat + 1) % players]
        pool = [
            Tile(*parse_face(item["rank"] + item["suit"]), copy)
            for item in view["unseen"]
            for copy in range(item["count"])
        ]
        size = min(size, len(pool))
        self.racks = [rng.sample(pool, size) for _ in range(REPLY_SAMPLES)] if size else []
        self.board, self.pool, self.players = board, pool, players
        self.first = board == EMPTY_BOARD
        self.options = view["options"]
        self._now: list[list[tuple[int, Spot]]] | None = None

    def held_by_others(self) -> float:
        """Once the bag is empty the unseen tiles are the other racks: what one of them loses,
        on average, if this seat goes out (all of it with one opponent)."""
        others = self.players - 1
        return sum(tile.value for tile in self.pool) / others if self.pool and others else 0.0

    def now(self) -> float:
        """The mean best reply on the board as it is (after an exchange or a pass)."""
        if not self.racks:
            return 0.0
        return sum(lays[0][0] if lays else 0 for lays in self._lays_now()) / len(self.racks)

    def after(self, placements: list[Placement]) -> float:
        """The mean best reply once these tiles are down."""
        if not self.racks:
            return 0.0
        cells = list(self.board)
        for placed in placements:
            cells[index(placed.square)] = Laid(Tile(placed.rank, placed.suit, 0), placed.rank)
        after = tuple(cells)
        near = _joined(after, [placed.square for placed in placements])
        rows = {r + d for r, _ in near for d in (-1, 0, 1)}
        cols = {c + d for _, c in near for d in (-1, 0, 1)}
        beside = {s for square in near for s in (square, *GRID.neighbours(square))}
        total = 0
        for rack, lays in zip(self.racks, self._lays_now(), strict=True):
            best = self._best(after, rack, first=False, near=near)
            if not self.first:
                for points, spot in lays:
                    if points <= best:
                        break
                    if not _searched_again(spot, rows, cols, beside):
                        best = points
                        break
            total += best
        return total / len(self.racks)

    def _lays_now(self) -> list[list[tuple[int, Spot]]]:
        """For each rack, its lays on the board as it is, best first, with where each lies."""
        if self._now is None:
            self._now = []
            for rack in self.racks:
                lays = self._lays(self.board, rack, first=self.first)
                self._now.append(sorted(((lay.points, _spot(lay)) for lay in lays), reverse=True))
        return self._now

    def _best(self, board: Board, rack: list[Tile], *, first: bool, near=()) -> int:
        return max(
            (lay.points for lay in self._lays(board, rack, first=first, near=near)), default=0
        )

    def _lays(self, board: Board, rack: list[Tile], *, first: bool, near=()) -> list[Lay]:
        return legal_lays(
            board,
            rack,
            first=first,
            centre_start=first and self.options["centre_start"],
            reduced_first_bonus=self.options["reduced_first_bonus"],
            near=near,
        )


Spot = tuple[str, int, int]  # ("row", r, 0), ("col", c, 0) or ("one", r, c): where a lay lies


def _joined(board: Board, squares: list[Square]) -> list[Square]:
    """These squares and every tile in an unbroken line with one of them, across or down: the
    hands a lay there changes reach that far, and so do the lays whose hands it changes."""
    out = set(squares)
    for r, c in squares:
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            nr, nc = r + dr, c + dc
            while (nr, nc) in GRID and board[nr * SIZE + nc] is not None:
                out.add((nr, nc))
                nr, nc = nr + dr, nc + dc
    return sorted(out)


def _spot(lay: Lay) -> Spot:
    squares = [tuple(map(int, token.split("=", 1)[0].split(","))) for token in lay.tiles]
    (r, c), *rest = squares
    if not rest:
        return ("one", r, c)
    return ("row", r, 0) if rest[0][0] == r else ("col", c, 0)


def _searched_again(spot: Spot, rows: set[int], cols: set[int], beside: set[Square]) -> bool:
    """Whether a search after a lay (legal_lays with `near`) covers this spot: a line through
    or beside the new tiles, or a single square beside them."""
    kind, a, b = spot
    if kind == "one":
        return (a, b) in beside
    return a in (rows if kind == "row" else cols)


def leave_value(kept: list[Tile], bag: int) -> float:
    """What the tiles left on the rack are worth: their promise, less what they would cost
    at the end (weighing more as the bag empties)."""
    value = 0.0
    counts = Counter(tile.kind[0] for tile in kept)
    for tile in kept:
        value += KEEP[min(tile.rank, 10)]
    for n in counts.values():
        if n == 2:
            value += PAIR_KEPT
        elif n > 2:
            value -= n - 2
    values = [tile.value for tile in kept]
    if 5 in values and 10 in values:
        value += FIFTEEN_KEPT
    if counts.get(6) and (7 in counts or 8 in counts):
        value += FIFTEEN_KEPT / 2
    if bag < ENDGAME_BAG:
        value -= (ENDGAME_BAG - bag) / ENDGAME_BAG * 0.8 * sum(values)
    return value


def _best_exchange(
    rack: list[Tile], swaps: list[dict[str, Any]], bag: int
) -> tuple[dict[str, Any], float]:
    best, best_value = swaps[0], float("-inf")
    for move in swaps:
        kept = list(rack)
        for face in move["tiles"]:
            rank, suit = parse_face(face)
            kept.remove(next(t for t in kept if t.rank == rank and t.suit == suit))
        value = leave_value(kept, bag) + EXCHANGE_PER_TILE * len(move["tiles"])
        if value > best_value:
            best, best_value = move, value
    return best, best_value


def _kept(rack: list[Tile], faces: tuple[str, ...]) -> list[Tile]:
    """The rack left after laying these faces (a 6 or 9 stands for the other)."""
    kept = list(rack)
    for face in faces:
        rank, suit = parse_face(face)
        for tile in kept:
            if tile.suit == suit and (tile.rank == rank or (tile.flips and rank in (6, 9))):
                kept.remove(tile)
                break
    return kept
