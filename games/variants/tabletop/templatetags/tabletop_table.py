"""What the Table Top (and CrossCrib) table's templates ask of the engine's view.

    {% load tabletop_table %}
    {% layout_grid view as grid %}      rows of squares, each with what may be done there
    {% deal_sides view.last as counted %}  the finished deal's lines grouped by side

Only the view for this seat is read, so nothing a seat may not see can reach its page.
"""

from __future__ import annotations

import json
from typing import Any

from django import template

register = template.Library()

SIZE = 5


@register.simple_tag
def layout_grid(view: dict[str, Any]) -> dict[str, Any]:
    """The 5x5 layout for the template.

    Returns {"rows": [{"number": r, "total": points, "cells": [...]}], "column_totals": [...],
    "action": "place" | "advise" | None}. Each cell has row, col, label ("row 1, column 2"),
    card (or None), centre (bool), open (the turned card may go there), move (the JSON a button
    posts, when this seat may act there) and advised (the partner's suggested square).
    """
    legal = {
        (m["row"], m["col"]): m
        for m in view.get("legal_moves", [])
        if m.get("type") in ("place", "advise")
    }
    action = next(iter(legal.values()))["type"] if legal else None
    open_squares = {tuple(sq) for sq in view.get("open_squares", [])}
    advice = view.get("advice")
    suggested = (advice["row"], advice["col"]) if advice else None
    centre = tuple(view.get("centre", (2, 2)))
    running = view.get("running", {})
    rows = []
    for r, cards in enumerate(view["board"]):
        cells = []
        for c, card in enumerate(cards):
            move = legal.get((r, c))
            cells.append(
                {
                    "row": r,
                    "col": c,
                    "label": f"row {r + 1}, column {c + 1}",
                    "card": card,
                    "centre": (r, c) == centre,
                    "open": (r, c) in open_squares,
                    "move": None if move is None else json.dumps(move, separators=(",", ":")),
                    "advised": (r, c) == suggested,
                }
            )
        rows.append({"number": r + 1, "total": _at(running.get("rows"), r), "cells": cells})
    return {
        "rows": rows,
        "column_totals": [_at(running.get("columns"), c) for c in range(SIZE)],
        "action": action,
    }


@register.simple_tag
def deal_sides(last: dict[str, Any] | None, sides: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The finished deal's lines per side: [{"side", "name", "lines": "columns"|"rows",
    "hand_points", "gained", "items": [line...], "crib": {...} or None}]."""
    if not last:
        return []
    out = []
    for index, side in enumerate(sides):
        items = [line for line in last["lines"] if line["side"] == index]
        crib = None
        if last["crib"] and last["dealer"] in side["seats"]:
            crib = {
                "cards": last["crib"],
                "points": last["crib_points"],
                "breakdown": last["crib_breakdown"],
            }
        out.append(
            {
                "side": index,
                "name": side.get("name", ""),
                "lines": side["lines"],
                "hand_points": last["hand_points"][index],
                "gained": last["gained"][index],
                "items": items,
                "crib": crib,
            }
        )
    return out


def _at(values: Any, index: int) -> Any:
    try:
        return values[index]
    except (TypeError, IndexError):
        return ""
