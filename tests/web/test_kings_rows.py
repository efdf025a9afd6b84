"""The Kings board's squares are drawn in Python (kings_table.kings_rows), not by a template
loop: the same HTML, square by square, as the loop it replaced, for every kind of viewer and
phase, in English and Spanish."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from games.engine import computer_move, get_variant
from games.fragments import tight as _tight

# The template loop kings_rows replaced, kept word for word as the reference.
LOOP = (Path(__file__).parent / "kings_rows_reference.html").read_text()
ROWS = "{% load kings_table %}{% kings_rows view seat %}"


def boards(players: int, seed: int):
    """States of one random game: the start, a few lays in, and the end."""
    game = get_variant("kings")
    rng = random.Random(seed)
    state = game.new_state(players, {}, bytes(rng.randrange(256) for _ in range(32)))
    states = [state]
    moves = 0
    while game.to_move(state) and moves < 400:
        seat = min(game.to_move(state))
        state, _ = game.apply(state, seat, computer_move(game, state, seat, "random", rng))
        moves += 1
        if moves in (1, 2, 7, 20):
            states.append(state)
    states.append(state)
    return game, states


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_the_squares_are_the_loops_square_for_square(language, players, seed):
    game, states = boards(players, seed)
    loop, rows = Template(LOOP), Template(ROWS)
    laid = 0
    with translation.override(language):
        for state in states:
            for seat in [None, *range(players)]:
                context = {"view": game.view(state, seat), "seat": seat}
                want = _tight(loop.render(Context(context))).strip()
                got = _tight(rows.render(Context(context))).strip()
                assert got == want
                laid += got.count("sq-tile")
    assert laid > 0  # tiles were on some of the boards compared


def test_a_seat_presses_empty_squares_only_while_tiles_are_laid():
    game, states = boards(2, 4)
    start, end = states[0], states[-1]
    rows = Template(ROWS)
    playing = rows.render(Context({"view": game.view(start, 0), "seat": 0}))
    assert playing.count("<button") == 163 and "is-centre" in playing and "(centre)" in playing
    watching = rows.render(Context({"view": game.view(start, None), "seat": None}))
    assert "<button" not in watching and watching.count("sq-empty") == 163
    over = rows.render(Context({"view": game.view(end, 0), "seat": 0}))
    assert "<button" not in over
