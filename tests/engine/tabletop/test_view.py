"""Every view of one state shares the work of what all its viewers see alike (the running
totals, the open squares, the last deal's counts: games/engine/tabletop/view.py), and is still
the same view as one worked out afresh, with lists of its own."""

from __future__ import annotations

import random

import pytest

from games.engine import get_variant

from .helpers import random_steps


@pytest.mark.parametrize("key,players", [("tabletop", 2), ("tabletop", 4), ("crosscrib", 2)])
def test_each_view_is_the_view_of_the_state_loaded_afresh(key, players):
    game = get_variant(key)
    steps = random_steps(key, players, b"views", random.Random(7))
    phases = set()
    for number, (state, *_) in enumerate(steps):
        if number % 5 and state.phase == "place":
            continue
        for seat in [None, *range(players)]:
            fresh = game.load(game.dump(state))  # another object: nothing kept for it
            assert game.view(state, seat) == game.view(fresh, seat)
        phases.add(state.phase)
    assert phases == {"place", "counted"}


def test_a_view_changed_by_its_reader_leaves_the_others_alone():
    game = get_variant("crosscrib")
    state = next(after for *_, after, _ in random_steps("crosscrib", 2, b"own", random.Random(3))
                 if after.phase == "counted")  # fmt: skip
    first, second = game.view(state, 0), game.view(state, 1)
    want = game.view(game.load(game.dump(state)), 1)
    first["board"][0].clear()
    first["running"]["rows"].append(99)
    first["last"]["lines"][0]["calls"].clear()
    first["last"]["crib_calls"].append({})
    assert second == want and game.view(state, 1) == want
