"""The command line's shared parts: errors, JSON output, and the parser built from each game.

`python -m games.engine [--variant KEY] SUBCOMMAND ...`: the variant (default cribbage) is read
first, then the parser is built from the shared subcommands (`selfplay`) and the game's own
(`games/engine/<key>/cli.py`, function `add_commands(commands, parents)`), so each game adds
its subcommands without touching this file.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from typing import Any

from ..pieces.cards import CardError
from .variant import get_variant, variant_keys

DEFAULT_VARIANT = "cribbage"


class UsageError(ValueError):
    """Arguments that argparse accepts but that do not make sense together."""


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; returns the exit status (2 for bad input)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_chosen_variant(argv))
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (CardError, UsageError, ValueError) as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2


def build_parser(variant: str) -> argparse.ArgumentParser:
    choose = argparse.ArgumentParser(add_help=False)
    choose.add_argument(
        "--variant",
        choices=variant_keys(),
        default=argparse.SUPPRESS,
        help=f"which game of the cribbage family (default {DEFAULT_VARIANT})",
    )
    parser = argparse.ArgumentParser(
        prog="python -m games.engine",
        description="Score and simulate games of the cribbage family.",
        parents=[choose],
    )
    parser.set_defaults(variant=variant)  # read from the line first, wherever it stands
    commands = parser.add_subparsers(title="subcommands", required=True, metavar="SUBCOMMAND")
    game_cli = _game_cli(variant)
    if game_cli is not None:
        game_cli.add_commands(commands, [choose])
    selfplay = commands.add_parser(
        "selfplay",
        parents=[choose],
        help="let computer players play each other",
        description="Play seeded games of random legal moves and summarise the results.",
    )
    selfplay.add_argument("--players", type=int, required=True)
    selfplay.add_argument("--games", type=int, required=True)
    selfplay.add_argument("--seed", required=True, help="any text; the same seed replays")
    selfplay.set_defaults(run=run_selfplay)
    return parser


def run_selfplay(args: argparse.Namespace) -> int:
    """Play games between random players and print the summary."""
    selfplay = importlib.import_module(f"{__package__}.selfplay")
    try:
        summary = selfplay.run_selfplay(args.variant, args.players, args.games, args.seed)
    except ValueError as error:  # the game refuses these players, games or options
        raise UsageError(str(error)) from None
    print_json(summary)
    return 0


def _chosen_variant(argv: list[str]) -> str:
    """The --variant given anywhere on the line (argparse checks it properly later)."""
    for i, word in enumerate(argv):
        if word == "--variant" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--variant="):
            return word.split("=", 1)[1]
    return DEFAULT_VARIANT


def _game_cli(key: str):
    """The game's cli module, or None (an unknown key, or a game with no subcommands)."""
    try:
        variant = get_variant(key)
    except KeyError:
        return None
    package = type(variant).__module__.rsplit(".", 1)[0]
    try:
        return importlib.import_module(f"{package}.cli")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.cli":
            raise
        return None
