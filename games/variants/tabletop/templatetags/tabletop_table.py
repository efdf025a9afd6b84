"""What the Table Top (and CrossCrib) table's templates ask of the engine's view.

    {% load tabletop_table %}
    {% layout_grid view as grid %}      rows of squares, each with what may be done there
    {% layout_squares view %}           the layout's squares and line totals, as HTML
    {% deal_sides view.last sides as counted %}  the finished deal's lines grouped by side
    {{ side.lines|lines_word }}         "columns" or "rows" in the reader's language

Only the view for this seat is read, so nothing a seat may not see can reach its page. Every
word these give is in the active language (games/variants/tabletop/texts.py).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext

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
    legal, action = choices(view)
    open_squares = {tuple(sq) for sq in view.get("open_squares", [])}
    suggested = _suggested(view)
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
                    "move": None if move is None else _posted(move),
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


def choices(view: dict[str, Any]) -> tuple[dict[tuple[int, int], dict[str, Any]], str | None]:
    """The squares this seat may choose ({(row, col): the move}) and what choosing one does:
    "place", "advise", or None when it may choose none."""
    legal = {
        (m["row"], m["col"]): m
        for m in view.get("legal_moves", [])
        if m.get("type") in ("place", "advise")
    }
    return legal, next(iter(legal.values()))["type"] if legal else None


@register.simple_tag
def layout_squares(view: dict[str, Any]) -> SafeString:
    """The layout's squares, row by row each followed by its total, then the columns' totals
    and the corner: a card, a button for a square this seat may choose, or an empty square.

    Built here rather than by a template loop, which took most of the board's drawing, done for
    every viewer at every move (tests/web/test_tabletop_squares.py holds this to the template
    loop it replaced, drawn from layout_grid's grid). The squares' words are drawn once a
    language: the empty squares and the line totals' labels whole, a square's button once for
    each move it posts (_Pieces).
    """
    legal, action = choices(view)
    open_squares = {tuple(sq) for sq in view.get("open_squares", [])}
    suggested = _suggested(view)
    centre = tuple(view.get("centre", (2, 2)))
    running = view.get("running", {})
    pieces = _pieces(get_language())
    lines = []
    for r, cards in enumerate(view["board"]):
        for c, card in enumerate(cards):
            square = (r, c)
            advised = square == suggested
            if card:
                lines.append(pieces.card(r, c, card, square == centre))
            elif square in legal:
                lines.append(pieces.button(r, c, legal[square], action, advised))
            else:
                lines.append(pieces.empty[r, c, square in open_squares, advised])
        lines.append(f"{pieces.row_totals[r]}{_points(running.get('rows'), r)}</div>")
    lines.append(
        "".join(
            f"{pieces.column_totals[c]}{_points(running.get('columns'), c)}</div>"
            for c in range(SIZE)
        )
    )
    lines.append('<div class="tt-total tt-corner" aria-hidden="true"></div>')
    return SafeString("\n".join(lines))


STAR = '<span class="tt-advice" aria-hidden="true">\u2605</span>'
BUTTONS_KEPT = 1000  # a language's buttons: 25 squares, two actions, suggested or not
CARDS_KEPT = 3000  # a language's squares with a card: 25 squares, 52 cards


class _Pieces:
    """The layout's squares and line totals in the active language, drawn once: each empty
    square (reachable or not, suggested or not) and each total up to its points at once, each
    square's button for a move and each card on a square as first asked for."""

    def __init__(self) -> None:
        self.words = _words()
        self.coin = '<span class="tt-coin" title="{}" aria-hidden="true"></span>'.format(
            gettext("centre card")  # a {% translate %}: as written
        )
        self.empty = {
            (r, c, reachable, advised): self._empty(r, c, reachable, advised)
            for r in range(SIZE)
            for c in range(SIZE)
            for reachable in (False, True)
            for advised in (False, True)
        }
        self.row_totals = [self._total("row", r, "team-1") for r in range(SIZE)]
        self.column_totals = [self._total("column", c, "team-0") for c in range(SIZE)]
        self._buttons: dict[tuple, str] = {}
        self._cards: dict[tuple, str] = {}

    def card(self, r: int, c: int, card: str, centre: bool) -> str:
        key = (r, c, card, centre)
        drawn = self._cards.get(key)
        if drawn is None:
            drawn = (
                f'<div class="tt-cell has-card{" is-centre" if centre else ""}" data-row="{r}"'
                f' data-col="{c}">{card_html(card)}{self.coin if centre else ""}</div>'
            )
            if len(self._cards) < CARDS_KEPT:
                self._cards[key] = drawn
        return drawn

    def button(self, r: int, c: int, move: dict[str, Any], action: str, advised: bool) -> str:
        key = (r, c, tuple(move.items()), action, advised)
        drawn = self._buttons.get(key)
        if drawn is None:
            says = _says(self._label(r, c), action, advised, self.words)
            drawn = (
                f'<button type="submit" name="move" value="{escape(_posted(move))}" '
                f'class="tt-cell tt-square is-open{" is-advised" if advised else ""}" '
                f'data-row="{r}" data-col="{c}" aria-label="{escape(says)}">'
                f"{STAR if advised else ''}</button>"
            )
            if len(self._buttons) < BUTTONS_KEPT:
                self._buttons[key] = drawn
        return drawn

    def _empty(self, r: int, c: int, reachable: bool, advised: bool) -> str:
        says = _says(self._label(r, c), None, advised, self.words)
        return (
            f'<div class="tt-cell tt-square{" is-reachable" if reachable else ""}'
            f'{" is-advised" if advised else ""}" data-row="{r}" data-col="{c}">'
            f'<span class="sr-only">{escape(says)}</span>{STAR if advised else ""}</div>'
        )

    def _total(self, kind: str, index: int, team: str) -> str:
        line = _total(kind, index, None, self.words)
        return (
            f'<div class="tt-total {team}" title="{escape(line["title"])}"><span class="sr-only">'
            f"{escape(line['label'])} </span>"
        )

    def _label(self, r: int, c: int) -> str:
        return self.words["square"] % {"row": r + 1, "col": c + 1}


@lru_cache(maxsize=16)
def _pieces(language: str) -> _Pieces:
    """The layout's pieces in `language` (the active one: it is the key)."""
    return _Pieces()


def _posted(move: dict[str, Any]) -> str:
    """The JSON a square's button posts."""
    return json.dumps(move, separators=(",", ":"))


def _points(values: Any, index: int) -> str:
    """A line's points so far, as `{{ total }}` writes them."""
    points = _at(values, index)
    return str(points) if type(points) is int else escape(points)


def _suggested(view: dict[str, Any]) -> tuple[int, int] | None:
    advice = view.get("advice")
    return (advice["row"], advice["col"]) if advice else None


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
