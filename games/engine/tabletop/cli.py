"""Table Top Cribbage (and CrossCrib) on the command line: count a line, count a whole layout."""

from __future__ import annotations

import argparse

from ..core.cli import UsageError, print_json
from ..core.variant import get_variant
from ..pieces.cards import parse_cards
from ..scoring.line import LINE_LENGTH, score_line
from .count import count_crib, count_lines
from .state import CENTRE, SIZE


def add_commands(commands, parents: list[argparse.ArgumentParser]) -> None:
    """The subcommands `score` (one line) and `layout` (a full 5x5 layout)."""
    score = commands.add_parser(
        "score",
        parents=parents,
        help="count one row or column",
        description="Count a line of up to five cards as the game scores it (no starter).",
    )
    score.add_argument("cards", nargs="+", metavar="CARD", help="the cards, like 6H 7C 7S 8D 8H")
    score.set_defaults(run=run_score)

    layout = commands.add_parser(
        "layout",
        parents=parents,
        help="count every row and column of a full layout",
        description="Give the 25 cards row by row from the top left (the 13th is the centre); "
        "prints each row's and column's score and the totals.",
    )
    layout.add_argument("cards", nargs="+", metavar="CARD")
    layout.add_argument("--crib", nargs="+", metavar="CARD", help="CrossCrib: the four crib cards")
    layout.set_defaults(run=run_layout)


def run_score(args: argparse.Namespace) -> int:
    """One line's total and breakdown as JSON."""
    game = get_variant(args.variant)
    cards = parse_cards(args.cards)
    if len(cards) > LINE_LENGTH:
        raise UsageError(f"a line holds at most {LINE_LENGTH} cards, not {len(cards)}")
    show = score_line(cards, game.flush_min)
    print_json({"total": show.total, "breakdown": show.breakdown(), "flush_min": game.flush_min})
    return 0


def run_layout(args: argparse.Namespace) -> int:
    """Every line of a layout (and the crib with the centre as its starter) as JSON."""
    game = get_variant(args.variant)
    cards = parse_cards(args.cards)
    if len(cards) != SIZE * SIZE:
        raise UsageError(f"a layout has {SIZE * SIZE} cards, row by row; {len(cards)} given")
    crib = ()
    if args.crib is not None:
        if not game.crib_each:
            raise UsageError(f"{game.name} has no crib (CrossCrib has)")
        crib = parse_cards(args.crib)
        if len(crib) != 4:
            raise UsageError(f"a crib has 4 cards, not {len(crib)}")
        twice = set(crib) & set(cards)
        if twice:
            raise UsageError(f"{min(twice)} is both in the layout and in the crib")
    lines = count_lines(cards, game.flush_min)
    rows = [line.points for line in lines if line.kind == "row"]
    columns = [line.points for line in lines if line.kind == "column"]
    result: dict[str, object] = {
        "rows": rows,
        "columns": columns,
        "rows_total": sum(rows),
        "columns_total": sum(columns),
    }
    if crib:
        centre = cards[CENTRE[0] * SIZE + CENTRE[1]]
        result["crib"], result["crib_breakdown"] = count_crib(crib, centre)
    print_json(result)
    return 0
