"""Whole random Cribist matches: they end, every listed move is accepted, states round-trip
through JSON, replays are exact, and no view ever shows a card of another seat's hand."""

from __future__ import annotations

import json
import random
import re

import pytest

from games.engine.cribist import CRIBIST
from games.engine.cribist.state import PLAY
from games.engine.pieces.cards import FULL_DECK

from .helpers import random_steps

CARD_TOKEN = re.compile(r"\b[A2-9TJQK][CDHS]\b")
OPTIONS = [
    {"deals": 2},
    {"deals": 2, "muggins": True},
    {"ending": "target", "target": 31, "muggins": True},
]


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: "-".join(f"{k}{v}" for k, v in o.items())
)
def test_random_matches_keep_every_rule(options):
    seed = json.dumps(options).encode()
    state = CRIBIST.new_state(4, options, seed)
    history = []
    rng = random.Random(seed)
    for before, seat, move, after, events in random_steps(state, rng):
        history.append((seat, move))
        cards = [c for hand in after.held for c in hand] + list(after.gone())
        assert sorted(cards) == sorted(FULL_DECK)
        to_move = CRIBIST.to_move(after)
        for other in range(4):
            assert bool(CRIBIST.legal_moves(after, other)) == (other in to_move)
        assert bool(to_move) == (CRIBIST.outcome(after) is None)
        if after.phase == PLAY:
            assert len(to_move) == 1
        assert all(json.dumps(e) for e in events)
        if before.trump is not None and after.hand == before.hand:
            assert after.trump == before.trump
        assert CRIBIST.load(json.loads(json.dumps(CRIBIST.dump(after)))) == after
        for viewer in [*range(4), None]:
            view = CRIBIST.view(after, viewer)
            text = json.dumps(view)
            assert after.seed not in text and "seed" not in view
            leaked = set(CARD_TOKEN.findall(text)) & CRIBIST.hidden(after, viewer)
            assert not leaked, f"seat {viewer} sees {leaked} in {after.phase}"
    final = after
    assert CRIBIST.outcome(final) is not None
    replayed = CRIBIST.new_state(4, options, seed)
    for seat, move in history:
        replayed, _ = CRIBIST.apply(replayed, seat, move)
    assert replayed == final


def test_every_legal_move_is_accepted():
    state = CRIBIST.new_state(4, {"deals": 1, "muggins": True}, b"every move")
    for before, _seat, _move, _after, _events in random_steps(state, random.Random(5)):
        for seat in CRIBIST.to_move(before):
            for legal in CRIBIST.legal_moves(before, seat):
                CRIBIST.apply(before, seat, legal)


def test_hidden_names_every_card_in_the_other_hands():
    state = CRIBIST.new_state(4, None, b"hidden")
    for seat in range(4):
        hidden = CRIBIST.hidden(state, seat)
        assert len(hidden) == 39
        assert not hidden & {str(c) for c in state.held[seat]}
    assert len(CRIBIST.hidden(state, None)) == 52


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others():
    state = CRIBIST.new_state(4, None, b"own hand")
    view = CRIBIST.view(state, 2)
    assert len(view["hand"]) == 13 and view["held_counts"] == [13, 13, 13, 13]
    assert CRIBIST.view(state, None)["hand"] is None
    assert CRIBIST.view(state, None)["legal_moves"] == []
