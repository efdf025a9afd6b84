"""How the match page's fragments are tightened and keyed (games.presenters, games.fragments)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from games import presenters
from games.presenters import _tight

INDENT = re.compile(r"\s*\n\s*")  # what _tight does, said as a regular expression
TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "games"


def test_tightening_turns_each_run_of_white_space_with_a_line_break_into_one_line_break():
    assert _tight("<p>\n    <b>x</b>  \n\n  y</p>") == "<p>\n<b>x</b>\ny</p>"
    assert _tight("  a  b  ") == "  a  b  "  # no line break: left alone
    assert _tight("\n  a\n") == "\na\n"
    assert _tight("<pre>\n  kept\n</pre>") == "<pre>\n  kept\n</pre>"


def test_tightening_gives_what_the_regular_expression_gives_on_any_text():
    rng = random.Random(13)
    pieces = ["a", "<p>", " ", "  ", "\n", "\t", "\r", "\xa0", "\x0b", "\x1c", "\x85", "\u2028"]
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        assert _tight(text) == INDENT.sub("\n", text), repr(text)


@pytest.mark.parametrize(
    "path", sorted(TEMPLATES.glob("*/table.html")), ids=lambda p: p.parent.name
)
def test_tightening_gives_what_the_regular_expression_gives_on_every_table(path):
    html = path.read_text()
    assert _tight(html) == INDENT.sub("\n", html)


def test_a_members_profile_address_is_worked_out_once(alice):
    presenters.profile_url.cache_clear()
    assert presenters.profile_url("alice") == "/players/alice/"
    presenters.profile_url("alice")
    assert presenters.profile_url.cache_info().hits == 1
