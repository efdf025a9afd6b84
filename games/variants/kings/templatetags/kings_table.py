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

from typing import Any

from django import template
from django.utils.safestring import SafeString

from games.engine.kings.board import CENTRE
from games.variants.kings import board, texts

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
    return "player" if board.playing(view, seat) else "watcher"


@register.simple_tag
def kings_rows(view: dict[str, Any], seat: int | None) -> SafeString:
    """The board's rows of squares, as HTML (board.board_rows)."""
    return SafeString("\n".join(board.board_rows(view, board.playing(view, seat))))


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
    return texts.tile_words(str(face))


@register.filter
def hand_words(hand: dict[str, Any]) -> str:
    return texts.hand_text(hand)


@register.filter
def bonus_words(bonus: dict[str, Any]) -> str:
    return texts.bonus_text(bonus)
