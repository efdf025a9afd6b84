"""The Kings Cribbage board: 13x13 squares less a 3-wide, 2-high corner, its notation, and the
rules of one lay (where tiles may go, which hands they form and what those score).

Squares are (row, col), row 0 at the top. The board is a tuple of 169 entries indexed
row * 13 + col: a `Laid` tile or None (the corner's six squares are always None). Notation: 13
lines of 13 tokens, `.` empty, `#` the missing corner, a laid tile as its laid face (`9D`). A
lay is a list of `ROW,COL=FACE` (`6,7=8D 6,8=7D`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..core.text import gettext_noop
from ..core.variant import IllegalMove
from ..pieces.cards import RANKS
from ..pieces.grid import Grid, Square
from ..pieces.tiles import COPIES, NINE, SIX, Laid, Tile, TileError, face_text, parse_face
from ..scoring.tiles import FLUSH_BONUS, MAX_HAND, is_flush, score_tile_hand

SIZE = 13
HOLES = frozenset((r, c) for r in (11, 12) for c in (10, 11, 12))
GRID = Grid(SIZE, SIZE, HOLES)
CENTRE = GRID.centre
RACK_SIZE = 5
FIRST_BONUS = FIVE_TILE_BONUS = 10
ACROSS, DOWN = (0, 1), (1, 0)

Board = tuple[Laid | None, ...]
EMPTY_BOARD: Board = (None,) * (SIZE * SIZE)


class Placement(NamedTuple):
    """One tile of a lay: its square and the face it is laid as."""

    row: int
    col: int
    rank: int
    suit: str

    @property
    def square(self) -> Square:
        return (self.row, self.col)

    @property
    def face(self) -> str:
        return face_text(self.rank, self.suit)

    def __str__(self) -> str:
        return f"{self.row},{self.col}={self.face}"


@dataclass(frozen=True)
class Hand:
    """A hand formed by a lay: its squares and faces in line order, and what it scores."""

    squares: tuple[Square, ...]
    faces: tuple[str, ...]
    fifteens: int
    pairs: int
    runs: int
    flush: bool

    @property
    def points(self) -> int:
        return self.fifteens + self.pairs + self.runs

    @property
    def name(self) -> str:
        return "-".join(face[0] for face in self.faces)

    def to_json(self) -> dict[str, Any]:
        return {
            "tiles": list(self.faces),
            "squares": [list(square) for square in self.squares],
            "points": self.points,
            "fifteens": self.fifteens,
            "pairs": self.pairs,
            "runs": self.runs,
            "flush": self.flush,
        }


@dataclass(frozen=True)
class LayScore:
    """Every hand a lay forms, its bonuses (kind, points) and the total."""

    hands: tuple[Hand, ...]
    bonuses: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return sum(hand.points for hand in self.hands) + sum(p for _, p in self.bonuses)

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [hand.to_json() for hand in self.hands],
            "bonus": [{"kind": kind, "points": points} for kind, points in self.bonuses],
            "total": self.total,
        }

    def text(self) -> str:
        """'hand 9-T-J-J-5: 14, hand 6-9: 2, + 10 bonus (five tiles)'."""
        parts = [f"hand {hand.name}: {hand.points}" for hand in self.hands]
        for kind, points in self.bonuses:
            parts.append(f"+ {points} bonus ({BONUS_WORDS[kind]})")
        return ", ".join(parts)


BONUS_WORDS = {"first": "first lay", "five_tiles": "all five tiles", "flush": "five of a suit"}


def index(square: Square) -> int:
    return square[0] * SIZE + square[1]


def square_name(square: Square) -> str:
    return f"{square[0]},{square[1]}"


# --- a lay ----------------------------------------------------------------------------------


def score_lay(
    board: Board,
    lay: Sequence[Placement],
    *,
    first: bool,
    centre_start: bool = False,
    reduced_first_bonus: bool = False,
) -> LayScore:
    """Check a lay against the board and score it; IllegalMove names the rule it breaks.

    `first`: this is the game's first lay (two or more tiles, anywhere, or over the centre with
    `centre_start`); every later lay must touch a tile already on the board side to side.
    """
    if not 1 <= len(lay) <= RACK_SIZE:
        raise IllegalMove(
            gettext_noop("lay from 1 to {most} tiles, not {count}"), most=RACK_SIZE, count=len(lay)
        )
    new: dict[Square, Placement] = {}
    for placed in lay:
        square = placed.square
        if square in HOLES:
            raise IllegalMove(
                gettext_noop("square {square} is in the board's missing corner"),
                square=square_name(square),
            )
        if square not in GRID:
            raise IllegalMove(
                gettext_noop("square {square} is off the board"), square=square_name(square)
            )
        if board[index(square)] is not None:
            raise IllegalMove(
                gettext_noop("square {square} already has a tile"), square=square_name(square)
            )
        if square in new:
            raise IllegalMove(
                gettext_noop("two tiles are laid on square {square}"), square=square_name(square)
            )
        new[square] = placed
    rows = {r for r, _ in new}
    cols = {c for _, c in new}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalMove(gettext_noop("the tiles of a lay must all be in one row or one column"))
    step = ACROSS if len(rows) == 1 and len(new) > 1 else DOWN
    if len(new) == 1:
        step = ACROSS
    ordered = sorted(new)
    _check_no_gap(board, ordered, step)
    if first:
        if len(new) < 2:
            raise IllegalMove(gettext_noop("the first lay must be a hand of two or more tiles"))
        if centre_start and CENTRE not in new:
            raise IllegalMove(
                gettext_noop("the first lay must cover the centre square {square}"),
                square=square_name(CENTRE),
            )
    elif not any(board[index(n)] is not None for square in new for n in GRID.neighbours(square)):
        raise IllegalMove(
            gettext_noop("a lay must touch a tile already on the board, side to side")
        )
    hands = _formed_hands(board, new, step)
    if not hands:
        raise IllegalMove(gettext_noop("the lay forms no hand of two or more tiles"))
    bonuses: list[tuple[str, int]] = []
    if first:
        bonuses.append(("first", FIRST_BONUS))
    if len(new) == RACK_SIZE and not (first and reduced_first_bonus):
        bonuses.append(("five_tiles", FIVE_TILE_BONUS))
    bonuses += [("flush", FLUSH_BONUS) for hand in hands if hand.flush]
    return LayScore(tuple(hands), tuple(bonuses))


def _check_no_gap(board: Board, ordered: list[Square], step: Square) -> None:
    (r0, c0), (r1, c1) = ordered[0], ordered[-1]
    taken = set(ordered)
    r, c = r0, c0
    while (r, c) != (r1, c1):
        r, c = r + step[0], c + step[1]
        if (r, c) not in taken and board[index((r, c))] is None:
            raise IllegalMove(
                gettext_noop(
                    "the lay leaves a gap at {square}: its tiles and the tiles between them "
                    "must make one unbroken line"
                ),
                square=square_name((r, c)),
            )


def _check_hand(name: str, length: int, idle: list[int]) -> None:
    """IllegalMove unless the line of `length` tiles is a hand: five tiles at most, each
    taking part in some combination (`idle`: the ranks that score nothing)."""
    if length > MAX_HAND:
        raise IllegalMove(
            gettext_noop("the line {name} would have {count} tiles: a hand has at most five"),
            name=name,
            count=length,
        )
    if idle:
        words = ", ".join(RANKS[rank - 1] for rank in idle)
        template = (
            gettext_noop("in the line {name} the {ranks} scores nothing")
            if len(idle) == 1
            else gettext_noop("in the line {name} the {ranks} score nothing")
        )
        raise IllegalMove(template, name=name, ranks=words)


def face_of(token: object) -> tuple[int, str]:
    """(rank, suit) of a face such as '7L'; IllegalMove (with its template) when it is not one."""
    try:
        return parse_face(token)  # type: ignore[arg-type]
    except TileError:
        if not isinstance(token, str):
            raise IllegalMove(
                gettext_noop("a tile is written like '7L' or 'TD', not {token}"),
                token=repr(token)[:20],
            ) from None
        raise IllegalMove(
            gettext_noop(
                "'{token}' is not a tile: write a rank (A 2-9 T J Q K) "
                "then a suit (L light, D dark)"
            ),
            token=token if len(token) <= 12 else token[:10] + "...",
        ) from None


def _formed_hands(board: Board, new: dict[Square, Placement], step: Square) -> list[Hand]:
    """The main line through the lay, then the line across each new tile, when two or more."""
    lines = [_line(board, new, next(iter(sorted(new))), step)]
    cross = DOWN if step == ACROSS else ACROSS
    lines += [_line(board, new, square, cross) for square in sorted(new)]
    hands = []
    for squares in lines:
        if len(squares) < 2:
            continue
        pieces = [new.get(s) or board[index(s)] for s in squares]
        ranks = [piece.rank for piece in pieces]  # type: ignore[union-attr]
        suits = [piece.suit for piece in pieces]  # type: ignore[union-attr]
        faces = tuple(face_text(r, s) for r, s in zip(ranks, suits, strict=True))
        scored = score_tile_hand(ranks)
        name = "-".join(face[0] for face in faces)
        _check_hand(name, len(squares), [ranks[i] for i in scored.idle])
        hands.append(
            Hand(
                tuple(squares),
                faces,
                scored.fifteens,
                scored.pairs,
                scored.runs,
                is_flush(suits),
            )
        )
    return hands


def _line(board: Board, new: dict[Square, Placement], square: Square, step: Square) -> list[Square]:
    filled = [s for s in GRID.squares() if board[index(s)] is not None]
    return GRID.run_through(square, step, [*filled, *new])


# --- notation -------------------------------------------------------------------------------


def parse_placement(token: str) -> Placement:
    """'6,7=8D' -> Placement(6, 7, 8, 'D')."""
    if not isinstance(token, str) or "=" not in token or "," not in token.split("=")[0]:
        raise IllegalMove(
            gettext_noop("{token} is not a placement: write ROW,COL=TILE like 6,7=8D"),
            token=repr(str(token)[:20]),
        )
    where, face = token.split("=", 1)
    row, col = where.split(",", 1)
    if not (row.strip().isdigit() and col.strip().isdigit()) or len(where) > 6:
        raise IllegalMove(
            gettext_noop("{token}: the row and column are whole numbers from 0 to 12"),
            token=repr(token[:20]),
        )
    rank, suit = face_of(face)
    return Placement(int(row), int(col), rank, suit)


def parse_lay(tokens: Iterable[str] | str) -> list[Placement]:
    if isinstance(tokens, str):
        tokens = tokens.split()
    return [parse_placement(token) for token in tokens]


def parse_board(text: str) -> Board:
    """A board from notation: 13 lines of 13 tokens. Laid tiles get identities in order of
    appearance (a face seen a fifth time takes a 6 or 9 turned round, else it is an error)."""
    lines = [line.split() for line in text.strip().splitlines() if line.strip()]
    if len(lines) != SIZE or any(len(line) != SIZE for line in lines):
        raise ValueError(f"a board is {SIZE} lines of {SIZE} tokens (. # or a tile like 9D)")
    cells: list[Laid | None] = list(EMPTY_BOARD)
    used: dict[tuple[int, str], int] = {}
    for r, line in enumerate(lines):
        for c, cell in enumerate(line):
            if (r, c) in HOLES:
                if cell != "#":
                    raise ValueError(f"square {r},{c} is in the missing corner: write #")
                continue
            if cell == ".":
                continue
            if cell == "#":
                raise ValueError(f"square {r},{c} is not in the missing corner: # goes only there")
            rank, suit = parse_face(cell)
            cells[index((r, c))] = Laid(_next_tile(used, rank, suit), rank)
    return tuple(cells)


def board_text(board: Board) -> str:
    """The board in notation, 13 lines."""
    lines = []
    for r in range(SIZE):
        tokens = []
        for c in range(SIZE):
            laid = board[r * SIZE + c]
            tokens.append("#" if (r, c) in HOLES else "." if laid is None else laid.face)
        lines.append(" ".join(f"{t:>2}" for t in tokens))
    return "\n".join(lines)


def _next_tile(used: dict[tuple[int, str], int], rank: int, suit: str) -> Tile:
    printed = [rank] + ([NINE if rank == SIX else SIX] if rank in (SIX, NINE) else [])
    for choice in printed:
        copy = used.get((choice, suit), 0)
        if copy < len(COPIES):
            used[(choice, suit)] = copy + 1
            return Tile(choice, suit, copy)
    raise ValueError(f"there are only four tiles {face_text(rank, suit)} in the bag")
