"""The drawn table pieces: the pegboard's pegs land in the right holes, and every card draws."""

from __future__ import annotations

import ast
import math
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.template import Context, Template, TemplateSyntaxError
from django.test import override_settings
from django.utils import translation

from games.engine.pieces.cards import RANKS, SUITS, Card, parse_card
from games.templatetags import cards
from games.variants.cribbage.templatetags import cribbage_table as table

SOURCES = [Path(cards.__file__), Path(table.__file__)]


class Element:
    def __init__(self, tag: str, attrs: dict[str, str], track: str | None) -> None:
        self.tag = tag
        self.attrs = attrs
        self.track = track  # data-side of the enclosing <g class="pb-track">, if any
        self.text = ""

    def __getitem__(self, name: str) -> str:
        return self.attrs[name]

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    @property
    def xy(self) -> tuple[float, float]:
        return (float(self["cx"]), float(self["cy"]))


class Collect(HTMLParser):
    """Every element with its attributes and direct text, in document order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.open: list[Element] = []
        self.tracks: list[str | None] = []

    def handle_starttag(self, tag, attrs):
        element = self._add(tag, attrs)
        if tag == "g":
            self.tracks.append(element.attrs.get("data-side") or self.current_track)
        self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self._add(tag, attrs)

    def handle_endtag(self, tag):
        if tag == "g":
            self.tracks.pop()
        while self.open:
            if self.open.pop().tag == tag:
                break

    def handle_data(self, data):
        if self.open:
            self.open[-1].text += data

    @property
    def current_track(self) -> str | None:
        return self.tracks[-1] if self.tracks else None

    def _add(self, tag, attrs) -> Element:
        element = Element(tag, {k: v or "" for k, v in attrs}, self.current_track)
        self.elements.append(element)
        return element


def parse(html: str) -> list[Element]:
    collector = Collect()
    collector.feed(html)
    collector.close()
    return collector.elements


def render(source: str, **context) -> str:
    return Template("{% load cards cribbage_table %}" + source).render(Context(context))


def side(score: int, back: int, *seats: int) -> dict:
    return {"seats": list(seats or [0]), "score": score, "back_peg": back, "games_won": 0}


def board(sides, target=121, names=None, colors=None) -> str:
    """The pegboard as a page draws it: the tag's fragment, then the static drawing its <image>
    shows under the pegs (the holes), read from the file the page would load."""
    html = render(
        "{% pegboard sides target names colors %}",
        sides=sides,
        target=target,
        names=names or [f"P{i}" for i in range(len(sides))],
        colors=colors,
    )
    return html + "".join(static_file(e["href"]) for e in parse(html) if e.tag == "image")


def static_file(url: str) -> str:
    assert url.startswith(settings.STATIC_URL) or url.startswith("/" + settings.STATIC_URL), url
    found = finders.find(url.split(settings.STATIC_URL, 1)[1])
    assert found, url
    return Path(found).read_text(encoding="utf-8")


def holes_of(elements, track: int) -> dict[int, list[tuple[float, float]]]:
    found: dict[int, list[tuple[float, float]]] = {}
    for e in elements:
        if "pb-hole" in e.classes and e.track == str(track):
            found.setdefault(int(e["data-hole"]), []).append(e.xy)
    return found


def pegs(elements, kind: str) -> dict[int, Element]:
    found = [e for e in elements if f"pb-peg-{kind}" in e.classes]
    return {int(e["data-side"]): e for e in found}


# --- the pegboard ------------------------------------------------------------------------------

CASES = [
    pytest.param([side(37, 31), side(52, 44, 1)], 121, id="two sides"),
    pytest.param([side(0, 0), side(61, 55, 1), side(120, 112, 2)], 121, id="three sides"),
    pytest.param([side(121, 117), side(90, 88, 1)], 121, id="a side pegged out"),
    pytest.param([side(5, 0), side(60, 59, 1), side(91, 85, 2)], 121, id="street ends"),
    pytest.param([side(61, 57, 0, 2), side(30, 22, 1, 3)], 61, id="61 partnerships"),
    pytest.param([side(0, 0), side(1, 0, 1)], 61, id="61 at the start"),
    pytest.param([side(31, 29), side(59, 54, 1), side(60, 58, 2)], 61, id="61 turns"),
]


@pytest.mark.parametrize(("sides", "target"), CASES)
def test_every_peg_sits_in_the_hole_for_its_score(sides, target):
    elements = parse(board(sides, target))
    fronts, backs = pegs(elements, "front"), pegs(elements, "back")
    assert sorted(fronts) == sorted(backs) == list(range(len(sides)))
    for index, data in enumerate(sides):
        holes = holes_of(elements, index)
        for peg, score in ((fronts[index], data["score"]), (backs[index], data["back_peg"])):
            assert int(peg["data-score"]) == score
            assert peg.xy in holes[score], (index, score)


def test_at_zero_both_pegs_are_in_the_two_start_holes():
    elements = parse(board([side(0, 0), side(0, 0, 1), side(0, 0, 2)]))
    for index in range(3):
        starts = holes_of(elements, index)[0]
        assert len(starts) == 2
        placed = {pegs(elements, "front")[index].xy, pegs(elements, "back")[index].xy}
        assert placed == set(starts)


@pytest.mark.parametrize("target", [121, 61])
def test_the_winner_pegs_out_into_the_finish_hole(target):
    elements = parse(board([side(target, target - 6), side(40, 33, 1)], target))
    finish = holes_of(elements, 0)[target]
    assert len(finish) == 1
    assert pegs(elements, "front")[0].xy == finish[0]
    finish_hole = next(e for e in elements if e.attrs.get("data-hole") == str(target))
    assert "pb-finish" in finish_hole.classes


@pytest.mark.parametrize("count", [2, 3])
@pytest.mark.parametrize("target", [121, 61])
def test_each_track_has_every_hole_once_in_groups_of_five(count, target):
    elements = parse(board([side(0, 0, i) for i in range(count)], target))
    every = [e.xy for e in elements if "pb-hole" in e.classes]
    assert len(every) == count * (target + 2)  # 2 start holes, 1..target-1, the finish
    assert len(set(every)) == len(every)  # no two holes drawn on top of each other
    for index in range(count):
        holes = holes_of(elements, index)
        assert sorted(holes) == list(range(target + 1))
        assert all(len(at) == 1 for n, at in holes.items() if n)
        for n in range(1, target - 1):
            (x1, y1), (x2, y2) = holes[n][0], holes[n + 1][0]
            if y1 != y2:  # a turn: it comes after every 30th hole
                assert n % 30 == 0
                continue
            assert math.isclose(abs(x2 - x1), 15 if n % 5 == 0 else 10), n


def test_front_and_back_pegs_differ_and_back_pegs_are_drawn_first():
    elements = parse(board([side(37, 31), side(52, 44, 1)]))
    order = [e for e in elements if "pb-peg" in e.classes]
    assert ["pb-peg-back" in e.classes for e in order] == [True, True, False, False]
    front, back = pegs(elements, "front")[0], pegs(elements, "back")[0]
    assert float(front["r"]) > float(back["r"])
    assert front["fill"] == back["fill"] == table.PALETTE[0]


def test_scores_beyond_the_board_are_kept_on_it():
    elements = parse(board([side(130, 125), side(-4, -9, 1)]))
    assert pegs(elements, "front")[0]["data-score"] == "121"
    assert pegs(elements, "back")[0]["data-score"] == "121"
    assert pegs(elements, "front")[1]["data-score"] == "0"


def test_the_board_reads_the_scores_in_words_and_scales():
    html = board([side(37, 31), side(52, 44, 1)], names=["Alice", "Bob"])
    elements = parse(html)
    svg = next(e for e in elements if e.tag == "svg")
    assert svg["role"] == "img"
    assert svg["aria-label"] == "Alice 37, Bob 52, game to 121"
    assert next(e for e in elements if e.tag == "title").text == "Alice 37, Bob 52, game to 121"
    assert svg["width"] == "100%"
    x, y, w, h = map(float, svg["viewbox"].split())
    assert (x, y) == (0, 0) and w > h > 0


def test_three_sides_read_in_order_and_a_61_board_says_so():
    html = board([side(0, 0), side(61, 55, 1), side(59, 50, 2)], 61, ["A & C", "Bob", "Dee"])
    svg = next(e for e in parse(html) if e.tag == "svg")
    assert svg["aria-label"] == "A & C 0, Bob 61, Dee 59, game to 61"
    assert "A &amp; C 0" in html


def test_names_and_scores_are_printed_as_text_too():
    html = board([side(37, 31), side(52, 52, 1)], names=["Alice & Carl", "Bob & Dana"])
    elements = parse(html)
    rows = [e for e in elements if "pegboard-side" in e.classes]
    assert [r["data-score"] for r in rows] == ["37", "52"]
    names = [e.text.strip() for e in elements if "pegboard-name" in e.classes]
    scores = [e.text.strip() for e in elements if "pegboard-score" in e.classes]
    assert names == ["Alice & Carl", "Bob & Dana"]
    assert scores == ["37", "52"]
    gains = [e for e in elements if "pegboard-gain" in e.classes]
    assert len(gains) == 1  # Bob's pegs are together: nothing was just pegged
    assert "+6" in html


def test_names_are_escaped_and_missing_names_are_filled_in():
    html = render(
        "{% pegboard sides 121 names %}",
        sides=[side(1, 0), side(2, 0, 1)],
        names=["<b>Eve</b>"],
    )
    assert "<b>" not in html
    assert "&lt;b&gt;Eve&lt;/b&gt; 1, Side 2 2, game to 121" in html


def test_colours_come_from_the_palette_unless_given():
    default = parse(board([side(1, 0), side(2, 0, 1), side(3, 0, 2)]))
    assert [pegs(default, "front")[i]["fill"] for i in range(3)] == list(table.PALETTE[:3])
    given = parse(board([side(1, 0), side(2, 0, 1)], colors=["#123456", "orange"]))
    assert [pegs(given, "front")[i]["fill"] for i in range(2)] == ["#123456", "orange"]
    routes = [e["stroke"] for e in given if "pb-route" in e.classes]
    assert routes == ["#123456", "orange"]  # drawn inline: the static files have the palette's


@pytest.mark.parametrize(("target", "count"), table.FIXED_SHAPES)
def test_the_static_drawings_are_up_to_date(target, count):
    path = table.STATIC_FOLDER / Path(table.fixed_drawing_path(target, count)).name
    assert path.read_text(encoding="utf-8") == table.fixed_drawing(target, count), (
        "run cribbage_table.write_fixed_drawings() (see its docstring) and commit the files"
    )


@pytest.mark.parametrize("count", [1, 2, 3, 4])
@pytest.mark.parametrize("target", [121, 61])
def test_a_move_sends_the_pegs_and_scores_not_the_holes(count, target):
    sides = [side(target - 1 - 7 * i, target - 9 - 7 * i, i) for i in range(count)]
    html = render("{% pegboard sides target %}", sides=sides, target=target)
    elements = parse(html)
    assert not [e for e in elements if e.classes & {"pb-hole", "pb-route", "pb-street"}]
    (image,) = [e for e in elements if e.tag == "image"]
    assert image["href"].endswith(f"games/cribbage/pegboard-{target}-{count}.svg")
    svg = next(e for e in elements if e.tag == "svg")
    assert svg["viewbox"] == f"0 0 {image['width']} {image['height']}"  # the same coordinates
    drawing = parse(static_file(image["href"]))
    assert drawing[0]["viewbox"] == svg["viewbox"]
    assert len(pegs(elements, "front")) == len(pegs(elements, "back")) == count
    assert len(html.encode()) < 450 + 550 * count  # was ~9 KB a side with the holes


def test_the_target_defaults_to_121():
    html = render("{% pegboard sides %}", sides=[side(1, 0), side(2, 0, 1)])
    assert "game to 121" in html


@pytest.mark.parametrize(
    ("sides", "target", "message"),
    [
        ([side(1, 0), side(2, 0, 1)], 100, "121 or 61, not 100"),
        ([side(1, 0), side(2, 0, 1)], "many", "not a number"),
        ([], 121, "not 0"),
        ([side(1, 0, i) for i in range(5)], 121, "not 5"),
        ([side("lots", 0), side(2, 0, 1)], 121, "'lots'"),
    ],
)
def test_a_board_it_cannot_draw_is_refused(sides, target, message):
    with pytest.raises(TemplateSyntaxError, match=message):
        board(sides, target)


@override_settings(USE_THOUSAND_SEPARATOR=True)
def test_coordinates_are_never_localised():
    with translation.override("de"):
        html = board([side(37, 31), side(52, 44, 1)])
    for e in parse(html):
        for name in ("cx", "cy", "r", "x", "y", "width", "height"):
            if name in e.attrs and e.attrs[name] != "100%":
                float(e.attrs[name])  # "12,5" would raise
    assert "," not in next(e for e in parse(html) if e.tag == "svg")["viewbox"]


# --- cards ------------------------------------------------------------------------------------

ALL_CARDS = [rank + suit for suit in SUITS for rank in RANKS]


@pytest.mark.parametrize("code", ALL_CARDS)
def test_every_card_draws_its_code_and_name(code):
    html = render("{% card code %}", code=code)
    elements = parse(html)
    root = elements[0]
    assert root.tag == "span"
    assert {"card", "playing-card"} <= root.classes
    assert root["role"] == "img"
    assert root["aria-label"] == parse_card(code).name
    assert root["data-card"] == code
    assert len(elements) == 1  # one span: table.css draws its corners and pip from data-card


def test_a_card_is_only_spans_so_it_fits_in_a_button():
    for source in ('{% card "QS" %}', '{% card "QS" size="small" %}', "{% card_back %}"):
        html = render(source)
        assert {e.tag for e in parse(html)} == {"span"}
        assert html == html.strip()


@pytest.mark.parametrize(
    ("token", "name"), [("10d", "ten of diamonds"), (" js ", "jack of spades")]
)
def test_the_engine_notation_is_accepted(token, name):
    assert f'aria-label="{name}"' in render("{% card token %}", token=token)


def test_a_card_object_is_accepted():
    assert 'aria-label="ace of clubs"' in render("{% card c %}", c=Card(1, "C"))


@pytest.mark.parametrize("token", ["5X", "1H", "11S", "ZZ", "", "5HH"])
def test_bad_notation_is_refused_naming_the_token(token):
    with pytest.raises(TemplateSyntaxError, match=f"'{token}' is not a card"):
        render("{% card token %}", token=token)


def test_a_literal_bad_card_is_refused_too():
    with pytest.raises(TemplateSyntaxError, match="'QX' is not a card"):
        render('{% card "QX" %}')


def test_sizes_and_extra_classes():
    small = parse(render('{% card "5H" size="small" classes="is-selected" %}'))[0]
    assert {"card-small", "is-selected"} <= small.classes
    assert "card-large" in parse(render('{% card "5H" size="large" %}'))[0].classes
    normal = parse(render('{% card "5H" %}'))[0]
    assert not {"card-small", "card-large"} & normal.classes
    with pytest.raises(TemplateSyntaxError, match="'huge'"):
        render('{% card "5H" size="huge" %}')


def test_the_back_of_a_card():
    back = parse(render("{% card_back %}"))
    assert len(back) == 1
    assert {"card", "playing-card", "card-back"} <= back[0].classes
    assert back[0]["role"] == "img"
    assert back[0]["aria-label"] == "face-down card"
    assert "data-card" not in back[0].attrs
    crib = parse(render('{% card_back size="small" label="the crib, 4 cards" %}'))[0]
    assert crib["aria-label"] == "the crib, 4 cards"
    assert "card-small" in crib.classes


# --- how the markup is made ---------------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.name)
def test_no_markup_is_built_in_python_strings(source):
    tree = ast.parse(source.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for part in node.values:
                if isinstance(part, ast.Constant):
                    assert "<" not in part.value, ast.unparse(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod | ast.Add):
            for operand in (node.left, node.right):
                if isinstance(operand, ast.Constant) and isinstance(operand.value, str):
                    assert "<" not in operand.value, ast.unparse(node)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "mark_safe":
            (argument,) = node.args
            assert "render_to_string" in ast.unparse(argument)
