"""Cards, the 52-card deck, card notation and the seeded shuffle every deal comes from."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from typing import NamedTuple

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {
    1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
    8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king",
}  # fmt: skip
JACK = 11


class CardError(ValueError):
    """Bad card notation, or a set of cards that cannot be (a duplicate, a wrong count)."""


class Card(NamedTuple):
    """A playing card. `rank` runs 1 (ace, always low) to 13 (king); `suit` is one of C D H S."""

    rank: int
    suit: str

    @property
    def value(self) -> int:
        """Counting value: ace 1, two to nine face value, ten and pictures 10."""
        return min(self.rank, 10)

    @property
    def index(self) -> int:
        """A number 0..51, unique to the card (suit-major)."""
        return SUITS.index(self.suit) * 13 + self.rank - 1

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card({self})"

    @property
    def name(self) -> str:
        """The card in words, for example 'five of hearts'."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"


def parse_card(token: str) -> Card:
    """Parse one card such as '5H', 'TD', '10D' or 'js' (case does not matter)."""
    card = _BY_NOTATION.get(token) if type(token) is str else None
    if card is not None:  # the notation the engine itself writes (every saved state)
        return card
    if not isinstance(token, str):
        raise CardError(f"a card must be written as text like '5H', not {repr(token)[:20]}")
    text = token.strip().upper()
    if len(text) == 3 and text.startswith("10"):
        text = "T" + text[2]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        shown = token if len(token) <= 12 else token[:10] + "..."
        raise CardError(
            f"'{shown}' is not a card: write a rank (A 2-9 T J Q K, or 10) then a suit (C D H S)"
        )
    return Card(RANKS.index(text[0]) + 1, text[1])


def parse_cards(text: str | Iterable[str], *, distinct: bool = True) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas (or an iterable of tokens)."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    known = _BY_NOTATION
    cards = tuple(known[t] if type(t) is str and t in known else parse_card(t) for t in tokens)
    if distinct and len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise CardError(f"{card} appears twice")
            seen.add(card)
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


FULL_DECK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(1, 14))
# Each card by its own notation ("5H", "TD"): a saved state holds every card so written, and
# reading one back was most of loading a state.
_BY_NOTATION: dict[str, Card] = {str(card): card for card in FULL_DECK}


def shuffled_deck(seed: bytes, label: str, cards: Sequence[Card] = FULL_DECK) -> tuple[Card, ...]:
    """A Fisher-Yates shuffle of `cards` driven by HMAC-SHA256(seed, label, counter).

    The same seed and label always give the same order, so a match replays bit for bit from its
    seed; different labels ("deal:1:3", "cut:0") give independent shuffles. The seed itself must
    come from `secrets` (the server makes it); nothing here reads the clock.
    """
    stream = _ByteStream(seed, label)
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


class _ByteStream:
    """Deterministic uniform integers from HMAC-SHA256 in counter mode (rejection sampling)."""

    def __init__(self, seed: bytes, label: str) -> None:
        self._key = seed
        self._label = label.encode()
        self._counter = 0
        self._buffer = b""

    def _take(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hmac.new(
                self._key, self._label + self._counter.to_bytes(8, "big"), hashlib.sha256
            ).digest()
            self._counter += 1
            self._buffer += block
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) for 0 < n <= 2**32."""
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            x = int.from_bytes(self._take(4), "big")
            if x < limit:
                return x % n
