"""What the Table Top (and CrossCrib) table's templates ask of the engine's view.

    {% load tabletop_table %}
    {% layout_grid view as grid %}      rows of squares, each with what may be done there
    {% deal_sides view.last sides as counted %}  the finished deal's lines grouped by side
    {{ side.lines|lines_word }}         "columns" or "rows" in the reader's language

Only the view for this seat is read, so nothing a seat may not see can reach its page. Every
word these give is in the active language (games/variants/tabletop/texts.py).
"""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.translation import gettext

from games.variants.cribbage.texts import count_text
from games.variants.tabletop.texts import line_name, lines_word, square_name

register = template.Library()
register.filter("lines_word", lines_word)

SIZE = 5


@register.simple_tag
def layout_grid(view: dict[str, Any]) -> dict[str, Any]:
    """The 5x5 layout for the template.

    Returns {"rows": [{"number": r, "total": points, "title", "label", "cells": [...]}],
    "column_totals": [{"number", "total", "title", "label"}], "action": "place" | "advise" |
    None}. Each cell has row, col, label ("row 1, column 2"), card (or None), centre (bool),
    open (the turned card may go there), move (the JSON a button posts, when this seat may act
    there), advised (the partner's suggested square) and says (its button's accessible name,
    or what an empty square reads aloud).
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
            label = square_name(r, c)
            advised = (r, c) == suggested
            cells.append(
                {
                    "row": r,
                    "col": c,
                    "label": label,
                    "card": card,
                    "centre": (r, c) == centre,
                    "open": (r, c) in open_squares,
                    "move": None if move is None else json.dumps(move, separators=(",", ":")),
                    "advised": advised,
                    "says": _says(label, action if move else None, advised),
                }
            )
        rows.append({**_total("row", r, running.get("rows")), "cells": cells})
    return {
        "rows": rows,
        "column_totals": [_total("column", c, running.get("columns")) for c in range(SIZE)],
        "action": action,
    }


@register.simple_tag
def deal_sides(last: dict[str, Any] | None, sides: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The finished deal's lines per side: [{"side", "name", "lines": "columns"|"rows",
    "hand_points", "gained", "items": [line...], "crib": {...} or None}]. Each line gains
    "title" ("Column 1") and "count" (its count said aloud, "fifteen 2, a pair is 4")."""
    if not last:
        return []
    out = []
    for index, side in enumerate(sides):
        items = [
            {
                **line,
                "title": line_name(line["kind"], line["number"]),
                "count": _count(line.get("calls"), line["breakdown"]),
            }
            for line in last["lines"]
            if line["side"] == index
        ]
        crib = None
        if last["crib"] and last["dealer"] in side["seats"]:
            crib = {
                "cards": last["crib"],
                "points": last["crib_points"],
                "breakdown": _count(last.get("crib_calls"), last["crib_breakdown"]),
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


def _says(label: str, action: str | None, advised: bool) -> str:
    """A square's accessible name: what its button does, or what an empty square is."""
    if action == "advise":
        text = gettext("Suggest %(square)s") % {"square": label}
    elif action == "place":
        text = gettext("Place on %(square)s") % {"square": label}
    elif advised:
        return gettext("%(square)s: empty, suggested by your partner") % {"square": label}
    else:
        return gettext("%(square)s: empty") % {"square": label}
    if advised:
        text = gettext("%(action)s (your partner's suggestion)") % {"action": text}
    return text


def _total(kind: str, index: int, values: Any) -> dict[str, Any]:
    """One line's total beside the board, with its tooltip and what it reads aloud."""
    fields = {"number": index + 1}
    if kind == "row":
        title, label = gettext("Row %(number)d so far"), gettext("Row %(number)d:")
    else:
        title, label = gettext("Column %(number)d so far"), gettext("Column %(number)d:")
    return {
        "number": index + 1,
        "total": _at(values, index),
        "title": title % fields,
        "label": label % fields,
    }


def _count(calls: Any, english: str) -> str:
    """A count in the active language from its calls; the engine's words for old counts."""
    return count_text(calls) if isinstance(calls, list) else english


def _at(values: Any, index: int) -> Any:
    try:
        return values[index]
    except (TypeError, IndexError):
        return ""
