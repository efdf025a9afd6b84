"""The Kings Cribbage board region, drawn in Python (named in the game's WebGame.regions):
board_region(context) reads the match page's context for the region (view, seat, names, seats,
web, oob). It is drawn in parts (fragments.Parted: the scores, each row, the notes), and a push
sends only the parts a move changed.

The board is drawn at every move for every viewer, and the template engine took about 0.8 ms a
viewer to draw it or to find it in its `{% cache %}` block. The board is the same for every
seat while tiles are laid (its empty squares are buttons) and for every spectator (and for
everyone once the game is over): it is drawn once for each of the two kinds of viewer, keyed by
every entry of the view it shows, the names, what the table calls out and the language
(`_boards`), and a row of squares a move left alone is not drawn again (`_rows`). Every text is
the catalogue's, with the template's own message ids, and every value is escaped as the
template engine escapes it; tests/web/test_kings_regions.py holds the HTML to the template
partial it replaced (tests/web/kings_board_reference.html), line for line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from django.utils.html import escape
from django.utils.translation import get_language, gettext, ngettext

from cribsite.kept import Kept
from games.engine.kings.board import CENTRE, HOLES, SIZE
from games.fragments import OUT_OF_BAND, Parted
from games.markup import text
from games.templatetags.match_tags import at
from games.templatetags.voice import callouts
from games.variants.kings import texts

# The view's small entries the board shows besides its squares (all public: every viewer's view
# holds the same values), written into the key of a drawing as they are.
SHOWN_FIELDS = (
    "last", "rack_sizes", "scores", "bag", "turn", "closing", "first_lay", "options", "phase",
    "racks", "penalties",
)  # fmt: skip
BOARDS_KEPT = 1024
ROWS_KEPT = 8192
_boards = Kept(BOARDS_KEPT)
_rows = Kept(ROWS_KEPT)
boards_drawn = 0  # drawings made, not taken from _boards (for tests)


def board_region(context: Mapping[str, Any]) -> Parted:
    """The match page's board region: the scores and racks' sizes, the 13 rows of squares, and
    its notes: what the table calls out for the last move, the last move in words and, once the
    game is over, the tiles left on the racks.

    Drawn in parts (fragments.Parted): the scores, each row and the notes, so that a push after
    a lay sends the scores, the notes and the row or two the tiles went into, not all 169
    squares (about 27 KB to read, against 2-4 KB)."""
    view = context["view"]
    playable = playing(view, context.get("seat"))
    names = tuple(context.get("names") or ())
    callout = callouts(context)
    oob = bool(context.get("oob"))
    key = (
        get_language(),
        oob,
        playable,
        names,
        repr([view.get(field) for field in SHOWN_FIELDS]),
        square_faces(view),
        repr(callout),
    )
    drawn = _boards.get(key)
    if drawn is None:
        drawn = _board_html(view, playable, names, callout, oob)
        global boards_drawn
        boards_drawn += 1
        _boards.put(key, drawn)
    return drawn


def playing(view: Mapping[str, Any], seat: int | None) -> bool:
    """Whether the viewer's empty squares are buttons: a seat, while tiles are being laid."""
    return seat is not None and view.get("phase") == "play"


def square_faces(view: Mapping[str, Any]) -> tuple:
    """What the board's squares show: each tile's face (None for an empty square or a hole)."""
    return tuple(
        tuple([None if cell is None or cell == "#" else cell["face"] for cell in row])
        for row in view.get("board", ())
    )


def _board_html(view, playable: bool, names: Sequence[str], callout, oob: bool) -> Parted:
    """The whole region in its parts."""
    words = _phrases(get_language())
    head = (
        f'<section id="board" class="board kings"{OUT_OF_BAND if oob else ""}'
        f' aria-label="{words["board"]}">'
    )
    info = "\n".join(
        [
            f'<ul id="kings-info" class="kings-info small" aria-label="{words["scores"]}"'
            " data-scores>",
            _bag_line(view),
            _score_lines(view, names),
            "</ul>",
        ]
    )
    grid = _grid_opening(view)
    rows = board_rows(view, playable)
    notes = []
    said = callout["said"]
    if said:
        notes.append("".join(_callout_line(callout["key"], one) for one in said))
    if view.get("last"):
        notes.append(f'<p class="kings-last small muted">{_last_words(view["last"], names)}</p>')
    if view.get("racks"):
        notes += _racks_left(view, names)
    notes_html = "\n".join(['<div id="kings-notes" class="kings-notes">', *notes, "</div>"])
    html = "\n".join([head, info, grid, *rows, "</div>", notes_html, "</section>"])
    parts = (
        ("kings-info", info),
        *((f"kings-row-{r}", row) for r, row in enumerate(rows)),
        ("kings-notes", notes_html),
    )
    return Parted.of(html, f"{head}\n{grid}", parts)


