"""A trick scored as a cribbage hand: four cards, no starter, with a jack of trumps.

Cribist's winner of a trick counts its cards as a hand: every fifteen 2, every pair 2, every
run by its length (a run of four 4, not the runs of three inside it; a doubled card makes two
runs), a flush of all four cards 4, and 1 for the jack of trumps. `trick_winner` says who took
the trick: the highest trump, else the highest card of the suit led (ace low, king high).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..pieces.cards import JACK, SUITS, Card, CardError
from .combinations import ScoreItem, ShowScore, fifteens, flush, pairs, runs

TRICK_SIZE = 4
TRUMP_JACK_KIND = "jack of trumps"
TRUMP_JACK_POINTS = 1


def score_trick(cards: Sequence[Card], trump: str) -> ShowScore:
    """The count of a finished trick, item by item (fifteens, pairs, runs, flush, jack)."""
    check_trick(cards, trump)
    return ShowScore.of(
        fifteens(cards)
        + pairs(cards)
        + runs(cards)
        + flush(cards, TRICK_SIZE)
        + jack_of_trumps(cards, trump)
    )


def jack_of_trumps(cards: Sequence[Card], trump: str) -> tuple[ScoreItem, ...]:
    """One point when the jack of the trump suit is among the cards (one item or none)."""
    for card in cards:
        if card.rank == JACK and card.suit == trump:
            return (ScoreItem(TRUMP_JACK_KIND, (card,), TRUMP_JACK_POINTS),)
    return ()


def trick_winner(cards: Sequence[Card], trump: str) -> int:
    """The position (0 = the lead) of the card that takes the trick: the highest trump if any
    was played, else the highest card of the suit led. Cards are compared by rank, ace low."""
    if not cards:
        raise CardError("a trick needs at least the lead")
    suit = trump if any(card.suit == trump for card in cards) else cards[0].suit
    best = max((card.rank, i) for i, card in enumerate(cards) if card.suit == suit)
    return best[1]


def check_trick(cards: Sequence[Card], trump: str) -> None:
    """Raise CardError unless `cards` are four different cards and `trump` is a suit."""
    if not isinstance(trump, str) or len(trump) != 1 or trump not in SUITS:
        raise CardError(f"'{trump}' is not a suit: write one of C D H S")
    if len(cards) != TRICK_SIZE:
        raise CardError(f"a trick has {TRICK_SIZE} cards, not {len(cards)}")
    if len(set(cards)) != len(cards):
        raise CardError("a card appears twice in the trick")
