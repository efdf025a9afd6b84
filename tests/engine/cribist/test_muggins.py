"""Muggins in Cribist: the winner declares, any other player may call missed points.

Rules checked here, in our own words: with muggins on, the winner of a trick claims its points;
before the next trick is led any other player may call muggins, saying how many points were
left unclaimed and where they are; the cards are then checked: a right call scores those
points for the caller, a wrong one costs the caller as many. With muggins off, tricks are
scored automatically (see test_play).
"""

from __future__ import annotations

import pytest

from games.engine import IllegalMove
from games.engine.cribist import CRIBIST, position
from games.engine.cribist.state import CALLS, DECLARE, HAND_OVER, PLAY

from .helpers import kinds, move, run

# Seat 0 takes the first trick (4H is the only trump) worth 12: fifteens 4H 5C 6D and
# 4H 5S 6D, the pair 5C 5S, the runs 4H 5C 6D and 4H 5S 6D.
HANDS = ["4H 2C", "5C 3C", "5S 4C", "6D 9C"]
TRICK = ((0, "4H"), (1, "5C"), (2, "5S"), (3, "6D"))


def taken(scores=(0, 0, 0, 0)):
    state = position(HANDS, dealer=3, trump="H", muggins=True, scores=scores)
    state, events = run(state, *TRICK)
    return state


def test_the_winner_declares_and_nobody_plays_until_then():
    state = taken()
    assert state.phase == DECLARE and CRIBIST.to_move(state) == {0}
    assert state.scores == (0, 0, 0, 0)
    assert CRIBIST.legal_moves(state, 0) == [move(f"declare {n}") for n in range(13)]
    with pytest.raises(IllegalMove, match="cannot play now"):
        CRIBIST.apply(state, 0, move("2C"))
    with pytest.raises(IllegalMove, match="took this trick"):
        CRIBIST.apply(state, 1, move("declare 2"))


def test_the_worth_of_a_trick_being_counted_stays_out_of_the_view():
    view = CRIBIST.view(taken(), 1)
    assert view["last_trick"]["points"] is None and view["last_trick"]["breakdown"] is None
    assert view["counting"]["winner"] == 0 and view["counting"]["declared"] is None


def test_declaring_more_than_the_trick_holds_is_refused():
    with pytest.raises(IllegalMove, match="does not hold 13"):
        CRIBIST.apply(taken(), 0, move("declare 13"))


def test_a_full_declaration_scores_and_the_winner_leads_at_once():
    state, events = run(taken(), (0, "declare 12"))
    assert state.scores == (12, 0, 0, 0)
    assert state.phase == PLAY and CRIBIST.to_move(state) == {0}
    assert kinds(events) == ["declare"]


def test_after_a_short_declaration_the_others_may_call_before_the_next_lead():
    state, _ = run(taken(), (0, "declare 6"))
    assert state.scores == (6, 0, 0, 0)
    assert state.phase == CALLS and CRIBIST.to_move(state) == {1, 2, 3}
    with pytest.raises(IllegalMove, match="cannot play now"):
        CRIBIST.apply(state, 0, move("2C"))
    with pytest.raises(IllegalMove, match="own count"):
        CRIBIST.apply(state, 0, move("pass"))
    legal = CRIBIST.legal_moves(state, 2)
    assert legal[-1] == move("pass") and len(legal) == 6  # one call a combination, and pass


def test_a_right_call_scores_the_points_named_for_the_caller():
    state, _ = run(taken(), (0, "declare 6"))
    state, events = run(state, (2, "muggins 6 run 4H 5C 6D | run 4H 5S 6D"))
    assert state.scores == (6, 0, 6, 0)
    call = state.tricks[-1].calls[0]
    assert call.correct and call.seat == 2 and call.points == 6
    assert events[0]["kind"] == "muggins" and events[0]["correct"] is True
    # nothing is left unclaimed, so the window closes and the winner leads
    assert state.phase == PLAY and CRIBIST.to_move(state) == {0}


def test_a_right_call_for_part_of_the_missed_points_leaves_the_rest_open():
    state, _ = run(taken(), (0, "declare 6"))
    state, _ = run(state, (1, "muggins 2 pair 5C 5S"))
    assert state.scores == (6, 2, 0, 0)
    assert state.phase == CALLS and CRIBIST.to_move(state) == {2, 3}
    with pytest.raises(IllegalMove, match="already"):
        CRIBIST.apply(state, 1, move("muggins 2 fifteen 4H 5C 6D"))
    state, _ = run(state, (3, "muggins 4 fifteen 4H 5C 6D | fifteen 4H 5S 6D"))
    assert state.scores == (6, 2, 0, 4) and state.phase == PLAY


