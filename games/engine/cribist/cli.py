"""Cribist on the command line: count a trick, and say who takes one."""

from __future__ import annotations

import argparse

from ..core.cli import UsageError, print_json
from ..pieces.cards import SUITS, parse_cards
from ..scoring.trick import TRICK_SIZE, score_trick, trick_winner


def add_commands(commands, parents: list[argparse.ArgumentParser]) -> None:
    """The subcommands `score` and `trick`."""
    score = commands.add_parser(
        "score",
        parents=parents,
        help="count a trick as a cribbage hand",
        description="Count the four cards of a trick: fifteens, pairs, runs, a flush of four "
        "and the jack of trumps.",
    )
    score.add_argument("cards", nargs="+", metavar="CARD", help="the four cards, like 4H 5C")
    score.add_argument("--trump", required=True, metavar="SUIT", help="the trump suit: C D H S")
    score.set_defaults(run=run_score)

    trick = commands.add_parser(
        "trick",
        parents=parents,
        help="who takes a trick, and what it scores",
        description="Give the four cards in the order played, the lead first; prints the "
        "position (0-3) of the card that takes the trick and the trick's count.",
    )
    trick.add_argument("cards", nargs="+", metavar="CARD")
    trick.add_argument("--trump", required=True, metavar="SUIT", help="the trump suit: C D H S")
    trick.set_defaults(run=run_trick)


def run_score(args: argparse.Namespace) -> int:
    """The trick's total and its breakdown, as JSON."""
    cards, trump = _trick(args)
    count = score_trick(cards, trump)
    print_json(
        {
            "total": count.total,
            "breakdown": count.breakdown(),
            "items": [
                {"kind": i.kind, "cards": [str(c) for c in i.cards], "points": i.points}
                for i in count.items
            ],
        }
    )
    return 0


def run_trick(args: argparse.Namespace) -> int:
    """Who takes the trick (its position in the order played) and its count."""
    cards, trump = _trick(args)
    count = score_trick(cards, trump)
    winner = trick_winner(cards, trump)
    print_json(
        {
            "winner": winner,
            "card": str(cards[winner]),
            "total": count.total,
            "breakdown": count.breakdown(),
        }
    )
    return 0


def _trick(args: argparse.Namespace):
    trump = args.trump.strip().upper()
    if len(trump) != 1 or trump not in SUITS:
        raise UsageError(f"--trump must be a suit, one of C D H S, not {args.trump!r}")
    cards = parse_cards(args.cards)
    if len(cards) != TRICK_SIZE:
        raise UsageError(f"a trick has {TRICK_SIZE} cards, not {len(cards)}")
    return cards, trump
