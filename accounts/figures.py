"""Each game's own figures for the statistics: counted per seat from a finished match's replay.

A game that wants figures of its own registers a `Figures` under its variant key: `count`
gets the replay of a match (the engine's states with the events each move made, as
`games.services.replay` returns them) and gives each seat a dict of whole-number totals;
`show` turns a member's totals, summed over matches, into labelled figures for the profile.
Totals whose name starts with "best_" are combined by taking the largest, all others add up.
A game without an entry of its own gets its figures from its outcome: the whole-number
`terms` each side reports (points, game points, points left in hand...), shown per deal
when the terms count deals, else per match. No replay is needed.

A game can bring its own figures with its web plug-in, without touching this file: a module
`figures` in its web folder (`games/variants/<key>/figures.py`, found through
`WebGame.extension`) holding `FIGURES = Figures(count=..., show=...)`, as Cribbage's do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext

Totals = dict[str, int]
Replay = Sequence[tuple[Any, list[dict[str, Any]]]]


@dataclass(frozen=True)
class Figures:
    count: Callable[[Replay, int], dict[int, Totals]]
    show: Callable[[Totals], list[tuple[str, str]]]


FIGURES: dict[str, Figures | None] = {}


def register(key: str, figures: Figures) -> None:
    FIGURES[key] = figures


def figures_for(key: str) -> Figures | None:
    """The game's own figures: registered here, or its web folder's `figures` module."""
    if key not in FIGURES:
        from games.variants import web_game

        try:
            module = web_game(key).extension("figures")
        except KeyError:  # a game no longer registered (an old match)
            module = None
        FIGURES[key] = getattr(module, "FIGURES", None)
    return FIGURES[key]


def combine(rows: Sequence[Totals]) -> Totals:
    """Totals of many matches as one: sums, and the largest of every best_*."""
    total: Totals = {}
    for row in rows:
        for name, value in row.items():
            if name.startswith("best_"):
                total[name] = max(total.get(name, value), value)
            else:
                total[name] = total.get(name, 0) + value
    return total


def average(points: int, count: int) -> str:
    # Rounded first: number_format cuts a float's extra decimals off (7/4 would show 1.7).
    return number_format(round(points / count, 1), 1) if count else "–"


# -- any game: the outcome's terms ------------------------------------------------------------


def count_terms(outcome: dict[str, Any], players: int) -> dict[int, Totals]:
    """Each seat's side's whole-number terms, over every game of the match (else the last)."""
    games = outcome.get("games") or [outcome]
    totals: dict[int, Totals] = {seat: {"matches": 1} for seat in range(players)}
    for game in games:
        for side in game.get("sides", []):
            terms = side.get("terms") or {}
            for seat in side.get("seats", []):
                row = totals.setdefault(seat, {"matches": 1})
                for name, value in terms.items():
                    if isinstance(value, int) and not isinstance(value, bool):
                        row[name] = row.get(name, 0) + value
    return totals


def show_terms(totals: Totals) -> list[tuple[str, str]]:
    """The outcome's terms as averages per deal (or per match), labelled in the active language
    (a term's name, "game points", is looked up as the game marked it)."""
    from games.texts import engine_text

    deals = totals.get("deals", 0)
    per = gettext("%(figure)s per deal") if deals else gettext("%(figure)s per match")
    count = deals or totals.get("matches", 0)
    return [
        (per % {"figure": engine_text(name.replace("_", " ")).capitalize()}, average(value, count))
        for name, value in sorted(totals.items())
        if name not in ("deals", "matches")
    ]