def _bag_line(view) -> str:
    count = view.get("bag")
    bag = ngettext(
        "Bag: <strong>%(count)s</strong> tile", "Bag: <strong>%(count)s</strong> tiles", count
    ) % {"count": text(count)}
    return f'<li><span class="kings-bag" aria-hidden="true"></span> {bag}</li>'


def _score_lines(view, names: Sequence[str]) -> str:
    """Each seat's name, score and rack size, the seat to lay marked."""
    turn = None if view.get("closing") else view.get("turn")
    words = _phrases(get_language())
    to_lay = f' <span class="sr-only">{words["to lay"]}</span>'
    lines = []
    for seat, size in enumerate(view.get("rack_sizes") or ()):
        tiles = ngettext("%(count)s tile", "%(count)s tiles", size) % {"count": text(size)}
        lines.append(
            f'<li class="team-{seat}{" is-turn" if seat == turn else ""}">'
            f'<span class="kings-name">{text(at(names, seat))}</span>'
            f' <strong class="kings-score">{text(at(view.get("scores"), seat))}</strong>'
            f'<span class="sr-only"> {words["points"]}</span>'
            f' <span class="kings-rack-size">({tiles})</span>{to_lay if seat == turn else ""}</li>'
        )
    return "".join(lines)


def _grid_opening(view) -> str:
    """The grid's element, with the words the page's script labels tentative tiles with."""
    options = view.get("options") or {}
    centre = " centre-start" if view.get("first_lay") and options.get("centre_start") else ""
    words = _phrases(get_language())
    return (
        f'<div class="kings-board{centre}" role="grid" aria-label="{words["grid"]}"'
        f' data-kings-board data-label-empty="{words["empty"]}"'
        f' data-label-tentative="{words["tentative"]}"'
        f' data-word-light="{words["light"]}" data-word-dark="{words["dark"]}">'
    )


@lru_cache(maxsize=16)
def _phrases(language: str) -> dict[str, str]:
    """The board's fixed words in `language` (the active one: it is the key), escaped: looked up
    once, not at every move (a lookup in the catalogue costs a few microseconds)."""
    words = {
        "board": gettext("The board"),
        "scores": gettext("Scores and tiles"),
        "points": gettext("points"),
        "to lay": gettext("(to lay)"),
        "grid": gettext("Board, 13 rows by 13 columns; row 1 at the top"),
        "empty": gettext("Row {row}, column {col}, empty"),
        "tentative": gettext(
            "Row {row}, column {col}: your {colour} {rank}, not laid yet (press to take it back)"
        ),
        "light": gettext("light"),
        "dark": gettext("dark"),
    }
    return {name: escape(word) for name, word in words.items()}


def _callout_line(key: str, said: Mapping[str, Any]) -> str:
    """One seat's points for the last move, as games/callout.html writes them."""
    return (
        f'<p class="callout team-{text(said["team"])}" data-voice="{text(key)}">'
        f'<strong aria-hidden="true">+{text(said["points"])}</strong> <span class="say">'
        f"{text(said['who'])}: {text(said['text'])}</span></p>"
    )


def _last_words(last: Mapping[str, Any], names: Sequence[str]) -> str:
    """ "Last move: Ana laid 3 tiles (outlined).", "... exchanged 2 tiles.", "... passed."."""
    name = text(at(names, last.get("seat")))
    if last.get("kind") == "lay":
        count = len(last.get("squares") or ())
        said = ngettext(
            "Last move: %(name)s laid %(count)s tile (outlined).",
            "Last move: %(name)s laid %(count)s tiles (outlined).",
            count,
        )
    elif last.get("kind") == "exchange":
        count = last.get("count")
        said = ngettext(
            "Last move: %(name)s exchanged %(count)s tile.",
            "Last move: %(name)s exchanged %(count)s tiles.",
            count,
        )
    else:
        return gettext("Last move: %(name)s passed.") % {"name": name}
    return said % {"name": name, "count": text(count)}


