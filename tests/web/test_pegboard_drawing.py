"""The pegboard's figure (pegs and scores) is drawn in Python (games/variants/cribbage/pegs.py),
not by the template engine: character for character the template it replaced
(tests/web/pegboard_reference.html), for boards to 61 and 121, one to four sides, every score and
back peg (turns of the board included), names that need escaping, the site's colours and a
caller's own, in English and Spanish."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.template import Context, Template
from django.templatetags.static import static
from django.utils import translation

from games.variants.cribbage.templatetags import cribbage_table as table

# The template the Python drawing replaced, kept word for word as the reference.
REFERENCE = Template((Path(__file__).parent / "pegboard_reference.html").read_text())
NAMES = ["Alice", "Bob & <Co>", 'Carl\'s "crew"', "Dana"]


def by_the_template(sides, target, names, colors) -> str:
    """What the tag drew before: the template, given what _pegboard gives it."""
    board = table.board_layout(sides, target, names, colors, holes=False)
    shape = (board["target"], len(board["tracks"]))
    drawn = tuple(t["color"] for t in board["tracks"])
    if drawn == table.PALETTE[: len(drawn)]:
        context = {"board": board, "fixed_url": static(table.fixed_drawing_path(*shape))}
    else:
        context = {"board": board, "fixed": table._fixed_drawing(*shape, drawn)}
    return REFERENCE.render(Context(context)).strip()


def boards(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        target = rng.choice([61, 121])
        players = rng.randint(1, 4)
        sides = []
        for _ in range(players):
            score = rng.choice([0, 1, target, rng.randint(0, target)])
            back = rng.choice([0, score, max(0, score - rng.randint(1, 40))])
            sides.append({"score": score, "back_peg": min(back, score)})
        names = rng.choice([None, NAMES[:players], ["", *NAMES[1:players]]])
        colors = rng.choice([None, ["#123456", "", "red", "#abcdef"][:players]])
        yield sides, target, names, colors


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_pegs_are_the_templates_character_for_character(language):
    seen = set()
    with translation.override(language):
        for sides, target, names, colors in boards(seed=len(language), count=400):
            want = by_the_template(sides, target, names, colors)
            got = str(table._pegboard(sides, target, names, colors))
            assert got == want, (sides, target, names, colors)
            seen |= {"via"} if "data-via=" in got else set()
            seen |= {"gain"} if "pegboard-gain" in got else set()
            seen |= {"inline"} if "<image" not in got else {"image"}
    assert seen == {"via", "gain", "inline", "image"}, seen  # every part of the figure drawn


def test_the_figure_escapes_what_it_is_given():
    html = str(table._pegboard([{"score": 5}, {"score": 9}], 121, ["<b>A</b>", "B&B"], None))
    assert "<b>" not in html and "&lt;b&gt;A&lt;/b&gt;" in html and "B&amp;B" in html
