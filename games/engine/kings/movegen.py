"""Every distinct legal lay of a rack on a board, with its points, fast.

A lay of two or more tiles fills every empty square of a stretch of one row or column (the
stretch ends at empty squares or the edge, so it is exactly the hand the lay forms along its
line); a lay of one tile forms the hands across and down through it. Hands depend only on their
ranks, so the main line is checked once per choice of faces (a table look-up), and only the
choices that make a valid hand are arranged over the squares, each square's crossing hand
checked as the tile goes down. Tiles of one face are interchangeable, and a 6 or 9 counts once
per value chosen, so each lay is listed once.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import NamedTuple

from ..pieces.tiles import NINE, SIX, Tile
from ..scoring.tiles import INVALID, MAX_HAND, RANK_KEY, hand_points
from .board import (
    CENTRE,
    FIRST_BONUS,
    FIVE_TILE_BONUS,
    FLUSH_BONUS,
    GRID,
    RACK_SIZE,
    SIZE,
    Board,
    Placement,
    index,
    parse_placement,
)

Face = tuple[int, str]


class Lay(NamedTuple):
    """A legal lay: its tiles in line order as `ROW,COL=FACE` and its total points (bonuses
    included)."""

    tiles: tuple[str, ...]
    points: int

    @property
    def placements(self) -> tuple[Placement, ...]:
        return tuple(parse_placement(token) for token in self.tiles)


def _lines() -> list[list[int]]:
    rows = [[index(s) for s in GRID.row(r)] for r in range(SIZE)]
    cols = [[index(s) for s in GRID.column(c)] for c in range(SIZE)]
    return rows + cols  # every line is unbroken: the corner only shortens rows 11-12, cols 10-12


LINES = _lines()
ROW_LINES, COL_LINES = LINES[:SIZE], LINES[SIZE:]
CENTRE_INDEX = index(CENTRE)
RANK_LETTERS = "A23456789TJQK"
TOKENS: dict[tuple[int, int, str], str] = {
    (i, rank, suit): f"{i // SIZE},{i % SIZE}={RANK_LETTERS[rank - 1]}{suit}"
    for i in range(SIZE * SIZE)
    for rank in range(1, 14)
    for suit in "LD"
}


def legal_lays(
    board: Board,
    rack: Sequence[Tile],
    *,
    first: bool,
    centre_start: bool = False,
    reduced_first_bonus: bool = False,
    near: Collection[tuple[int, int]] = (),
    limit: int | None = None,
) -> list[Lay]:
    """Every distinct legal lay of tiles from `rack` on `board`; with `limit`, only the first
    `limit` of them in the same order (the search stops there: `limit=1` asks whether there
    is any lay at all, for a fraction of the work).

    With `near` (squares of a board that is not empty), only the lays in the rows and columns
    through or beside those squares, and single tiles beside them: every lay that puts a tile
    next to one of them (one joining them only through a longer line of old tiles may be
    left out). What a move opens, for the computer, without listing the whole board again.
    """
    if not rack:
        return []
    ranks = [0] * (SIZE * SIZE)
    suits = [""] * (SIZE * SIZE)
    for i, laid in enumerate(board):
        if laid is not None:
            ranks[i], suits[i] = laid.rank, laid.suit
    runs = (_runs(ranks, suits, ROW_LINES), _runs(ranks, suits, COL_LINES))
    choices = _face_choices(rack)
    out: list[Lay] = [] if limit is None else _UpTo(limit)
    first_bonus = FIRST_BONUS if first else 0
    five_bonus = 0 if first and reduced_first_bonus else FIVE_TILE_BONUS
    rows = cols = range(SIZE)
    beside: set[int] | None = None
    if near:
        rows = sorted({r + d for r, _ in near for d in (-1, 0, 1) if 0 <= r + d < SIZE})
        cols = sorted({c + d for _, c in near for d in (-1, 0, 1) if 0 <= c + d < SIZE})
        beside = {index(s) for square in near for s in GRID.neighbours(square)}
    try:
        if not first:
            _singles(ranks, runs, choices[1], out, beside)
        for across, lines in (
            (True, [ROW_LINES[r] for r in rows]),
            (False, [COL_LINES[c] for c in cols]),
        ):
            cross = runs[1] if across else runs[0]
            for line in lines:
                _line_lays(
                    line, across, ranks, suits, cross, choices, first, centre_start,
                    first_bonus, five_bonus, out,
                )  # fmt: skip
    except _Enough:
        pass
    return out if limit is None else list(out)


class _Enough(Exception):
    """The search found as many lays as it was asked for."""


class _UpTo(list):
    """The lays found so far, ending the search (with _Enough) once it holds `limit`."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        if limit < 1:
            raise ValueError("a limit counts one lay or more")
        self.limit = limit

    def append(self, lay: Lay) -> None:
        super().append(lay)
        if len(self) >= self.limit:
            raise _Enough


# --- the parts ------------------------------------------------------------------------------

Run = tuple[int, int, str]  # (tiles, rank key, common suit or "" when mixed) beside a square


def _runs(ranks: list[int], suits: list[str], lines: list[list[int]]) -> dict[int, Run]:
    """For each empty square next to tiles along these lines: the tiles it would join."""
    out: dict[int, Run] = {}
    for line in lines:
        n = len(line)
        for j, i in enumerate(line):
            if ranks[i]:
                continue
            count, key, suit = 0, 0, None
            for step in (-1, 1):
                k = j + step
                while 0 <= k < n and ranks[line[k]]:
                    square = line[k]
                    count += 1
                    key += RANK_KEY[ranks[square]]
                    suit = suits[square] if suit in (None, suits[square]) else ""
                    k += step
            if count:
                out[i] = (count, key, suit or "")
    return out