def _racks_left(view, names: Sequence[str]) -> list[str]:
    """Once the game is over: the tiles left on each rack, and what they cost."""
    none = escape(gettext("no tiles"))
    lines = []
    for seat, rack in enumerate(view["racks"]):
        tiles = "".join(rack_tile(tile["face"], "tile tile-small") for tile in rack) or none
        penalty = text(at(view.get("penalties"), seat))
        lines.append(
            f'<li>{text(at(names, seat))}: {tiles} <span class="muted">(−{penalty})</span></li>'
        )
    label = escape(gettext("Tiles left on the racks"))
    title = escape(gettext("Left on the racks"))
    return [
        f'<section class="kings-racks" aria-label="{label}">',
        f"<h2>{title}</h2>",
        f"<ul>{''.join(lines)}</ul>",
        "</section>",
    ]


def rack_tile(face: str, kind: str) -> str:
    """A tile by itself, named for screen readers: <span class="tile ... suit-L">7</span>."""
    return (
        f'<span class="{kind} suit-{text(face[1:])}" aria-label="{text(texts.tile_words(face))}">'
        f"{text(texts.tile_rank(face))}</span>"
    )


# --- the squares ----------------------------------------------------------------------------


def board_rows(view: Mapping[str, Any], playable: bool) -> list[str]:
    """The board's 13 rows as HTML, each square a grid cell with its label: a hole, a tile
    (outlined when just laid) or an empty square (a button for a seated player while tiles are
    being laid).

    Built here rather than by a template loop: with 169 squares, each labelled in the reader's
    language, the template engine took about 9 ms a board (tests/web/test_kings_rows.py holds
    this to the template it replaces, square by square). A row is kept by what it shows: a move
    changes a row or two, and the others are not drawn again; empty squares and holes, most of a
    board, are drawn once for each language and kind of viewer (_bare_squares). A square says
    where it is by its place (its row's id, kings-row-N, and its place in the row), not by
    attributes of its own: they were a fifth of a whole board's bytes on the wire.
    """
    language = get_language()
    last = view.get("last") or {}
    recent: dict[int, list[int]] = {}
    for r, c in last.get("squares", ()):
        recent.setdefault(r, []).append(c)
    rows = []
    for r, row in enumerate(view.get("board", ())):
        faces = tuple([None if cell is None or cell == "#" else cell["face"] for cell in row])
        key = (language, playable, r, faces, tuple(recent.get(r, ())))
        html = _rows.get(key)
        if html is None:
            html = _row_html(r, faces, set(recent.get(r, ())), playable)
            _rows.put(key, html)
        rows.append(html)
    return rows


def _row_html(r: int, faces: Sequence[str | None], laid: set[int], playable: bool) -> str:
    """Row `r` of the board, `laid` the columns of the tiles just laid."""
    language = get_language()
    bare, words = _bare_squares(language, playable)[r], _tile_words(language)
    squares = [f'<div id="kings-row-{r}" class="kings-row" role="row">']
    for c, face in enumerate(faces):
        squares.append(bare[c] if face is None else _tile_square(r, c, face, c in laid, words))
    squares.append("</div>")
    return "\n".join(squares)


def _tile_square(r: int, c: int, face: str, laid: bool, words: dict[str, str]) -> str:
    rank = escape(texts.tile_rank(face))
    label = words["label"] % {
        "row": r + 1,
        "col": c + 1,
        "colour": words.get(face[1], ""),
        "rank": rank,
    }
    just_laid = words["just laid"] if laid else ""
    underlined = " underlined" if rank in ("6", "9") else ""
    return (
        f'<span class="sq sq-tile suit-{escape(face[1])}{" is-last" if laid else ""}"'
        f' role="gridcell" aria-label="{label}{just_laid}">'
        f'<span class="tile-rank{underlined}">{rank}</span></span>'
    )


@lru_cache(maxsize=16)
def _tile_words(language: str) -> dict[str, str]:
    """The words of a tile's label in `language` (the active one: it is the key), its colours
    by suit letter, escaped."""
    return {
        "label": gettext("Row %(row)s, column %(col)s: %(colour)s %(rank)s"),
        "just laid": gettext(", just laid"),
        "L": escape(gettext("light")),
        "D": escape(gettext("dark")),
    }


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
        'aria-label="{label}{centre}"></button>'
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
                    label=empty_label % {"row": r + 1, "col": c + 1},
                    centre=centre if mid else "",
                )
            )
        rows.append(tuple(row))
    return tuple(rows)
