"""The drawn cribbage board, and what the Cribbage table's templates ask of the legal moves.

Pegboard::

    {% load cribbage_table %}
    {% pegboard view.sides view.options.target names %}
    {% pegboard view.sides 61 names colors %}

    sides  = [{"seats": [0], "score": 37, "back_peg": 31, "games_won": 0}, ...]
             exactly the rules engine's view["sides"]: 2 or 3 entries (4 work too); only
             "score" and "back_peg" are read (a missing "back_peg" counts as 0)
    target = 121 (the default) or 61; scores are kept within 0..target
    names  = ["Alice", "Bob"] or ["Alice & Carl", "Bob & Dana"], one per side, same order
             (a missing name reads "Side 1", "Side 2"...)
    colors = optional CSS colours, one per side; default PALETTE: red, blue, green

It renders a <figure class="pegboard">: an <svg role="img" aria-label="Alice 37, Bob 52, game
to 121"> (width 100%, up to 36rem) and a <figcaption> with each side's colour, name, score and
last peg ("+6") in text, beside the board when there is room and under it when not. Each track
snakes through streets of 30 holes (four for 121, two for 61) from two start holes to a finish
hole. The parts that never move (wood, streets, routes, holes, hole numbers) are a static file
per target and number of sides, static/games/cribbage/pegboard-121-3.svg, shown by an <image>
under the pegs in the same viewBox, so a move sends only the pegs and scores (~0.5 KB a side).
In it each hole is a <circle class="pb-hole" data-hole="37"> of a <g class="pb-track"
data-side="0">; score 0 is in a start hole (data-hole="0"), the target in the finish hole. Each
peg is a <circle class="pb-peg pb-peg-front|pb-peg-back" data-side="0" data-score="37"> on its
hole's centre; a front peg whose last move went round a turn of the board names the holes at the
turn (data-via="x,y x,y"), so static/js/motion.js moves it along the track. Colours other than
the PALETTE's draw the fixed parts inline instead (cached).
Bad input (a target other than 121 or 61, no sides or too many, a score that is not a number)
raises TemplateSyntaxError.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from django import template
from django.templatetags.static import static
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext

from cribsite.kept import Kept
from games.templatetags.cards import draw
from games.variants.cribbage.pegs import pegs_html
from games.variants.cribbage.texts import (
    count_text,
    english_is_active,
    show_callouts,
    skunk_text,
)

register = template.Library()

PALETTE = ("#c0392b", "#2c6fbb", "#2e8b57", "#7b3fa0")  # red, blue, green (as match.css), purple

# Board geometry, in viewBox units.
STREET = 30  # holes in a street (one row of a track)
PITCH = 10.0  # hole to hole along a street
GROUP_GAP = 5.0  # extra space between groups of five holes
ROW = 12.0  # track to track within a street
GAP = 12.0  # between streets; the hole numbers of the street below are written there
MARGIN = 8.0
START = 2 * PITCH + GROUP_GAP  # room left of the streets for the start and finish holes

# The static files of the fixed drawing: every target and number of sides the tag draws.
STATIC_FOLDER = Path(__file__).resolve().parents[4] / "static" / "games" / "cribbage"
FIXED_SHAPES = [(target, count) for target in (61, 121) for count in range(1, len(PALETTE) + 1)]


def _num(value: float) -> int | float:
    return int(value) if float(value).is_integer() else round(value, 2)


@register.simple_tag
def pegboard(
    sides: Sequence[Mapping[str, Any]],
    target: int = 121,
    names: Sequence[str] | None = None,
    colors: Sequence[str] | None = None,
) -> SafeString:
    """A drawn cribbage board with two pegs per side, and the scores in text. The same for every
    viewer: drawn once for each set of pegs, names and language (most moves peg nothing)."""
    try:
        key = (
            tuple((side.get("score", 0), side.get("back_peg", 0)) for side in sides),
            target,
            tuple(names or ()),
            tuple(colors or ()),
            get_language(),
        )
        hash(key)
    except (AttributeError, TypeError):  # bad input: board_layout says what is wrong
        key = None
    drawn = _boards.get(key) if key is not None else None
    if drawn is None:
        drawn = _pegboard(sides, target, names, colors)
        if key is not None:
            _boards.put(key, drawn)
    return drawn


BOARDS_KEPT = 2048
_boards = Kept(BOARDS_KEPT)


def _pegboard(sides, target, names, colors) -> SafeString:
    board = board_layout(sides, target, names, colors, holes=False)
    shape = (board["target"], len(board["tracks"]))
    drawn = tuple(t["color"] for t in board["tracks"])
    if drawn == PALETTE[: len(drawn)]:  # the static file under the pegs: not sent every move
        return pegs_html(board, fixed_url=static(fixed_drawing_path(*shape)))
    # colours of the caller's own: the fixed drawing inline, drawn once per shape
    return pegs_html(board, fixed=_fixed_drawing(*shape, drawn))


def fixed_drawing_path(target: int, count: int) -> str:
    """The static file of the board's fixed drawing, for `count` sides in the palette's colours."""
    return f"games/cribbage/pegboard-{target}-{count}.svg"


def fixed_drawing(target: int, count: int, colors: Sequence[str] = PALETTE) -> str:
    """The wood, the holes, the routes and the hole numbers of a board, as an SVG document: the
    same for every board of this target, number of sides and colours."""
    return str(_fixed_drawing(target, count, tuple(colors))) + "\n"


def write_fixed_drawings(folder: Path = STATIC_FOLDER) -> list[Path]:
    """Write every board's fixed drawing into static/games/cribbage/ (run after changing the
    board's geometry or pegboard_fixed.svg.html; a test checks the files are up to date):
    ``PYTHONPATH=. DJANGO_SETTINGS_MODULE=cribsite.test_settings python -c "import django;
    django.setup(); from games.variants.cribbage.templatetags import cribbage_table as t;
    t.write_fixed_drawings()"``"""
    written = []
    for target, count in FIXED_SHAPES:
        path = folder / Path(fixed_drawing_path(target, count)).name
        path.write_text(fixed_drawing(target, count), encoding="utf-8")
        written.append(path)
    return written


