"""How a Cribist match ends: after a number of deals, at a target score, or when time is up.

Rules checked here, in our own words: the match is a fixed number of deals (10 unless chosen),
or a race to a target score (61 unless chosen) in which the first to reach it wins, checked
after every score, or a time limit after which the hand in progress is finished; the highest
score wins and equal scores share the win.
"""

from __future__ import annotations

import random

import pytest

from games.engine import BadOptions, IllegalMove
from games.engine.cribist import CRIBIST, position
from games.engine.cribist.state import HAND_OVER, MATCH_OVER, PLAY, TIME_DEAL_LIMIT

from .helpers import kinds, play_out, run

ONE_TRICK = ["2H", "4H", "KH", "7S"]  # seat 2 takes it with KH, worth nothing
TWO_TRICKS = ["2H QD", "4H 3C", "KH 8D", "7S 9C"]  # seat 2 then seat 0 take one, nothing each


def test_the_default_is_ten_deals():
    options = CRIBIST.clean_options(4, None)
    assert options["ending"] == "deals" and options["deals"] == 10
    assert options["target"] == 61 and options["muggins"] is False
    final = play_out(CRIBIST.new_state(4, None, b"ten deals"), random.Random(1))
    assert final.phase == MATCH_OVER and final.hand == 10 and len(final.sheet) == 10
    assert CRIBIST.outcome(final).reason.endswith("after 10 deals")


def test_a_match_of_one_deal_ends_after_the_first_hand():
    final = play_out(CRIBIST.new_state(4, {"deals": 1}, b"one deal"), random.Random(2))
    assert final.hand == 1 and final.phase == MATCH_OVER
    assert sum(len(t.cards) for t in final.tricks) == 52


def test_options_are_checked():
    with pytest.raises(BadOptions, match="ending"):
        CRIBIST.clean_options(4, {"ending": "forever"})
    with pytest.raises(BadOptions, match="deals"):
        CRIBIST.clean_options(4, {"deals": 0})
    with pytest.raises(BadOptions, match="colour"):
        CRIBIST.clean_options(4, {"colour": "red"})
    assert CRIBIST.clean_options(4, {"ending": "target", "target": "121"})["target"] == 121


def test_the_highest_score_wins_and_equal_scores_share_the_win():
    state = position(ONE_TRICK, dealer=3, trump="H", scores=(5, 5, 1, 0), deal_limit=1)
    state, events = run(state, (0, "2H"), (1, "4H"), (2, "KH"), (3, "7S"))
    result = CRIBIST.outcome(state)
    assert state.scores == (5, 5, 2, 0)
    assert result.winners == (0, 1)
    assert [side.place for side in result.sides] == [1, 1, 3, 4]
    assert "share the win" in result.reason
    assert kinds(events)[-1] == "match_over"


def test_a_tournament_ranks_the_four_players_by_their_final_scores():
    assert CRIBIST.tournament.kind == "ranked"
    state = position(ONE_TRICK, dealer=3, trump="H", scores=(9, 3, 7, 1), deal_limit=1)
    state, _ = run(state, (0, "2H"), (1, "4H"), (2, "KH"), (3, "7S"))
    result = CRIBIST.outcome(state)
    assert [(side.seats, side.score, side.place) for side in result.sides] == [
        ((0,), 9, 1), ((1,), 3, 3), ((2,), 8, 2), ((3,), 1, 4),
    ]  # fmt: skip
    assert result.to_json()["sides"][0]["place"] == 1


# --- target ---------------------------------------------------------------------------------


def test_reaching_the_target_with_a_trick_ends_the_match_at_once():
    state = position(
        ["4H 2C", "5C 3C", "5S 4C", "6D 9C"], dealer=3, trump="H", scores=(50, 0, 0, 0),
        ending="target", target=61,
    )  # fmt: skip
    state, events = run(state, (0, "4H"), (1, "5C"), (2, "5S"), (3, "6D"))
    assert state.phase == MATCH_OVER and state.scores[0] == 62
    assert any(state.held)  # the hand was not finished
    result = CRIBIST.outcome(state)
    assert result.winners == (0,) and "reaching 61" in result.reason
    with pytest.raises(IllegalMove, match="over"):
        CRIBIST.apply(state, 0, {"type": "play", "card": "2C"})


def test_the_trick_points_at_the_end_of_a_hand_are_checked_against_the_target():
    state = position(ONE_TRICK, dealer=3, trump="H", scores=(0, 0, 60, 0), ending="target")
    state, _ = run(state, (0, "2H"), (1, "4H"), (2, "KH"), (3, "7S"))
    assert state.phase == MATCH_OVER and CRIBIST.outcome(state).winners == (2,)


