"""The Cribist board and hand regions are drawn in Python (games/variants/cribist/board.py and
hand.py), not by the template engine: the same HTML, line for line, as the template partials they
replaced, for every seat and a spectator, in every phase (the play, declaring, muggins calls,
the end of a hand and of the match), each way a match ends, with and without muggins, for a
socket and for a page (with its CSRF slot), in English and Spanish."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.utils import translation

from games import fragments
from games.engine import get_variant
from games.engine.core.variant import table_view
from games.fragments import tight as _tight
from games.variants import web_game
from games.variants.cribist import board as cribist_board
from games.variants.cribist import hand as cribist_hand
from tests.web.random_states import random_states

# The template partials board.py and hand.py replaced, kept word for word as the references.
HERE = Path(__file__).parent
BOARD = (HERE / "cribist_board_reference.html").read_text()
HAND = (HERE / "cribist_hand_reference.html").read_text()
NAMES = ["Alice", "Bob & <Co>", "Carl's", 'Dana "D"']
MOVES = 160  # the most states of a match drawn (a timed match's moves here bear no time)


@dataclass(frozen=True)
class Sitting:  # what the callouts read of presenters.Seating
    index: int
    team: int


def contexts(state, over: bool, *, page: bool):
    """The region's context for each seat and a spectator (a timed match's view also with its
    time called)."""
    match = SimpleNamespace(pk=7, seq=41, is_over=over, variant="cribist")
    for seat in [None, 0, 1, 2, 3]:
        view = table_view(get_variant("cribist"), state, seat)
        views = [view]
        if view["clock"] is not None:
            called = copy.deepcopy(view)
            called["clock"]["time_up"] = not view["clock"]["time_up"]
            views.append(called)
        for shown in views:
            found = {
                "match": match,
                "view": shown,
                "seat": seat,
                "names": NAMES,
                "web": web_game("cribist"),
                "seats": [Sitting(index, index) for index in range(4)],
                "oob": not page,
            }
            if page:
                found["csrf_token"] = fragments.CSRF_SLOT
            yield found


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize(
    "options,seed",
    [
        ({"ending": "deals", "deals": 2}, 1),
        ({"ending": "target", "target": 31, "muggins": True}, 2),
        ({"ending": "time", "minutes": 30, "muggins": True}, 3),  # unstamped: no end, cut short
        ({"ending": "deals", "deals": 1, "muggins": True}, 4),
    ],
)
def test_the_regions_are_the_templates_line_for_line(language, options, seed):
    board, hand = Template(BOARD), Template(HAND)
    seen = set()
    with translation.override(language):
        states = islice(random_states("cribist", 4, options, seed), MOVES)
        for number, (state, over) in enumerate(states):
            for ctx in contexts(state, over, page=number % 3 == 0):
                fragments._cache.clear()  # the record drawn afresh for every viewer
                drawn = _tight(cribist_board.board_region(ctx))
                assert drawn == _tight(board.render(Context(ctx))), _where(ctx)
                held = _tight(cribist_hand.hand_region(ctx))
                assert held == _tight(hand.render(Context(ctx))), _where(ctx)
                seen |= {ctx["view"]["phase"]} | _parts(drawn, held)
    assert {"play", *PARTS} <= seen, seen
    assert "hand_over" in seen or options.get("deals") == 1, seen  # one deal: the match ends
    assert "match_over" in seen or options["ending"] == "time", seen
    assert {"declare", "calls", *MUGGINS_PARTS} <= seen or not options.get("muggins"), seen


# The parts of the regions a match should show at some point: name -> a mark of it.
PARTS = {"callout": 'class="callout', "history": "cx-history", "sheet": "cx-sheet"}
MUGGINS_PARTS = {
    "declared": '<p class="small">',
    "claim": "move-muggins",
    "declare": "move-declare",
}


def _parts(board: str, hand: str) -> set[str]:
    return {name for name, mark in {**PARTS, **MUGGINS_PARTS}.items() if mark in board + hand}


def _where(ctx) -> tuple:
    return ctx["view"]["phase"], ctx["seat"], ctx["oob"]


def test_the_game_names_its_python_regions():
    web = web_game("cribist")
    assert web.region_drawer("board") is cribist_board.board_region
    assert web.region_drawer("hand") is cribist_hand.hand_region
