"""The Table Top (and CrossCrib) layout's squares are drawn in Python
(tabletop_table.layout_squares), not by a template loop: the same HTML as the loop it replaced,
for every seat and spectator through whole random games, in English and Spanish."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from games.engine import get_variant
from games.fragments import tight as _tight
from games.variants.tabletop.templatetags.tabletop_table import layout_grid
from tests.web.random_states import random_states

# The template loop layout_squares replaced, kept word for word as the reference.
LOOP = (Path(__file__).parent / "tabletop_squares_reference.html").read_text()
SQUARES = "{% load tabletop_table %}{% layout_squares view %}"


def states(variant: str, players: int, seed: int, every: int):
    """Every `every`th state of one random game, and its last."""
    game = get_variant(variant)
    return ((game, state) for state, _ in random_states(variant, players, {}, seed, every))


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize(
    "variant,players,seed", [("tabletop", 2, 1), ("tabletop", 4, 2), ("crosscrib", 2, 3)]
)
def test_the_squares_are_the_loops_square_for_square(language, variant, players, seed):
    loop, squares = Template(LOOP), Template(SQUARES)
    seen = {"card": 0, "button": 0, "advised": 0}
    with translation.override(language):
        for game, state in states(variant, players, seed, every=3):
            for seat in [None, *range(players)]:
                view = game.view(state, seat)
                context = Context({"grid": layout_grid(view), "view": view})
                want = _tight(loop.render(context)).strip()
                got = _tight(squares.render(context)).strip()
                assert got == want
                seen["card"] += "has-card" in got
                seen["button"] += "<button" in got
                seen["advised"] += "is-advised" in got
    assert seen["card"] and seen["button"]  # the boards compared had cards and choices
    if players == 4:
        assert seen["advised"]  # and a partner's suggestion
