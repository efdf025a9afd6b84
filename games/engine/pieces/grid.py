"""A rectangular board of squares, some of which may be missing, with its lines and neighbours.

Squares are (row, col) pairs, row 0 at the top and column 0 at the left. Used by the grid
games: Table Top Cribbage's 5x5 layout and Kings Cribbage's 13x13 board with a corner cut out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

Square = tuple[int, int]
SIDES = ((-1, 0), (1, 0), (0, -1), (0, 1))
CORNERS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


@dataclass(frozen=True)
class Grid:
    """`rows` x `cols` squares less the `holes`."""

    rows: int
    cols: int
    holes: frozenset[Square] = field(default_factory=frozenset)

    def __contains__(self, square: object) -> bool:
        if not (isinstance(square, tuple) and len(square) == 2):
            return False
        r, c = square
        return (
            isinstance(r, int) and isinstance(c, int) and 0 <= r < self.rows and 0 <= c < self.cols
            and (r, c) not in self.holes
        )  # fmt: skip

    def squares(self) -> Iterator[Square]:
        """Every square, row by row from the top left."""
        for r in range(self.rows):
            for c in range(self.cols):
                if (r, c) not in self.holes:
                    yield (r, c)

    @property
    def size(self) -> int:
        return self.rows * self.cols - len(self.holes)

    @property
    def centre(self) -> Square:
        return (self.rows // 2, self.cols // 2)

    def neighbours(self, square: Square, *, corners: bool = False) -> list[Square]:
        """The squares touching `square` side to side (and corner to corner with `corners`)."""
        r, c = square
        steps = SIDES + CORNERS if corners else SIDES
        return [(r + dr, c + dc) for dr, dc in steps if (r + dr, c + dc) in self]

    def row(self, r: int) -> list[Square]:
        return [(r, c) for c in range(self.cols) if (r, c) in self]

    def column(self, c: int) -> list[Square]:
        return [(r, c) for r in range(self.rows) if (r, c) in self]

    def lines(self) -> Iterator[list[Square]]:
        """Every full row, top to bottom, then every full column, left to right."""
        for r in range(self.rows):
            yield self.row(r)
        for c in range(self.cols):
            yield self.column(c)

    def run_through(self, square: Square, step: Square, filled: Iterable[Square]) -> list[Square]:
        """The unbroken stretch of `filled` squares along `step` ((0, 1) across, (1, 0) down)
        that passes through `square`, in order."""
        taken = set(filled) | {square}
        dr, dc = step
        r, c = square
        while (r - dr, c - dc) in taken and (r - dr, c - dc) in self:
            r, c = r - dr, c - dc
        out = []
        while (r, c) in taken and (r, c) in self:
            out.append((r, c))
            r, c = r + dr, c + dc
        return out
