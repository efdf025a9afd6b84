"""The computer player for Kings Cribbage, from its own seat's view alone.

`easy` lays the move that scores most now (exchanging its whole rack, or passing, when it
cannot lay). `strong` also weighs the tiles it keeps (fives, pairs, a 6 or 9 to turn, what
they would cost on the rack at the end) and the openings a lay leaves beside its tiles for the
next player, and exchanges a poor rack rather than lay for little. Both call Joker when the
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
from ..scoring.tiles import INVALID, MAX_HAND, RANK_KEY, hand_points
from .board import EMPTY_BOARD, GRID, SIZE, Board, Placement, index, parse_placement, score_lay

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
OPENING_WEIGHT = 0.35
SHORTLIST = 8
ENDGAME_BAG = 10  # below this many tiles in the bag, what a rack would cost weighs in
LEAVE_RANGE = 20  # leaves differ by less than this: lays scoring that much less are not weighed
EXCHANGE_PER_TILE = 1.2  # what a fresh tile from the bag is worth, against a lay
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
    best_value, best_move = float("-inf"), None
    for value, move in heapq.nlargest(SHORTLIST, scored, key=lambda item: item[0]):
        placements = [parse_placement(token) for token in move["tiles"]]
        value -= OPENING_WEIGHT * opening(board, placements)
        if value > best_value:
            best_value, best_move = value, move
    swaps = [move for move in legal if move["type"] == "exchange"]
    if swaps and bag >= MAX_HAND:
        swap, swap_value = _best_exchange(rack, swaps, bag)
        if best_move is None or swap_value > best_value:
            return swap
    if best_move is not None:
        return best_move
    return {"type": "pass", "points": 0}


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


def opening(board: Board, placements: list[Placement]) -> int:
    """The most a single tile could score beside this lay: the opening it leaves."""
    cells = list(board)
    for placed in placements:
        cells[index(placed.square)] = Laid(Tile(placed.rank, placed.suit, 0), placed.rank)
    worst = 0
    for placed in placements:
        for square in GRID.neighbours(placed.square):
            if cells[index(square)] is None:
                worst = max(worst, _best_single(cells, square))
    return worst


def _best_single(cells: list[Laid | None], square: tuple[int, int]) -> int:
    runs = []
    for step in ((0, 1), (1, 0)):
        count, key = 0, 0
        for sign in (-1, 1):
            r, c = square[0] + sign * step[0], square[1] + sign * step[1]
            while (r, c) in GRID and cells[r * SIZE + c] is not None:
                laid = cells[r * SIZE + c]
                assert laid is not None
                count, key = count + 1, key + RANK_KEY[laid.rank]
                r, c = r + sign * step[0], c + sign * step[1]
        if count >= MAX_HAND:
            return 0
        runs.append((count, key))
    best = 0
    for rank in range(1, 14):
        total = 0
        for count, key in runs:
            if count:
                points = hand_points(key + RANK_KEY[rank])
                if points == INVALID:
                    total = INVALID
                    break
                total += points
        best = max(best, total)
    return best


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
