"""Kings Cribbage on the command line: score a hand of tiles, score a lay on a board."""

from __future__ import annotations

import argparse
import sys

from ..core.cli import UsageError, print_json
from ..core.variant import IllegalMove
from ..pieces.tiles import TileError, parse_face, parse_rank
from ..scoring.tiles import is_flush, score_tile_hand
from .board import parse_board, parse_lay, score_lay


def add_commands(commands, parents: list[argparse.ArgumentParser]) -> None:
    """The subcommands `score` and `lay`."""
    score = commands.add_parser(
        "score",
        parents=parents,
        help="score a hand of tiles",
        description="Score a line of two to five tiles (ranks like 9 T K, or faces like 9L).",
    )
    score.add_argument("tiles", nargs="+", metavar="TILE")
    score.set_defaults(run=run_score)

    lay = commands.add_parser(
        "lay",
        parents=parents,
        help="score a lay on a board",
        description="Check a lay against a board in notation (13 lines of 13 tokens: . empty, "
        "# the missing corner, a tile like 9D) and print its hands, bonuses and total.",
    )
    lay.add_argument("--board", required=True, metavar="FILE", help="the board ('-': stdin)")
    lay.add_argument("--first", action="store_true", help="the game's first lay")
    lay.add_argument("--centre-start", action="store_true", help="the first lay covers 6,6")
    lay.add_argument(
        "--reduced-first-bonus", action="store_true", help="no five-tile bonus on the first lay"
    )
    lay.add_argument("placements", nargs="+", metavar="ROW,COL=TILE")
    lay.set_defaults(run=run_lay)


def run_score(args: argparse.Namespace) -> int:
    """Print the hand's points by kind, or exit 2 with the reason it is not a valid hand."""
    ranks, suits = [], []
    for token in args.tiles:
        if len(token.strip()) >= 2 and token.strip()[-1].upper() in "LD":
            rank, suit = parse_face(token)
            suits.append(suit)
        else:
            rank = parse_rank(token)
        ranks.append(rank)
    hand = score_tile_hand(ranks)
    problem = hand.problem()
    if problem:
        raise UsageError(f"not a valid hand: {problem}")
    flush = len(suits) == len(ranks) and is_flush(suits)
    print_json({**hand.to_json(), "flush": flush})
    return 0


def run_lay(args: argparse.Namespace) -> int:
    """Print the lay's hands, bonuses and total, or exit 2 with the rule it breaks."""
    try:
        if args.board == "-":
            text = sys.stdin.read()
        else:
            with open(args.board, encoding="utf-8") as source:
                text = source.read()
    except OSError as error:
        raise UsageError(f"cannot read {args.board}: {error.strerror}") from None
    try:
        board = parse_board(text)
        scored = score_lay(
            board,
            parse_lay(args.placements),
            first=args.first,
            centre_start=args.centre_start,
            reduced_first_bonus=args.reduced_first_bonus,
        )
    except (IllegalMove, TileError) as error:
        raise UsageError(str(error)) from None
    print_json(scored.to_json())
    return 0