def test_a_wrong_call_costs_the_caller_the_points_claimed():
    state, _ = run(taken(scores=(0, 10, 0, 0)), (0, "declare 6"))
    state, events = run(state, (1, "muggins 4 pair 4H 5C | fifteen 4H 5C 6D"))  # no such pair
    assert state.scores == (6, 6, 0, 0)
    assert state.tricks[-1].calls[0].correct is False
    assert events[0]["correct"] is False and events[0]["points"] == -4


def test_a_call_stating_the_wrong_number_of_points_is_wrong():
    state, _ = run(taken(scores=(0, 10, 0, 0)), (0, "declare 6"))
    state, _ = run(state, (1, "muggins 3 pair 5C 5S"))  # a pair is 2
    assert state.scores == (6, 7, 0, 0)


def test_a_call_for_more_than_was_missed_is_wrong():
    state, _ = run(taken(scores=(0, 0, 20, 0)), (0, "declare 10"))
    state, _ = run(state, (2, "muggins 6 run 4H 5C 6D | run 4H 5S 6D"))  # only 2 missed
    assert state.scores == (10, 0, 14, 0)
    assert state.phase == CALLS  # the 2 are still open to the others


def test_a_run_of_three_inside_a_run_of_four_is_no_combination():
    state = position(["2H 9C", "3C TC", "4S JC", "5D QC"], dealer=3, trump="H", muggins=True)
    state, _ = run(state, (0, "2H"), (1, "3C"), (2, "4S"), (3, "5D"))
    state, _ = run(state, (0, "declare 0"))
    state, _ = run(state, (1, "muggins 3 run 2H 3C 4S"))
    assert state.tricks[-1].calls[0].correct is False


def test_a_score_never_drops_below_zero():
    state, _ = run(taken(), (0, "declare 6"))
    state, _ = run(state, (1, "muggins 4 flush 4H 5C 5S 6D"))
    assert state.scores[1] == 0


def test_once_every_other_player_has_called_or_passed_the_winner_leads():
    state, _ = run(taken(), (0, "declare 6"))
    state, events = run(state, (1, "pass"), (2, "pass"))
    assert state.phase == CALLS
    state, events = run(state, (3, "pass"))
    assert state.phase == PLAY and state.leader == 0
    assert kinds(events) == ["pass", "unclaimed"]
    assert state.tricks[-1].unclaimed == 6
    assert CRIBIST.view(state, 1)["last_trick"]["points"] == 12


@pytest.mark.parametrize(
    ("claim", "reason"),
    [
        ({"type": "muggins", "points": 2}, "name where"),
        ({"type": "muggins", "points": 0, "items": [{"kind": "pair", "cards": ["5C", "5S"]}]},
         "1 or more"),
        ({"type": "muggins", "points": 2, "items": [{"kind": "trio", "cards": ["5C", "5S"]}]},
         "kinds"),
        ({"type": "muggins", "points": 2, "items": [{"kind": "pair", "cards": ["5C", "KS"]}]},
         "not in this trick"),
        ({"type": "muggins", "points": 2, "items": [{"kind": "pair", "cards": ["5C", "5C"]}]},
         "twice"),
        ({"type": "muggins", "points": 4, "items": [{"kind": "pair", "cards": ["5C", "5S"]}] * 2},
         "same pair twice"),
        ({"type": "muggins", "points": 2, "items": ["pair"]}, "object"),
    ],
)  # fmt: skip
def test_calls_that_name_nothing_sensible_are_refused(claim, reason):
    state, _ = run(taken(), (0, "declare 6"))
    with pytest.raises(IllegalMove, match=reason):
        CRIBIST.apply(state, 1, claim)


def test_the_last_trick_of_a_hand_is_open_to_muggins_before_the_trick_points():
    state = position(["4H", "5C", "5S", "6D"], dealer=3, trump="H", muggins=True)
    state, _ = run(state, *TRICK)
    state, _ = run(state, (0, "declare 10"), (1, "muggins 2 pair 5C 5S"))
    assert state.phase == HAND_OVER
    assert state.scores == (10 + 1, 2, 0, 0)


def test_every_listed_call_is_accepted():
    state, _ = run(taken(), (0, "declare 6"))
    for seat in (1, 2, 3):
        for legal in CRIBIST.legal_moves(state, seat):
            CRIBIST.apply(state, seat, legal)
