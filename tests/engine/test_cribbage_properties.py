"""Classic Cribbage: its own invariants over whole random games for 2, 3 and 4 players (hypothesis).

The checks every game shares (moves accepted, round trips, replay, hidden pieces) are in
test_all_games.py; these are the ones only Cribbage has (the count, the deck, the pegs)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.cribbage import CRIBBAGE
from games.engine.cribbage.state import PLAY
from tests.engine.crib_helpers import CARD_TOKEN, assert_full_deck, hidden_from, random_steps

GAMES = settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)

players = st.sampled_from([2, 3, 4])
seeds = st.binary(min_size=0, max_size=8).map(lambda tail: b"property test " + tail)
options = st.fixed_dictionaries(
    {
        "target": st.sampled_from([121, 61]),
        "games": st.sampled_from([1, 2]),
        "muggins": st.booleans(),
    }
)


def _visible_cards(view: dict) -> set[str]:
    """Every card named anywhere in a view, except the cards cut for the first deal (which go
    back into the pack before it is shuffled for the deal)."""
    shown = {key: value for key, value in view.items() if key != "events"}
    events = [e for e in view["events"] if e["kind"] != "cut"]
    return set(CARD_TOKEN.findall(json.dumps([shown, events])))


@GAMES
@given(players=players, seed=seeds, options=options, moves=st.randoms(use_true_random=False))
def test_random_games_keep_every_rule(players, seed, options, moves):
    state = CRIBBAGE.new_state(players, options, seed)
    history = []
    steps = 0
    for before, seat, move, after, events in random_steps(state, moves):
        steps += 1
        history.append((seat, move))
        assert_full_deck(after)
        assert 0 <= after.count <= 31
        assert all(json.dumps(e) for e in events)
        if after.game == before.game:
            assert all(a >= b for a, b in zip(after.scores, before.scores, strict=True))
        to_move = CRIBBAGE.to_move(after)
        for other in range(players):
            legal = CRIBBAGE.legal_moves(after, other)
            assert bool(legal) == (other in to_move)
        assert bool(to_move) == (CRIBBAGE.outcome(after) is None)
        if after.phase == PLAY:
            assert len(to_move) == 1
    final = state if not history else after
    assert CRIBBAGE.outcome(final) is not None
    assert steps == len(history) > 0

    replayed = CRIBBAGE.new_state(players, options, seed)
    for seat, move in history:
        replayed, _ = CRIBBAGE.apply(replayed, seat, move)
    assert replayed == final


@GAMES
@given(players=players, seed=seeds, options=options, moves=st.randoms(use_true_random=False))
def test_views_never_show_hidden_cards_and_states_round_trip(players, seed, options, moves):
    state = CRIBBAGE.new_state(players, options, seed)
    for _before, _seat, _move, after, _events in random_steps(state, moves):
        assert CRIBBAGE.load(json.loads(json.dumps(CRIBBAGE.dump(after)))) == after
        for viewer in [*range(players), None]:
            view = CRIBBAGE.view(after, viewer)
            text = json.dumps(view)
            assert after.seed not in text and "seed" not in view and "deck" not in view
            leaked = _visible_cards(view) & hidden_from(after, viewer)
            assert not leaked, f"seat {viewer} sees {leaked} in {after.phase}"
            if viewer is None:
                assert view["hand"] is None and view["legal_moves"] == []
            else:
                assert view["hand"] == [str(c) for c in sorted(after.held[viewer])]


@settings(max_examples=10, deadline=None, derandomize=True)
@given(players=players, seed=seeds, moves=st.randoms(use_true_random=False))
def test_every_legal_move_is_accepted(players, seed, moves):
    state = CRIBBAGE.new_state(players, {"target": 61, "muggins": moves.random() < 0.5}, seed)
    rng = random.Random(moves.random())
    for before, _seat, _move, _after, _events in random_steps(state, rng):
        for seat in CRIBBAGE.to_move(before):
            for legal in CRIBBAGE.legal_moves(before, seat):
                CRIBBAGE.apply(before, seat, legal)