def test_players_reaching_the_target_together_with_trick_points_share_it_on_equal_scores():
    state = position(TWO_TRICKS, dealer=3, trump="H", scores=(60, 0, 60, 0), ending="target")
    state, _ = run(state, (0, "2H"), (1, "4H"), (2, "KH"), (3, "7S"))
    state, _ = run(state, (2, "8D"), (3, "9C"), (0, "QD"), (1, "3C"))
    assert state.scores == (61, 0, 61, 0)
    assert CRIBIST.outcome(state).winners == (0, 2)


def test_a_target_match_plays_on_below_the_target():
    state = position(ONE_TRICK, dealer=3, trump="H", scores=(0, 0, 10, 0), ending="target")
    state, _ = run(state, (0, "2H"), (1, "4H"), (2, "KH"), (3, "7S"))
    assert state.phase == HAND_OVER


# --- time -----------------------------------------------------------------------------------


def _stamped_play(state, rng, clock):
    """Random legal moves, each stamped with clock(move number), until the match ends."""
    number = 0
    while CRIBIST.to_move(state):
        seat = rng.choice(sorted(CRIBIST.to_move(state)))
        chosen = dict(rng.choice(CRIBIST.legal_moves(state, seat)), at=clock(number))
        state, _ = CRIBIST.apply(state, seat, chosen)
        number += 1
    return state


def test_time_up_during_a_hand_finishes_that_hand_and_ends_the_match():
    state = CRIBIST.new_state(4, {"ending": "time", "minutes": 5}, b"timed")
    # the first move starts the clock at 1000; from move 80 (in hand 2) it reads 1300
    final = _stamped_play(state, random.Random(3), lambda n: 1000 if n < 80 else 1300)
    assert final.started == 1000 and final.deadline == 1300 and final.clock == 1300
    assert final.phase == MATCH_OVER and final.hand == 2
    assert sum(len(t.cards) for t in final.tricks) == 52  # hand 2 was played out
    assert "time" in CRIBIST.outcome(final).reason


def test_time_up_between_hands_ends_the_match_before_the_next_deal():
    state = position(ONE_TRICK, dealer=3, trump="H", ending="time", minutes=5)
    state, _ = CRIBIST.apply(state, 0, {"type": "play", "card": "2H", "at": 1000})
    state, _ = run(state, (1, "4H"), (2, "KH"), (3, "7S"))
    assert state.phase == HAND_OVER  # not up yet
    for seat in (0, 1, 2):
        state, _ = CRIBIST.apply(state, seat, {"type": "continue", "at": 1200})
    state, events = CRIBIST.apply(state, 3, {"type": "continue", "at": 1300})
    assert state.phase == MATCH_OVER and state.hand == 1
    assert kinds(events) == ["match_over"]


def test_a_timed_match_goes_on_while_there_is_time():
    state = position(ONE_TRICK, dealer=3, trump="H", ending="time", minutes=5)
    state, _ = CRIBIST.apply(state, 0, {"type": "play", "card": "2H", "at": 1000})
    state, _ = run(state, (1, "4H"), (2, "KH"), (3, "7S"))
    for seat in range(4):
        state, _ = CRIBIST.apply(state, seat, {"type": "continue", "at": 1299})
    assert state.phase == PLAY and state.hand == 2


def test_a_timed_match_without_clock_stops_at_the_deal_limit():
    state = position(ONE_TRICK, dealer=3, trump="H", ending="time", hand=TIME_DEAL_LIMIT)
    state, _ = run(state, (0, "2H"), (1, "4H"), (2, "KH"), (3, "7S"))
    assert state.phase == MATCH_OVER
    assert "the most a timed match plays" in CRIBIST.outcome(state).reason


def test_the_time_of_a_move_must_be_whole_seconds():
    state = position(ONE_TRICK, dealer=3, trump="H", ending="time")
    for bad in ("noon", -1, 1.5, True):
        with pytest.raises(IllegalMove, match="seconds"):
            CRIBIST.apply(state, 0, {"type": "play", "card": "2H", "at": bad})


def test_the_clock_never_runs_backwards():
    state = position(ONE_TRICK, dealer=3, trump="H", ending="time")
    state, _ = CRIBIST.apply(state, 0, {"type": "play", "card": "2H", "at": 1000})
    state, _ = CRIBIST.apply(state, 1, {"type": "play", "card": "4H", "at": 900})
    assert state.started == 1000 and state.clock == 1000


def test_stamps_do_not_matter_in_other_endings():
    state = position(ONE_TRICK, dealer=3, trump="H", deal_limit=2)
    state, _ = CRIBIST.apply(state, 0, {"type": "play", "card": "2H", "at": 10**9})
    state, _ = run(state, (1, "4H"), (2, "KH"), (3, "7S"))
    assert state.phase == HAND_OVER and CRIBIST.view(state, 0)["clock"] is None
