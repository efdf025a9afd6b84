"""The pegboard's figure, drawn in Python: pegs_html(board, ...) draws what
cribbage_table.board_layout returns (the {% pegboard %} tag keeps each drawing).

It is drawn whenever a score moves, at about one move in four, and the template engine took about
1 ms to draw it. Every text is the catalogue's, with the template's own message id, and every
value is escaped as the template engine escapes it; tests/web/test_pegboard_drawing.py holds the
HTML to the template it replaced (tests/web/pegboard_reference.html), character for character.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.html import strip_spaces_between_tags
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from games.markup import text


def pegs_html(
    board: Mapping[str, Any], *, fixed_url: str | None = None, fixed: str = ""
) -> SafeString:
    """The figure: the pegs over the board's fixed drawing (an <image> of its static file at
    `fixed_url`, else `fixed` itself, drawn already), and each side's score in text."""
    label, width, height = text(board["label"]), text(board["width"]), text(board["height"])
    if fixed_url:
        fixed = f'<image href="{text(fixed_url)}" width="{width}" height="{height}"/>'
    pegs = "".join(
        f'<circle class="pb-peg pb-peg-{text(p["kind"])}" data-side="{text(p["side"])}"'
        f' data-score="{text(p["score"])}" cx="{text(p["x"])}" cy="{text(p["y"])}"'
        f' r="{"4.8" if p["kind"] == "front" else "3.6"}" fill="{text(p["color"])}"'
        + (f' data-via="{text(p["via"])}"' if p.get("via") else "")
        + "/>"
        for p in board["pegs"]
    )
    last_pegged = text(gettext(", last pegged"))
    sides = "".join(
        f'<li class="pegboard-side" data-side="{text(t["side"])}" data-score="{text(t["score"])}">'
        f'<span class="pegboard-swatch" style="background:{text(t["color"])}"></span>'
        f'<span class="pegboard-name">{text(t["name"])} </span>'
        f'<span class="pegboard-score">{text(t["score"])} </span>'
        + (
            f'<span class="pegboard-gain"><span class="table-sr-only">{last_pegged} </span>'
            f"+{text(t['gain'])}</span>"
            if t["gain"]
            else ""
        )
        + "</li>"
        for t in board["tracks"]
    )
    html = (
        f'<figure class="pegboard" data-target="{text(board["target"])}">'
        f'<svg class="pegboard-board" viewBox="0 0 {width} {height}" width="100%" role="img"'
        f' aria-label="{label}" focusable="false"><title>{label}</title>{fixed}'
        f'<g class="pb-pegs">{pegs}</g></svg>'
        f'<figcaption class="pegboard-scores" data-scores><ol class="pegboard-sides">{sides}'
        "</ol></figcaption></figure>"
    )
    # As the template's {% spaceless %}: no white space between tags.
    return mark_safe(strip_spaces_between_tags(html))  # noqa: S308 (every value escaped)
