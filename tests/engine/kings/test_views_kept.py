"""What a Kings state works out once and keeps for its views (the log frozen and thawed once an
event, the board and the faces off it once a state) changes nothing a view shows."""

from __future__ import annotations

import random
from collections import Counter

from games.engine import computer_move, get_variant
from games.engine.core.events import freeze_event, thaw_event
from games.engine.kings import state as kings_state
from games.engine.kings import view as kings_view
from games.engine.pieces.tiles import FULL_BAG


def states(players: int, seed: int, options: dict | None = None):
    game = get_variant("kings")
    rng = random.Random(seed)
    state = game.new_state(players, options or {}, bytes(rng.randrange(256) for _ in range(32)))
    while game.to_move(state):
        yield state
        seat = min(game.to_move(state))
        state, _ = game.apply(state, seat, computer_move(game, state, seat, "random", rng))
    yield state


def test_every_view_is_what_the_state_shows_worked_out_afresh():
    game = get_variant("kings")
    for players, seed, options in [(2, 1, {}), (3, 2, {"joker": True}), (4, 3, {})]:
        for state in states(players, seed, options):
            loaded = kings_state.load(kings_state.dump(state))
            assert loaded == state
            for seat in [None, *range(players)]:
                view = game.view(state, seat)
                assert view == game.view(loaded, seat) == game.view(state, seat)
                assert view["events"] == [thaw_event(item) for item in state.log]
                assert view["board"] == kings_view._board(state)
                if state.over is None:
                    assert view["unseen"] == unseen_afresh(state, seat)


def unseen_afresh(state, seat):
    seen = Counter(laid.tile.face for laid in state.board if laid is not None)
    if seat is not None:
        seen.update(tile.face for tile in state.racks[seat])
    left = Counter(tile.face for tile in FULL_BAG) - seen
    order = "A23456789TJQK"
    return [
        {"rank": face[0], "suit": face[1], "count": left[face]}
        for face in sorted(left, key=lambda f: ("LD".index(f[1]), order.index(f[0])))
    ]


def test_an_event_is_frozen_once_for_the_same_json_and_true_is_not_taken_for_one():
    event = {"kind": "lay", "seat": 0, "points": 1, "hands": [{"flush": True, "tiles": ["7L"]}]}
    first = kings_state._frozen_event(event)
    assert first == freeze_event(event)
    assert kings_state._frozen_event(dict(event)) is first
    other = {**event, "points": True, "hands": [{"flush": 1, "tiles": ["7L"]}]}
    frozen = kings_state._frozen_event(other)
    assert frozen is not first
    assert dict(frozen)["points"] is True
    thawed = kings_state._thawed_event(frozen)
    assert thawed == other and thawed["hands"][0]["flush"] == 1
    assert type(thawed["hands"][0]["flush"]) is int


def test_views_of_one_state_each_have_their_own_lists():
    game = get_variant("kings")
    state = list(states(2, 4))[5]
    one, two = game.view(state, 0), game.view(state, None)
    assert one["events"] is not two["events"] and one["events"] == two["events"]
    assert one["board"] is not two["board"] and one["board"][3] is not two["board"][3]
