"""Classic Cribbage on the command line: count a hand, peg a count, tabulate the show."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable

from ..core.cli import UsageError, print_json
from ..pieces.cards import Card, CardError, parse_card, parse_cards
from ..scoring import check_show, score_hand, score_show, show_distribution
from .discard import rank_discards
from .pegging import count_total, peg_points


def add_commands(commands, parents: list[argparse.ArgumentParser]) -> None:
    """The subcommands `score`, `peg`, `distribution` and `discard`."""
    score = commands.add_parser(
        "score",
        parents=parents,
        help="count a hand with its starter",
        description="Count a four-card hand or crib with the starter, as in the show.",
        epilog="Batch lines look like '5H 5C 5S JD 5D' (the starter last), optionally "
        "followed by 'crib'.",
    )
    score.add_argument("cards", nargs="*", metavar="CARD", help="the four cards, like 5H TD JS")
    score.add_argument("--starter", metavar="CARD", help="the starter card")
    score.add_argument("--crib", action="store_true", help="count it as the crib")
    score.add_argument(
        "--batch", metavar="FILE", help="count one hand a line from FILE ('-' reads stdin)"
    )
    score.set_defaults(run=run_score)

    peg = commands.add_parser(
        "peg",
        parents=parents,
        help="what the last card played scores",
        description="Give the cards of the current count in the order played; prints what "
        "the last one pegs (go and last card are not included).",
    )
    peg.add_argument("cards", nargs="+", metavar="CARD")
    peg.set_defaults(run=run_peg)

    distribution = commands.add_parser(
        "distribution",
        parents=parents,
        help="how often each show score occurs",
        description="Count every four-card hand with every starter and print how many score "
        "each total, with the mean.",
    )
    distribution.add_argument("--crib", action="store_true", help="use the crib's flush rule")
    distribution.set_defaults(run=run_distribution)

    discard = commands.add_parser(
        "discard",
        parents=parents,
        help="rank every way to lay cards away to the crib",
        description="Rank every discard of a dealt hand by its exact expected points: the "
        "kept hand over every starter, plus the crib's expected show when the crib is yours "
        "(minus it when it is not), over every card the others may throw and every starter.",
    )
    discard.add_argument("cards", nargs="+", metavar="CARD", help="the dealt cards, like 5H JD")
    whose = discard.add_mutually_exclusive_group(required=True)
    whose.add_argument("--dealer", action="store_true", help="your side deals: the crib is yours")
    whose.add_argument("--pone", action="store_true", help="the other side deals")
    discard.add_argument(
        "--players", type=int, choices=(2, 3, 4), default=2, help="players at the table (2)"
    )
    discard.set_defaults(run=run_discard)


def run_score(args: argparse.Namespace) -> int:
    """Count one hand (JSON total and breakdown), or a batch of hands (one total a line)."""
    if args.batch is not None:
        if args.cards or args.starter or args.crib:
            raise UsageError(
                "--batch takes its hands from the file: give no cards, --starter or --crib"
            )
        if args.batch == "-":
            totals = score_batch(sys.stdin)
        else:
            try:
                with open(args.batch, encoding="utf-8") as lines:
                    totals = score_batch(lines)
            except OSError as error:
                raise UsageError(f"cannot read {args.batch}: {error.strerror}") from None
        sys.stdout.write("".join(f"{total}\n" for total in totals))
        return 0
    if args.starter is None:
        raise UsageError("give the starter with --starter (or use --batch FILE)")
    hand = parse_cards(args.cards, distinct=False)
    starter = parse_card(args.starter)
    check_show(hand, starter)
    show = score_show(hand, starter, crib=args.crib)
    print_json({"total": show.total, "breakdown": show.breakdown()})
    return 0


def score_batch(lines: Iterable[str]) -> list[int]:
    """Totals for lines of five cards (the last is the starter), each optionally followed by
    the word 'crib'. Blank lines and lines starting with '#' are skipped."""
    known: dict[str, Card] = {}
    totals = []
    for number, line in enumerate(lines, start=1):
        tokens = line.split()
        if not tokens or tokens[0].startswith("#"):
            continue
        crib = tokens[-1].lower() == "crib"
        if crib:
            tokens.pop()
        try:
            cards = [known.get(t) or known.setdefault(t, parse_card(t)) for t in tokens]
            if len(cards) != 5:
                raise CardError(f"expected 4 cards and the starter, found {len(cards)} cards")
            hand, starter = cards[:4], cards[4]
            check_show(hand, starter)
        except CardError as error:
            raise CardError(f"line {number}: {error}") from None
        totals.append(score_hand(hand, starter, crib))
    return totals


def run_peg(args: argparse.Namespace) -> int:
    """What the last card of a count scores."""
    cards = parse_cards(args.cards)
    reasons = peg_points(cards)
    print_json(
        {
            "count": count_total(cards),
            "total": sum(points for _, points in reasons),
            "reasons": [[reason, points] for reason, points in reasons],
        }
    )
    return 0


def run_discard(args: argparse.Namespace) -> int:
    """Every discard with its expected hand, crib and total, best first (two decimals)."""
    cards = parse_cards(args.cards)
    try:
        ranking = rank_discards(cards, own_crib=args.dealer, players=args.players)
    except ValueError as error:
        raise CardError(str(error)) from None
    print_json({"discards": [d.to_json() for d in ranking]})
    return 0


def run_distribution(args: argparse.Namespace) -> int:
    """The exact number of (hand, starter) deals that score each total, and the mean."""
    odds = show_distribution(crib=args.crib)
    print_json(
        {
            "variant": args.variant,
            "crib": odds.crib,
            "deals": odds.deals,
            "counts": {str(score): n for score, n in enumerate(odds.counts)},
            "mean": float(odds.mean),
        }
    )
    return 0
