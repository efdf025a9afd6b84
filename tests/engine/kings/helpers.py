"""Helpers for the Kings Cribbage tests: boards from a few placements, states to order."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from games.engine.core.state import evolve
from games.engine.kings import KINGS, State
from games.engine.kings.board import HOLES, SIZE, Board, parse_board, parse_lay
from games.engine.pieces.tiles import FULL_BAG, Tile, parse_face

MOVE_LIMIT = 2_000


def board_with(*placements: str) -> Board:
    """A board holding these 'ROW,COL=FACE' tiles (given as one string or several)."""
    cells = [["#" if (r, c) in HOLES else "." for c in range(SIZE)] for r in range(SIZE)]
    for placed in parse_lay(" ".join(placements)):
        cells[placed.row][placed.col] = placed.face
    return parse_board("\n".join(" ".join(row) for row in cells))


def row_of(row: int, col: int, faces: str) -> list[str]:
    """'6,3=8L 6,4=7L ...' for faces laid across from (row, col): row_of(6, 3, '8L 7L')."""
    return [f"{row},{col + i}={face}" for i, face in enumerate(faces.split())]


def column_of(row: int, col: int, faces: str) -> list[str]:
    return [f"{row + i},{col}={face}" for i, face in enumerate(faces.split())]


def lay(*tokens: str, points: int | None = None) -> dict[str, Any]:
    move: dict[str, Any] = {"type": "lay", "tiles": list(" ".join(tokens).split())}
    if points is not None:
        move["points"] = points
    return move


def game_with(
    board: Board,
    racks: list[str],
    *,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    turn: int = 0,
    bag: int | None = None,
) -> State:
    """A game in progress: this board, these racks (faces), the rest in the bag (all of it,
    or its first `bag` tiles), `turn` to play."""
    players = players or len(racks)
    state = KINGS.new_state(players, options or {}, b"kings helper")
    pool = list(FULL_BAG)
    for laid in board:
        if laid is not None:
            pool.remove(laid.tile)
    rack_tiles = []
    for faces in racks:
        rack: list[Tile] = []
        for face in faces.split():
            rank, suit = parse_face(face)
            tile = next(t for t in pool if t.rank == rank and t.suit == suit)
            pool.remove(tile)
            rack.append(tile)
        rack_tiles.append(tuple(rack))
    rest = tuple(pool if bag is None else pool[:bag])
    return evolve(state, board=board, racks=tuple(rack_tiles), bag=rest, turn=turn, log=())


def random_steps(
    state: State, rng: random.Random
) -> Iterator[tuple[State, int, dict[str, Any], State, list[dict[str, Any]]]]:
    """Random legal moves to the end: yields (before, seat, move, after, events)."""
    for _ in range(MOVE_LIMIT):
        to_move = sorted(KINGS.to_move(state))
        if not to_move:
            return
        seat = rng.choice(to_move)
        chosen = rng.choice(KINGS.legal_moves(state, seat))
        after, events = KINGS.apply(state, seat, chosen)
        yield state, seat, chosen, after, events
        state = after
    raise AssertionError(f"no end after {MOVE_LIMIT} moves")
