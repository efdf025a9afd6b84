"""What the Kings Cribbage templates ask of a view: the board's cells and tile labels.

{% load kings_table %}
{% kings_rows view seat %}          the board's 13 rows of squares, as HTML (see kings_rows)
{% kings_viewer view seat as kind %}  "player" or "watcher": the two boards a table draws
{% kings_cells view as rows %}   13 rows of 13 cells, each a dict:
    {"row", "col", "kind": "hole" | "empty" | "tile", "centre": bool,
     "face", "rank" (as printed: A 2..10 J Q K), "suit" ("L" | "D"), "id", "last": bool}
{{ "TD"|tile_rank }} -> "10",  {{ "TD"|suit_word }} -> "dark" (in the reader's language)
{{ hand|hand_words }}   a hand of a previewed lay: "hand 9-10-J: 6 (fifteens 2, runs 3)"
{{ bonus|bonus_words }} "+ 10 bonus (first lay)"
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext

from games.engine.kings.board import CENTRE, HOLES, SIZE
from games.variants.kings import texts

register = template.Library()


@register.simple_tag
def kings_cells(view: dict[str, Any]) -> list[list[dict[str, Any]]]:
    last = view.get("last") or {}
    recent = {tuple(square) for square in last.get("squares", [])}
    rows = []
    for r, row in enumerate(view.get("board", [])):
        cells = []
        for c, cell in enumerate(row):
            item: dict[str, Any] = {"row": r, "col": c, "centre": (r, c) == CENTRE}
            if cell == "#":
                item["kind"] = "hole"
            elif cell is None:
                item["kind"] = "empty"
            else:
                face = cell["face"]
                item.update(
                    kind="tile",
                    face=face,
                    id=cell["id"],
                    rank=tile_rank(face),
                    suit=face[1],
                    last=(r, c) in recent,
                )
            cells.append(item)
        rows.append(cells)
    return rows


@register.simple_tag
def kings_viewer(view: dict[str, Any], seat: int | None) -> str:
    """Which of the two boards a viewer gets: "player" (a seat while tiles are being laid: the
    empty squares are buttons) or "watcher" (a spectator, or anyone once the game is over)."""
    return "player" if _playable(view, seat) else "watcher"


def _playable(view: dict[str, Any], seat: int | None) -> bool:
    return seat is not None and view.get("phase") == "play"


@register.simple_tag
def kings_rows(view: dict[str, Any], seat: int | None) -> SafeString:
    """The board's rows, each square a grid cell with its label: a hole, a tile (outlined when
    just laid) or an empty square (a button for a seated player while tiles are being laid).

    Built here rather than by a template loop: with 169 squares, each labelled in the reader's
    language, the template engine took about 9 ms a board, drawn for every viewer at every move
    (tests/web/test_kings_rows.py holds this to the template it replaces, square by square).
    Empty squares and holes, most of a board, are drawn once for each language and kind of
    viewer (_bare_squares).
    """
    bare = _bare_squares(get_language(), _playable(view, seat))
    tile_label = gettext("Row %(row)s, column %(col)s: %(colour)s %(rank)s")
    just_laid = gettext(", just laid")
    colours = {"L": escape(gettext("light")), "D": escape(gettext("dark"))}
    last = view.get("last") or {}
    recent = {tuple(square) for square in last.get("squares", [])}
    lines = []
    for r, row in enumerate(view.get("board", [])):
        lines.append('<div class="kings-row" role="row">')
        for c, cell in enumerate(row):
            if cell is None or cell == "#":
                lines.append(bare[r][c])
                continue
            face = cell["face"]
            rank = escape(tile_rank(face))
            suit = escape(face[1])
            laid = (r, c) in recent
            label = tile_label % {
                "row": r + 1,
                "col": c + 1,
                "colour": colours.get(face[1], ""),
                "rank": rank,
            }
            underlined = " underlined" if rank in ("6", "9") else ""
            lines.append(
                f'<span class="sq sq-tile suit-{suit}{" is-last" if laid else ""}" role="gridcell"'
                f' data-row="{r}" data-col="{c}" aria-label="{label}{just_laid if laid else ""}">'
                f'<span class="tile-rank{underlined}">{rank}</span></span>'
            )
        lines.append("</div>")
    return SafeString("\n".join(lines))


@lru_cache(maxsize=16)
def _bare_squares(language: str, playable: bool) -> tuple[tuple[str, ...], ...]:
    """Each square of the board drawn empty (a hole where the corner is missing), in `language`
    (the active one: it is the key), as buttons when `playable`."""
    hole = '<span class="sq sq-hole" role="gridcell" aria-label="{}"></span>'.format(
        gettext("No square (the board's corner)")  # a {% translate %}: as written
    )
    empty_label = gettext("Row %(row)s, column %(col)s, empty")
    centre = " " + gettext("(centre)")
    empty_tag = (
        '<button type="button" class="sq sq-empty{c}" role="gridcell" tabindex="-1" '
        'data-row="{r}" data-col="{k}" aria-label="{label}{centre}"></button>'
        if playable
        else '<span class="sq sq-empty{c}" role="gridcell" aria-label="{label}"></span>'
    )
    rows = []
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            mid = (r, c) == CENTRE
            row.append(
                hole
                if (r, c) in HOLES
                else empty_tag.format(
                    c=" is-centre" if mid else "",
                    r=r,
                    k=c,
                    label=empty_label % {"row": r + 1, "col": c + 1},
                    centre=centre if mid else "",
                )
            )
        rows.append(tuple(row))
    return tuple(rows)


@register.filter
def tile_rank(face: str) -> str:
    """The rank as printed on a tile: '10' for T."""
    rank = str(face)[:1]
    return "10" if rank == "T" else rank


@register.filter
def suit_word(face: str) -> str:
    """The colour of a face ("7L") or of a suit letter ("L"), in the reader's language."""
    return texts.colour_word(str(face)[1:2] or str(face))


@register.filter
def tile_words(face: str) -> str:
    """A tile by its colour and rank: "light 7" ("7 clara")."""
    return gettext("%(colour)s %(rank)s") % {
        "colour": texts.colour_word(str(face)),
        "rank": tile_rank(face),
    }


@register.filter
def hand_words(hand: dict[str, Any]) -> str:
    return texts.hand_text(hand)


@register.filter
def bonus_words(bonus: dict[str, Any]) -> str:
    return texts.bonus_text(bonus)
