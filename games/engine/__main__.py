"""Command line for the rules engine: count hands, peg plays, tabulate the show, run self-play."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from .cards import Card, CardError, parse_card, parse_cards
from .pegging import CountError, count_total, peg_points
from .scoring import check_show, score_hand, score_show, show_distribution
from .variant import variant_keys

DEFAULT_VARIANT = "cribbage"
SCORED_VARIANTS = ("cribbage",)  # the games whose hands score, peg and tabulate here so far


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; returns the exit status (2 for bad input)."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (CardError, CountError, UsageError) as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2


class UsageError(ValueError):
    """Arguments that argparse accepts but that do not make sense together."""


# --- subcommands ----------------------------------------------------------------------------


def run_score(args: argparse.Namespace) -> int:
    """Count one hand (JSON total and breakdown), or a batch of hands (one total a line)."""
    _require_scoring(args, "score")
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
    _print_json({"total": show.total, "breakdown": show.breakdown()})
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
    _require_scoring(args, "peg")
    cards = parse_cards(args.cards)
    reasons = peg_points(cards)
    _print_json(
        {
            "count": count_total(cards),
            "total": sum(points for _, points in reasons),
            "reasons": [[reason, points] for reason, points in reasons],
        }
    )
    return 0


def run_distribution(args: argparse.Namespace) -> int:
    """The exact number of (hand, starter) deals that score each total, and the mean."""
    _require_scoring(args, "distribution")
    odds = show_distribution(crib=args.crib)
    _print_json(
        {
            "variant": args.variant,
            "crib": odds.crib,
            "deals": odds.deals,
            "counts": {str(score): n for score, n in enumerate(odds.counts)},
            "mean": float(odds.mean),
        }
    )
    return 0


def run_selfplay(args: argparse.Namespace) -> int:
    """Play games between computer players and print the summary."""
    try:
        from .selfplay import run_selfplay as play
    except ModuleNotFoundError as error:
        if error.name != f"{__package__}.selfplay":
            raise
        raise UsageError("self-play is not available in this build yet") from None
    try:
        summary = play(args.variant, args.players, args.games, args.seed)
    except ValueError as error:  # the game refuses these players, games or options
        raise UsageError(str(error)) from None
    _print_json(summary)
    return 0


# --- helpers --------------------------------------------------------------------------------


def _require_scoring(args: argparse.Namespace, command: str) -> None:
    if args.variant not in SCORED_VARIANTS:
        raise UsageError(f"'{command}' does not know how {args.variant} scores yet")


def _build_parser() -> argparse.ArgumentParser:
    variant = argparse.ArgumentParser(add_help=False)
    variant.add_argument(
        "--variant",
        choices=variant_keys() or [DEFAULT_VARIANT],
        default=argparse.SUPPRESS,
        help=f"which game of the cribbage family (default {DEFAULT_VARIANT})",
    )
    parser = argparse.ArgumentParser(
        prog="python -m games.engine",
        description="Score and simulate games of the cribbage family.",
        parents=[variant],
    )
    parser.set_defaults(variant=DEFAULT_VARIANT)
    commands = parser.add_subparsers(title="subcommands", required=True, metavar="SUBCOMMAND")

    score = commands.add_parser(
        "score",
        parents=[variant],
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
        parents=[variant],
        help="what the last card played scores",
        description="Give the cards of the current count in the order played; prints what "
        "the last one pegs (go and last card are not included).",
    )
    peg.add_argument("cards", nargs="+", metavar="CARD")
    peg.set_defaults(run=run_peg)

    distribution = commands.add_parser(
        "distribution",
        parents=[variant],
        help="how often each show score occurs",
        description="Count every four-card hand with every starter and print how many score "
        "each total, with the mean.",
    )
    distribution.add_argument("--crib", action="store_true", help="use the crib's flush rule")
    distribution.set_defaults(run=run_distribution)

    selfplay = commands.add_parser(
        "selfplay",
        parents=[variant],
        help="let computer players play each other",
        description="Play seeded games between computer players and summarise the results.",
    )
    selfplay.add_argument("--players", type=int, required=True)
    selfplay.add_argument("--games", type=int, required=True)
    selfplay.add_argument("--seed", required=True, help="any text; the same seed replays")
    selfplay.set_defaults(run=run_selfplay)
    return parser


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data) + "\n")


if __name__ == "__main__":
    sys.exit(main())