def _face_choices(rack: Sequence[Tile]) -> list[list[tuple[int, tuple[Face, ...]]]]:
    """choices[k]: each distinct multiset of k faces the rack can lay, with its rank key."""
    kinds: dict[tuple[int, str], int] = {}
    for tile in rack:
        kinds[tile.kind] = kinds.get(tile.kind, 0) + 1
    options: list[list[tuple[Face, ...]]] = []
    for (rank, suit), count in sorted(kinds.items()):
        picks: list[tuple[Face, ...]] = []
        for n in range(count + 1):
            if rank == SIX:
                picks += [
                    ((SIX, suit),) * sixes + ((NINE, suit),) * (n - sixes) for sixes in range(n + 1)
                ]
            else:
                picks.append(((rank, suit),) * n)
        options.append(picks)
    combos: list[tuple[Face, ...]] = [()]
    for picks in options:
        combos = [done + pick for done in combos for pick in picks]
    choices: list[list[tuple[int, tuple[Face, ...]]]] = [[] for _ in range(RACK_SIZE + 1)]
    for faces in combos:
        if faces and len(faces) <= RACK_SIZE:
            choices[len(faces)].append((sum(RANK_KEY[r] for r, _ in faces), faces))
    return choices


def _cross_points(run: Run | None, rank: int, suit: str) -> int:
    """Points of the hand a new tile makes across its lay (0 when none), INVALID if not valid."""
    if run is None:
        return 0
    count, key, common = run
    if count >= MAX_HAND:
        return INVALID
    points = hand_points(key + RANK_KEY[rank])
    if points != INVALID and count == MAX_HAND - 1 and common == suit:
        points += FLUSH_BONUS
    return points


def _singles(
    ranks: list[int],
    runs: tuple[dict[int, Run], dict[int, Run]],
    ones: list[tuple[int, tuple[Face, ...]]],
    out: list[Lay],
    only: set[int] | None = None,
) -> None:
    across, down = runs
    for i in sorted(set(across) | set(down)):
        if only is not None and i not in only:
            continue
        for _, ((rank, suit),) in ones:
            a = _cross_points(across.get(i), rank, suit)
            if a == INVALID:
                continue
            d = _cross_points(down.get(i), rank, suit)
            if d == INVALID:
                continue
            out.append(Lay((TOKENS[i, rank, suit],), a + d))


def _line_lays(
    line: list[int],
    across: bool,
    ranks: list[int],
    suits: list[str],
    cross: dict[int, Run],
    choices: list[list[tuple[int, tuple[Face, ...]]]],
    first: bool,
    centre_start: bool,
    first_bonus: int,
    five_bonus: int,
    out: list[Lay],
) -> None:
    n = len(line)
    memo: dict[tuple[int, int, str], int] = {}  # a new tile's crossing hand, by square and face
    most = max(k for k in range(RACK_SIZE + 1) if k == 0 or choices[k])
    for a in range(n):
        if a and ranks[line[a - 1]]:
            continue  # the stretch would run on to the left
        key = empties = 0
        suit: str | None = None
        gaps: list[int] = []
        for b in range(a, min(a + MAX_HAND, n)):
            square = line[b]
            if ranks[square]:
                key += RANK_KEY[ranks[square]]
                suit = suits[square] if suit in (None, suits[square]) else ""
            else:
                empties += 1
                gaps.append(square)
            if empties > most:
                break
            if b + 1 < n and ranks[line[b + 1]]:
                continue  # the stretch would run on to the right
            if empties < 2:
                continue
            tiles = b - a + 1
            if first:
                if centre_start and not (
                    line[a] <= CENTRE_INDEX <= line[b] and CENTRE_INDEX in gaps
                ):
                    continue
            elif tiles == empties and not any(g in cross for g in gaps):
                continue  # touches nothing
            bonus = first_bonus + (five_bonus if empties == RACK_SIZE else 0)
            for faces_key, faces in choices[empties]:
                main = hand_points(key + faces_key)
                if main == INVALID:
                    continue
                _arrange(gaps, faces, across, suits, cross, tiles, suit, main + bonus, out, memo)


def _arrange(
    gaps: list[int],
    faces: tuple[Face, ...],
    across: bool,
    suits: list[str],
    cross: dict[int, Run],
    tiles: int,
    old_suit: str | None,
    base: int,
    out: list[Lay],
    memo: dict[tuple[int, int, str], int],
) -> None:
    """Every distinct order of `faces` over the empty squares whose crossing hands are valid."""
    distinct = sorted(set(faces))
    counts = [faces.count(face) for face in distinct]
    options = []
    for square in gaps:
        run = cross.get(square)
        allowed = []
        for j, (rank, suit) in enumerate(distinct):
            if run is None:
                allowed.append((j, 0, TOKENS[square, rank, suit]))
                continue
            key = (square, rank, suit)
            extra = memo.get(key)
            if extra is None:
                extra = memo[key] = _cross_points(run, rank, suit)
            if extra != INVALID:
                allowed.append((j, extra, TOKENS[key]))
        if not allowed:
            return
        options.append(allowed)
    suits_laid = {suit for _, suit in faces}
    if tiles == MAX_HAND and len(suits_laid) == 1 and old_suit in (None, faces[0][1]):
        base += FLUSH_BONUS
    depth_last = len(gaps) - 1

    def place(depth: int, points: int, laid: tuple[str, ...]) -> None:
        for j, extra, token in options[depth]:
            if counts[j]:
                if depth == depth_last:
                    out.append(Lay((*laid, token), points + extra))
                    continue
                counts[j] -= 1
                place(depth + 1, points + extra, (*laid, token))
                counts[j] += 1

    place(0, base, ())
