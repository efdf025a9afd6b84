"""What the Table Top (and CrossCrib) table's templates ask of the engine's view.

    {% load tabletop_table %}
    {% layout_grid view as grid %}      rows of squares, each with what may be done there
    {% layout_squares grid %}           the grid's squares and line totals, as HTML
    {% deal_sides view.last sides as counted %}  the finished deal's lines grouped by side
    {{ side.lines|lines_word }}         "columns" or "rows" in the reader's language

Only the view for this seat is read, so nothing a seat may not see can reach its page. Every
word these give is in the active language (games/variants/tabletop/texts.py).
"""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from games.templatetags.cards import card as card_html
from games.variants.cribbage.texts import count_text
from games.variants.tabletop.texts import line_name, lines_word

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
    words = _words()
    rows = []
    for r, cards in enumerate(view["board"]):
        cells = []
        for c, card in enumerate(cards):
            move = legal.get((r, c))
            label = words["square"] % {"row": r + 1, "col": c + 1}
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
                    "says": _says(label, action if move else None, advised, words),
                }
            )
        rows.append({**_total("row", r, running.get("rows"), words), "cells": cells})
    return {
        "rows": rows,
        "column_totals": [_total("column", c, running.get("columns"), words) for c in range(SIZE)],
        "action": action,
    }


@register.simple_tag
def layout_squares(grid: dict[str, Any]) -> SafeString:
    """The layout's squares, row by row each followed by its total, then the columns' totals
    and the corner: a card, a button for a square this seat may choose, or an empty square.

    Built here rather than by a template loop, which took most of the board's drawing, done for
    every viewer at every move (tests/web/test_tabletop_squares.py holds this to the template
    it replaces).
    """
    coin = '<span class="tt-coin" title="{}" aria-hidden="true"></span>'.format(
        gettext("centre card")  # a {% translate %}: as written
    )
    star = '<span class="tt-advice" aria-hidden="true">\u2605</span>'
    lines = []
    for row in grid["rows"]:
        for cell in row["cells"]:
            where = f'data-row="{cell["row"]}" data-col="{cell["col"]}"'
            advised = star if cell["advised"] else ""
            if cell["card"]:
                centre = " is-centre" if cell["centre"] else ""
                lines.append(
                    f'<div class="tt-cell has-card{centre}" {where}>{card_html(cell["card"])}'
                    f"{coin if cell['centre'] else ''}</div>"
                )
            elif cell["move"]:
                lines.append(
                    f'<button type="submit" name="move" value="{escape(cell["move"])}" '
                    f'class="tt-cell tt-square is-open{" is-advised" if advised else ""}" '
                    f'{where} aria-label="{escape(cell["says"])}">{advised}</button>'
                )
            else:
                reachable = " is-reachable" if cell["open"] else ""
                lines.append(
                    f'<div class="tt-cell tt-square{reachable}{" is-advised" if advised else ""}"'
                    f' {where}><span class="sr-only">{escape(cell["says"])}</span>{advised}</div>'
                )
        lines.append(_total_cell(row, "team-1"))
    lines.append("".join(_total_cell(column, "team-0") for column in grid["column_totals"]))
    lines.append('<div class="tt-total tt-corner" aria-hidden="true"></div>')
    return SafeString("\n".join(lines))


def _total_cell(line: dict[str, Any], team: str) -> str:
    return (
        f'<div class="tt-total {team}" title="{escape(line["title"])}"><span class="sr-only">'
        f"{escape(line['label'])} </span>{escape(line['total'])}</div>"
    )


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


def _says(label: str, action: str | None, advised: bool, words: dict[str, str]) -> str:
    """A square's accessible name: what its button does, or what an empty square is."""
    if action == "advise":
        text = words["suggest"] % {"square": label}
    elif action == "place":
        text = words["place"] % {"square": label}
    elif advised:
        return words["empty_suggested"] % {"square": label}
    else:
        return words["empty"] % {"square": label}
    if advised:
        text = words["partners"] % {"action": text}
    return text


def _words() -> dict[str, str]:
    """The layout's phrases in the active language, looked up once a board (a look-up costs
    about as much as drawing a square)."""
    return {
        "square": gettext("row %(row)d, column %(col)d"),  # as texts.square_name
        "suggest": gettext("Suggest %(square)s"),
        "place": gettext("Place on %(square)s"),
        "empty_suggested": gettext("%(square)s: empty, suggested by your partner"),
        "empty": gettext("%(square)s: empty"),
        "partners": gettext("%(action)s (your partner's suggestion)"),
        "row_title": gettext("Row %(number)d so far"),
        "row_label": gettext("Row %(number)d:"),
        "column_title": gettext("Column %(number)d so far"),
        "column_label": gettext("Column %(number)d:"),
    }


def _total(kind: str, index: int, values: Any, words: dict[str, str]) -> dict[str, Any]:
    """One line's total beside the board, with its tooltip and what it reads aloud."""
    fields = {"number": index + 1}
    return {
        "number": index + 1,
        "total": _at(values, index),
        "title": words[f"{kind}_title"] % fields,
        "label": words[f"{kind}_label"] % fields,
    }


def _count(calls: Any, english: str) -> str:
    """A count in the active language from its calls; the engine's words for old counts."""
    return count_text(calls) if isinstance(calls, list) else english


def _at(values: Any, index: int) -> Any:
    try:
        return values[index]
    except (TypeError, IndexError):
        return ""