@functools.lru_cache(maxsize=64)
def _fixed_drawing(target: int, count: int, colors: tuple[str, ...]) -> SafeString:
    board = board_layout([{"score": 0}] * count, target, None, colors)
    return draw("games/cribbage/pegboard_fixed.svg.html", {"board": board})


def board_layout(
    sides: Sequence[Mapping[str, Any]],
    target: int = 121,
    names: Sequence[str] | None = None,
    colors: Sequence[str] | None = None,
    *,
    holes: bool = True,
) -> dict[str, Any]:
    """Where every hole and peg goes: the pegboard template only draws what this returns.
    With holes=False the tracks' hole lists are left empty (the fixed drawing has them).

    Each track snakes through streets of 30 holes, four streets for 121 and two for 61: street 0
    runs left to right (holes 1..30), street 1 right to left (31..60), and so on. Two start holes
    sit left of street 0 and the finish hole left of the last street. The tracks nest at every
    turn like a real board's, so the order of the rows flips from street to street: side 0 is
    the top row of streets 0 and 2 and the bottom row of streets 1 and 3.
    """
    try:
        target = int(target)
    except (TypeError, ValueError):
        raise template.TemplateSyntaxError(f"pegboard: target {target!r} is not a number") from None
    if target < 61 or (target - 1) % (2 * STREET):
        raise template.TemplateSyntaxError(f"pegboard: a board goes to 121 or 61, not {target}")
    count = len(sides)
    if not 1 <= count <= len(PALETTE):
        raise template.TemplateSyntaxError(
            f"pegboard: draws 2 or 3 sides (at most {len(PALETTE)}), not {count}"
        )
    names = list(names or [])
    colors = list(colors or [])
    streets = (target - 1) // STREET
    street_h = count * ROW

    def col_x(col: int) -> float:
        return MARGIN + START + col * PITCH + (col // 5) * GROUP_GAP + PITCH / 2

    def street_top(street: int) -> float:
        return MARGIN + GAP + street * (street_h + GAP)

    def row_y(street: int, side: int) -> float:
        order = side if street % 2 == 0 else count - 1 - side
        return street_top(street) + order * ROW + ROW / 2

    left_x = col_x(0) - PITCH / 2
    right_x = col_x(STREET - 1) + PITCH / 2

    def turn_rx(street: int, side: int) -> float:
        """The turn after `street`: side 0 goes round the outside on the right."""
        return 4 + 5 * ((count - 1 - side) if street % 2 == 0 else side)

    width = right_x + turn_rx(0, 0) + MARGIN + 2
    height = street_top(streets) - GAP + MARGIN

    def hole_xy(side: int, hole: int, peg: str = "front") -> tuple[float, float]:
        """The centre of hole `hole` (0 = start, target = finish) of `side`'s track."""
        if hole <= 0:  # two start holes: the front peg's is nearer the track
            return (MARGIN + (1.5 if peg == "front" else 0.5) * PITCH, row_y(0, side))
        if hole >= target:
            return (MARGIN + PITCH, row_y(streets - 1, side))
        street, pos = divmod(hole - 1, STREET)
        return (col_x(pos if street % 2 == 0 else STREET - 1 - pos), row_y(street, side))

    tracks = []
    pegs_back, pegs_front = [], []
    for side, data in enumerate(sides):
        score = _clamp(data.get("score", 0), target)
        back = _clamp(data.get("back_peg", 0), target)
        color = colors[side] if side < len(colors) and colors[side] else PALETTE[side]
        if side < len(names) and names[side]:
            name = str(names[side])
        else:
            name = gettext("Side %(number)d") % {"number": side + 1}
        track_holes = [
            {"n": n, "x": _num(x), "y": _num(y)}
            for n in range(1, target if holes else 1)  # only the fixed drawing needs them
            for x, y in [hole_xy(side, n)]
        ]
        starts = [hole_xy(side, 0, "front"), hole_xy(side, 0, "back")]
        finish = hole_xy(side, target)
        legs = []  # the painted route: along each street, then round the turn
        for street in range(streets):
            end = right_x if street % 2 == 0 else left_x
            leg = {"x": _num(end), "turn": street < streets - 1}
            if leg["turn"]:
                y, next_y = row_y(street, side), row_y(street + 1, side)
                leg |= {
                    "rx": _num(turn_rx(street, side)),
                    "ry": _num((next_y - y) / 2),
                    "sweep": 1 if street % 2 == 0 else 0,
                    "y": _num(next_y),
                }
            legs.append(leg)
        tracks.append(
            {
                "side": side,
                "name": name,
                "color": color,
                "score": score,
                "back_peg": back,
                "gain": score - back if score > back else 0,
                "holes": track_holes,
                "starts": [{"x": _num(x), "y": _num(y)} for x, y in starts],
                "finish": {"x": _num(finish[0]), "y": _num(finish[1]), "n": target},
                "route": {
                    "x0": _num(starts[1][0]),
                    "y0": _num(starts[1][1]),
                    "legs": legs,
                    "finish_x": _num(finish[0]),
                },
            }
        )
        for kind, value, into in (("back", back, pegs_back), ("front", score, pegs_front)):
            x, y = hole_xy(side, value, kind)
            peg = {"side": side, "kind": kind, "score": value, "x": _num(x), "y": _num(y)}
            if kind == "front":  # the turns its last move went round, for the page to follow
                peg["via"] = " ".join(
                    f"{_num(hx)},{_num(hy)}"
                    for n in range(back + 1, score)
                    if n % STREET in (0, 1) and n > 1
                    for hx, hy in [hole_xy(side, n)]
                )
            into.append(peg | {"color": color})

    marks = []  # hole numbers every ten, written just above their street
    for n in range(10, target, 10):
        x, _ = hole_xy(0, n)
        marks.append({"x": _num(x), "y": _num(street_top((n - 1) // STREET) - GAP / 2), "n": n})
    boxes = [  # the sunken strips the holes are drilled in
        {"x": left_x - 3, "y": street_top(street) - 3, "w": right_x - left_x + 6}
        for street in range(streets)
    ]
    boxes.append({"x": MARGIN - 3, "y": street_top(0) - 3, "w": 2 * PITCH + 6})  # start
    boxes.append({"x": MARGIN - 3, "y": street_top(streets - 1) - 3, "w": 2 * PITCH + 6})
    label = (
        ", ".join(f"{t['name']} {t['score']}" for t in tracks)
        + ", "
        + (gettext("game to %(target)d") % {"target": target})
    )
    return {
        "target": target,
        "width": _num(width),
        "height": _num(height),
        "wood_w": _num(width - 2),
        "wood_h": _num(height - 2),
        "label": label,
        "tracks": tracks,
        "pegs": pegs_back + pegs_front,
        "marks": marks,
        "boxes": [{k: _num(v) for k, v in box.items()} for box in boxes],
        "box_h": _num(street_h + 6),
    }


def _clamp(value: Any, target: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise template.TemplateSyntaxError(f"pegboard: score {value!r} is not a number") from None
    return max(0, min(target, number))


@register.simple_tag
def legal_cards(legal_moves: list[dict[str, Any]]) -> set[str]:
    """Every card named by a legal move (`card`), for enabling card buttons."""
    return {m["card"] for m in legal_moves or [] if "card" in m}


@register.simple_tag
def show_breakdown(shown: Mapping[str, Any]) -> str:
    """A shown hand's count said aloud in the page's language ("quince 2, quince 4, par 6"):
    the engine's own words in English, else the words of texts.count_text."""
    if english_is_active() and shown.get("breakdown"):
        return str(shown["breakdown"])
    calls = shown.get("calls")
    return count_text(calls) if calls else gettext("nineteen: nothing to count")


@register.simple_tag
def show_voice(shown: Mapping[str, Any], view: Mapping[str, Any]) -> dict:
    """What the table calls out for a counted hand ("fifteen for 2", "a pair for 2"), and the
    key that names this show (static/js/motion.js says it once, with the hand's name and
    points from the page)."""
    owner, crib = int(shown.get("owner", 0)), int(bool(shown.get("crib")))
    return {
        "key": f"s{view.get('game')}.{view.get('hand_number')}.{owner}.{crib}",
        "items": show_callouts(shown.get("calls") or []),
    }


@register.simple_tag
def skunk_words(level: Any) -> str:
    """ "skunk" or "double skunk" in the page's language, from a side's skunk level."""
    try:
        return skunk_text(int(level))
    except (TypeError, ValueError):
        return ""
