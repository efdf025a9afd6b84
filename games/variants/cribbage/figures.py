"""Classic Cribbage's own figures for members' statistics: pegging, hands and cribs per deal,
the best hand and the 29s, counted per seat from a finished match's replay (see
accounts/figures.py for how a game brings its figures)."""

from __future__ import annotations

from django.utils.translation import gettext

from accounts.figures import Figures, Replay, Totals, average

PEGGING = {"peg", "go_point", "last_card"}
HEELS = "heels"


def count_cribbage(replay: Replay, players: int) -> dict[int, Totals]:
    """Pegging per deal, hands and cribs as shown, the best hand and the 29s of every seat."""
    totals = {seat: _cribbage_zero() for seat in range(players)}
    deals: set[tuple[int, int]] = set()
    shown_before: tuple = ()
    hand_before = None
    for state, events in replay:
        deals.add((state.game, state.hand))
        for item in events:
            if item.get("kind") in PEGGING and item.get("seat") is not None:
                totals[item["seat"]]["pegging"] += int(item.get("points") or 0)
            elif item.get("kind") == HEELS and item.get("seat") is not None:
                totals[item["seat"]]["heels"] += int(item.get("points") or 0)
        hand = (state.game, state.hand)
        fresh = state.shows[len(shown_before) :] if hand == hand_before else state.shows
        for shown in fresh:
            row = totals[shown.owner]
            if shown.crib:
                row["cribs"] += 1
                row["crib_points"] += shown.points
            else:
                row["hands"] += 1
                row["hand_points"] += shown.points
                row["best_hand"] = max(row["best_hand"], shown.points)
            if shown.points == 29:
                row["twenty_nines"] += 1
        shown_before, hand_before = state.shows, hand
    for row in totals.values():
        row["deals"] = len(deals)
    return totals


def show_cribbage(totals: Totals) -> list[tuple[str, str]]:
    return [
        (gettext("Pegging per deal"), average(totals.get("pegging", 0), totals.get("deals", 0))),
        (gettext("Hand per deal"), average(totals.get("hand_points", 0), totals.get("hands", 0))),
        (gettext("Crib per deal"), average(totals.get("crib_points", 0), totals.get("cribs", 0))),
        (gettext("Best hand"), str(totals.get("best_hand", 0)) if totals.get("hands") else "–"),
        (gettext("29 hands"), str(totals.get("twenty_nines", 0))),
    ]


def _cribbage_zero() -> Totals:
    return {
        "deals": 0,
        "pegging": 0,
        "heels": 0,
        "hands": 0,
        "hand_points": 0,
        "cribs": 0,
        "crib_points": 0,
        "best_hand": 0,
        "twenty_nines": 0,
    }


FIGURES = Figures(count=count_cribbage, show=show_cribbage)
