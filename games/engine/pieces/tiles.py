"""Kings Cribbage tiles: 104 pieces, two suits by thirteen ranks by four copies, each with an
identity, so two tiles of the same face (rank and suit) are still two distinct pieces.

A tile's face is written rank then suit (`7L`, `TD`, `QL`: light L or dark D); its identity
adds the copy letter a..d (`7La`, `7Lb`). Faces are what the rules look at; identities are what
the state tracks, so the bag, the racks and the board always hold each of the 104 pieces once.
A 6 turned round is a 9 and the other way about: `flips` says a tile can be laid as either.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .cards import RANKS, shuffled_deck

TILE_SUITS = "LD"
SUIT_WORDS = {"L": "light", "D": "dark"}
COPIES = "abcd"
SIX, NINE = 6, 9


class TileError(ValueError):
    """Bad tile notation."""


class Tile(NamedTuple):
    """One physical tile: its printed rank (1 ace .. 13 king), suit (L or D) and copy (0..3)."""

    rank: int
    suit: str
    copy: int

    @property
    def value(self) -> int:
        """Card points: ace 1, two to nine face value, ten and pictures 10."""
        return min(self.rank, 10)

    @property
    def face(self) -> str:
        return face_text(self.rank, self.suit)

    @property
    def flips(self) -> bool:
        """A 6 or a 9, which may be laid as either."""
        return self.rank in (SIX, NINE)

    @property
    def kind(self) -> tuple[int, str]:
        """Tiles of one kind are interchangeable in a rack: same face, or a 6 and a 9 of a suit."""
        return (SIX if self.flips else self.rank, self.suit)

    def laid_ranks(self) -> tuple[int, ...]:
        """The ranks this tile may be laid as."""
        return (SIX, NINE) if self.flips else (self.rank,)

    def __str__(self) -> str:
        return self.face + COPIES[self.copy]

    def __repr__(self) -> str:
        return f"Tile({self})"


class Laid(NamedTuple):
    """A tile on the board, with the rank it was laid as (a 6 laid as a 9 stays a 9)."""

    tile: Tile
    rank: int

    @property
    def suit(self) -> str:
        return self.tile.suit

    @property
    def value(self) -> int:
        return min(self.rank, 10)

    @property
    def face(self) -> str:
        return face_text(self.rank, self.suit)

    def __str__(self) -> str:
        return self.face


FULL_BAG: tuple[Tile, ...] = tuple(
    Tile(rank, suit, copy) for suit in TILE_SUITS for rank in range(1, 14) for copy in range(4)
)


def face_text(rank: int, suit: str) -> str:
    return RANKS[rank - 1] + suit


def parse_face(token: str) -> tuple[int, str]:
    """(rank, suit) from a face such as '7L', 'td' or '10D'."""
    if not isinstance(token, str):
        raise TileError(f"a tile is written like '7L' or 'TD', not {repr(token)[:20]}")
    text = token.strip().upper()
    if len(text) == 3 and text.startswith("10"):
        text = "T" + text[2]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in TILE_SUITS:
        shown = token if len(token) <= 12 else token[:10] + "..."
        raise TileError(
            f"'{shown}' is not a tile: write a rank (A 2-9 T J Q K) then a suit (L light, D dark)"
        )
    return RANKS.index(text[0]) + 1, text[1]


def parse_tile(token: str) -> Tile:
    """A tile from its identity, such as '7La'."""
    if not isinstance(token, str) or len(token.strip()) != 3 or token.strip()[2] not in COPIES:
        raise TileError(f"{str(token)[:12]!r} is not a tile identity: write a face and a copy a-d")
    rank, suit = parse_face(token.strip()[:2])
    return Tile(rank, suit, COPIES.index(token.strip()[2]))


def parse_rank(token: str) -> int:
    """A rank without a suit ('9', 'T', '10', 'k'), for scoring a bare hand."""
    text = token.strip().upper() if isinstance(token, str) else ""
    if text == "10":
        text = "T"
    if len(text) != 1 or text not in RANKS:
        raise TileError(f"{str(token)[:12]!r} is not a rank: write A 2-9 T J Q K (or 10)")
    return RANKS.index(text) + 1


def shuffled_bag(seed: bytes, label: str, tiles: Sequence[Tile] = FULL_BAG) -> tuple[Tile, ...]:
    """The tiles in a seeded order (the same HMAC stream as the card shuffle, by label)."""
    return shuffled_deck(seed, label, tiles)  # type: ignore[arg-type,return-value]


def card_points(tiles: Iterable[Tile]) -> int:
    """What tiles left on a rack cost at the end."""
    return sum(tile.value for tile in tiles)
