"""The Cribbage board region is drawn in Python (the cribbage_board tag), not by the
template engine: the same HTML, line for line, as the template it replaced, for every viewer
and phase, 2, 3 and 4 players, one game or several, in English and Spanish; drawn once for all
the viewers of a board, each seat shown the others' hands without its own."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from games.engine import computer_move, get_variant
from games.engine.core.variant import table_view
from games.presenters import _tight, side_labels
from games.variants import web_game
from games.variants.cribbage.templatetags import cribbage_board

# The template cribbage_board replaced, kept word for word as the reference.
REFERENCE = (Path(__file__).parent / "cribbage_board_reference.html").read_text()
BOARD = "{% load cribbage_board %}{% cribbage_board %}"
NAMES = ["Alice", "Bob & <Co>", "Carl's", "Dana"]


@dataclass(frozen=True)
class Sitting:  # what the board reads of presenters.Seating
    index: int
    team: int


def states(players: int, options: dict, seed: int, every: int):
    """Every `every`-th state of one random match, and its last."""
    game = get_variant("cribbage")
    rng = random.Random(seed)
    state = game.new_state(players, options, bytes(rng.randrange(256) for _ in range(32)))
    moves = 0
    while game.to_move(state) and moves < 3000:
        if moves % every == 0:
            yield state
        seat = min(game.to_move(state))
        state, _ = game.apply(state, seat, computer_move(game, state, seat, "random", rng))
        moves += 1
    yield state


def context(state, seat: int | None, players: int) -> dict:
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
    reference, board = Template(REFERENCE), Template(BOARD)
    seen = set()
    with translation.override(language):
        for state in states(players, options, seed, every):
            for seat in [None, *range(players)]:
                ctx = context(state, seat, players)
                want = _tight(reference.render(Context(ctx))).strip()
                got = _tight(board.render(Context(ctx))).strip()
                assert got == want, (ctx["view"]["phase"], seat)
                seen.add(ctx["view"]["phase"])
                seen |= {"callout"} if 'class="callout' in got else set()
                seen |= {"earlier"} if 'class="earlier"' in got else set()
    assert {"discard", "play", "callout", "earlier"} <= seen, seen  # the board's every part


def test_drawn_once_for_every_viewer_and_each_seat_without_its_own_hand():
    state = next(s for s in states(3, {"target": 61}, 5, 1) if s.phase == "play")
    before = cribbage_board.tables_drawn
    board = Template(BOARD)
    drawn = {seat: board.render(Context(context(state, seat, 3))) for seat in [None, 0, 1, 2]}
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
    board = Template(BOARD)
    before = cribbage_board.tables_drawn
    board.render(Context(context(first, None, 2)))
    board.render(Context(context(second, None, 2)))
    with translation.override("es"):
        spanish = board.render(Context(context(second, None, 2)))
    assert cribbage_board.tables_drawn == before + 3
    assert "Contador" in spanish or "Cuenta" in spanish
