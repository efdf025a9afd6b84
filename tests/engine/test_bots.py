"""The simple computer player: always legal, takes the points it sees, avoids easy gifts."""

from __future__ import annotations

import random

from games.engine import computer_move
from games.engine.core.selfplay import run_selfplay
from games.engine.cribbage import CRIBBAGE


def test_it_takes_a_fifteen_when_it_sees_one():
    state = CRIBBAGE.position([["5S", "9C", "AH", "3C"], ["TC", "KD", "QH", "JS"]], "2D", dealer=0)
    state, _ = CRIBBAGE.apply(state, 1, {"type": "play", "card": "TC"})
    move = computer_move(CRIBBAGE, state, 0, "easy", random.Random(1))
    assert move == {"type": "play", "card": "5S"}


def test_it_keeps_the_count_off_21_when_it_can():
    state = CRIBBAGE.position([["5H", "7S", "2C", "9H"], ["6C", "3D", "KH", "KS"]], "2D", dealer=0)
    for seat, card in ((1, "6C"), (0, "5H"), (1, "3D")):  # the count is 14
        state, _ = CRIBBAGE.apply(state, seat, {"type": "play", "card": card})
    # Nothing scores here; the 7 would leave 21, where any ten gives the other side 31.
    for seed in range(5):
        assert computer_move(CRIBBAGE, state, 0, "easy", random.Random(seed))["card"] != "7S"


def test_it_does_not_lead_a_five():
    state = CRIBBAGE.position([["5H", "4S", "9C", "KD"], ["6C", "3D", "KH", "KS"]], "2D", dealer=1)
    for seed in range(5):
        assert computer_move(CRIBBAGE, state, 0, "easy", random.Random(seed))["card"] != "5H"


def test_it_says_go_only_when_it_must():
    state = CRIBBAGE.position([["KH", "QS", "9C", "TD"], ["KC", "KD", "JH", "8S"]], "2D", dealer=0)
    for seat, card in ((1, "KC"), (0, "KH"), (1, "KD")):  # 30
        state, _ = CRIBBAGE.apply(state, seat, {"type": "play", "card": card})
    assert computer_move(CRIBBAGE, state, 0, "easy", random.Random(0)) == {"type": "go"}


def test_it_keeps_the_best_four_cards():
    state = CRIBBAGE.new_state(2, {}, b"bot-discard")
    for seat in (0, 1):
        move = computer_move(CRIBBAGE, state, seat, "easy", random.Random(seat))
        assert move in CRIBBAGE.legal_moves(state, seat)
    # With 5 5 5 J and two low cards, it keeps the fives and the jack (at least 14 points).
    state = CRIBBAGE.position(
        [["5H", "5C", "5S", "JD", "2C", "9S"], ["AC", "2D", "3H", "4S", "6C", "7D"]],
        None,
        dealer=1,
        phase="discard",
    )
    move = computer_move(CRIBBAGE, state, 0, "easy", random.Random(0))
    assert sorted(move["cards"]) == ["2C", "9S"]


def test_it_beats_random_play_most_of_the_time():
    wins = 0
    for game in range(20):
        state = CRIBBAGE.new_state(2, {"target": 61}, f"bot-{game}".encode())
        rng = random.Random(game)
        while CRIBBAGE.outcome(state) is None:
            seat = min(CRIBBAGE.to_move(state))
            if seat == 0:
                move = computer_move(CRIBBAGE, state, 0, "easy", rng)
            else:
                move = rng.choice(CRIBBAGE.legal_moves(state, seat))
            state, _ = CRIBBAGE.apply(state, seat, move)
        wins += CRIBBAGE.outcome(state).winners == (0,)
    assert wins >= 13, wins
    assert run_selfplay("cribbage", 2, 2, "x")["finished"] == 2
