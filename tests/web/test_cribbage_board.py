"""The Cribbage board region is drawn in Python (games/variants/cribbage/board.py), not by the
template engine: the same HTML, line for line, as the template it replaced, for every viewer
and phase, 2, 3 and 4 players, one game or several, in English and Spanish; drawn once for all
the viewers of a board, each seat shown the others' hands without its own."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from games.engine import get_variant
from games.engine.core.variant import table_view
from games.fragments import tight as _tight
from games.presenters import side_labels
from games.variants import WebGame, web_game
from games.variants.cribbage import board as cribbage_board
from tests.web.random_states import random_states

# The template partial board.py replaced, kept word for word as the reference.
REFERENCE = (Path(__file__).parent / "cribbage_board_reference.html").read_text()
NAMES = ["Alice", "Bob & <Co>", "Carl's", "Dana"]


@dataclass(frozen=True)
class Sitting:  # what the board reads of presenters.Seating
    index: int
    team: int


def states(players: int, options: dict, seed: int, every: int):
    return (state for state, _ in random_states("cribbage", players, options, seed, every))


def context(state, seat: int | None, players: int, *, oob: bool = True) -> dict:
    game = get_variant("cribbage")
    view = table_view(game, state, seat)
    names = NAMES[:players]
    sides = side_labels(view, names)
    return {
        "view": view,
        "seat": seat,
        "names": names,
        "sides": sides,
        "side_names": [side["name"] for side in sides],
        "web": web_game("cribbage"),
        "seats": [Sitting(i, view["seat_sides"][i]) for i in range(players)],
        "oob": oob,
    }


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize(
    "players,options,seed,every",
    [
        (2, {"target": 61}, 1, 1),
        (2, {"target": 121, "games": 3}, 2, 3),
        (3, {"target": 61}, 3, 1),
        (4, {"target": 61}, 4, 1),
    ],
)
def test_the_board_is_the_templates_line_for_line(language, players, options, seed, every):
    reference = Template(REFERENCE)
    seen = set()
    with translation.override(language):
        for state in states(players, options, seed, every):
            for seat in [None, *range(players)]:
                ctx = context(state, seat, players, oob=seat != 0)
                want = _tight(reference.render(Context(ctx))).strip()
                got = _tight(cribbage_board.board_region(ctx)).strip()
                assert got == want, (ctx["view"]["phase"], seat)
                seen.add(ctx["view"]["phase"])
                seen |= {"callout"} if 'class="callout' in got else set()
                seen |= {"earlier"} if 'class="earlier"' in got else set()
    assert {"discard", "play", "callout", "earlier"} <= seen, seen  # the board's every part


def test_drawn_once_for_every_viewer_and_each_seat_without_its_own_hand():
    state = next(s for s in states(3, {"target": 61}, 5, 1) if s.phase == "play")
    before = cribbage_board.tables_drawn
    drawn = {seat: cribbage_board.board_region(context(state, seat, 3)) for seat in [None, 0, 1, 2]}
    assert cribbage_board.tables_drawn == before + 1
    for seat in (0, 1, 2):
        assert f'data-source="seat-{seat}"' in drawn[None]
        assert f'data-source="seat-{seat}"' not in drawn[seat]
        assert all(f'data-source="seat-{o}"' in drawn[seat] for o in {0, 1, 2} - {seat})
    assert "seat-part" not in "".join(drawn.values())
    # names are escaped wherever they are written
    assert "Bob &amp; &lt;Co&gt;" in drawn[None] and "<Co>" not in drawn[None]


def test_a_new_board_or_language_is_drawn_afresh():
    first, second = [s for s in states(2, {"target": 61}, 6, 1)][3:5]
    before = cribbage_board.tables_drawn
    cribbage_board.board_region(context(first, None, 2))
    cribbage_board.board_region(context(second, None, 2))
    with translation.override("es"):
        spanish = cribbage_board.board_region(context(second, None, 2))
    assert cribbage_board.tables_drawn == before + 3
    assert "Contador" in spanish or "Cuenta" in spanish


def test_the_game_names_its_python_regions_and_the_shared_layer_finds_them():
    web = web_game("cribbage")
    assert web.region_drawer("board") is cribbage_board.board_region
    assert web.region_drawer("hand").__module__ == "games.variants.cribbage.hand"
    assert web.region_drawer("status") is None  # drawn by the shared templates
    assert WebGame(key="any", folder="plain").region_drawer("board") is None  # its template
