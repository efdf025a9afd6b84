"""Classic Cribbage: the play to 31, with crafted hands played move by move through apply."""

from __future__ import annotations

import pytest

from games.engine.core.variant import IllegalMove
from games.engine.cribbage import CRIBBAGE, position
from games.engine.cribbage.state import COUNTED, PLAY
from tests.engine.crib_helpers import move, run, texts

CRIB = "2H 3H JC QC"  # somewhere to keep four cards nobody plays


def _plays(state) -> list[list[str]]:
    """Every count of the hand so far, as card strings, the running count last."""
    return [[str(card) for _, card in count] for count in (*state.earlier, state.current)]


def test_it_gives_a_go_to_the_last_player_who_could_play():
    state = position(["KS QD 6C 5H", "TH 9S 8D 4C"], "AS", dealer=0, crib=CRIB)
    state, _ = run(state, (1, "TH"), (0, "KS"), (1, "9S"))
    assert state.count == 29
    assert CRIBBAGE.legal_moves(state, 0) == [{"type": "go"}]
    state, events = run(state, (0, "go"))
    assert texts(events) == ["{p0} says go", "{p1}: go for 1"]
    assert events[-1]["points"] == 1 and events[-1]["kind"] == "go_point"
    assert state.scores == (0, 1)
    assert (state.count, state.turn) == (0, 0)  # the next player after the go leads
    assert _plays(state) == [["TH", "KS", "9S"], []]


def test_it_makes_a_player_who_cannot_play_say_go_even_when_the_other_is_out_of_cards():
    state = position(["KS QD 6C 5H", "TH 9S 8D 4C"], "AS", dealer=0, crib=CRIB)
    state, _ = run(
        state, (1, "TH"), (0, "KS"), (1, "9S"), (0, "go"), (0, "QD"), (1, "8D"), (0, "6C")
    )
    state, events = run(state, (1, "4C"))
    assert state.count == 28 and state.turn == 0 and not state.held[1]
    assert CRIBBAGE.legal_moves(state, 0) == [{"type": "go"}]
    state, events = run(state, (0, "go"))
    assert texts(events) == ["{p0} says go", "{p1}: go for 1"]
    state, events = run(state, (0, "5H"))
    assert texts(events)[:2] == ["{p0} plays 5H (5)", "{p0}: last card for 1"]
    assert state.phase == COUNTED


def test_it_scores_thirty_one_for_two_and_no_go_on_top():
    state = position(["KS 2C 6H 7H", "TH 9S 4D 3C"], "AS", dealer=0, crib=CRIB)
    state, events = run(state, (1, "TH"), (0, "KS"), (1, "9S"), (0, "2C"))
    assert texts(events)[-2:] == ["{p0} plays 2C (31)", "{p0} pegs 2 for thirty-one"]
    assert not texts(events, "go_point")
    assert state.scores == (2, 0)
    assert (state.count, state.turn) == (0, 1)


def test_it_gives_a_point_for_the_last_card():
    state = position(["KS 2C 6H 7H", "TH 9S 4D 3C"], "AS", dealer=0, crib=CRIB)
    state, _ = run(state, (1, "TH"), (0, "KS"), (1, "9S"), (0, "2C"))
    state, _ = run(state, (1, "4D"), (0, "6H"), (1, "3C"))
    assert state.turn == 0  # seat 1 is out of cards, so seat 0 plays on
    state, events = run(state, (0, "7H"))
    assert texts(events)[:2] == ["{p0} plays 7H (20)", "{p0}: last card for 1"]
    play_points = 2 + 1
    shows = sum(e["points"] for e in events if e["kind"] == "show" and e["seat"] == 0)
    assert state.scores[0] == play_points + shows


def test_it_gives_no_last_card_point_when_the_last_card_makes_thirty_one():
    state = position(["QD QS 5D 7D", "KH KC 9H AC"], "2C", dealer=0, crib="3H 4H 6S 8C")
    state, events = run(state, (1, "KH"), (0, "QD"), (1, "KC"), (0, "go"), (1, "AC"))
    assert texts(events)[-1] == "{p1} pegs 2 for thirty-one"
    assert not texts(events, "go_point")
    assert state.turn == 0
    state, events = run(state, (0, "QS"), (1, "9H"), (0, "5D"))
    assert state.turn == 0
    state, events = run(state, (0, "7D"))
    assert texts(events)[:2] == ["{p0} plays 7D (31)", "{p0} pegs 2 for thirty-one"]
    assert not texts(events, "last_card") and not texts(events, "go_point")
    assert state.phase == COUNTED


def test_it_plays_on_after_a_go_in_a_three_handed_game():
    state = position(
        ["9C QC JC 3C", "TH 8H 7H 6H", "KD AS 5D 4D"], "2S", dealer=0, crib="2D 3D 6D 7D"
    )
    state, _ = run(state, (1, "TH"), (2, "KD"), (0, "9C"))
    assert state.turn == 1 and CRIBBAGE.legal_moves(state, 1) == [{"type": "go"}]
    state, events = run(state, (1, "go"))
    assert state.turn == 2  # the next player may still play
    state, events = run(state, (2, "AS"))
    assert state.turn == 0 and CRIBBAGE.legal_moves(state, 0) == [{"type": "go"}]
    state, events = run(state, (0, "go"))
    # seat 1 already said go in this count and is not asked again
    assert texts(events) == ["{p0} says go", "{p2}: go for 1"]
    assert state.scores == (0, 0, 1)
    assert (state.count, state.turn) == (0, 0)


def test_it_skips_players_out_of_cards_and_leads_the_next_count_from_the_next_holder():
    state = position(
        ["AC 3C 4C KS", "TH TD TS 9C", "5S 2S 9S 8S"], "6D", dealer=0, crib="2D 3D 7D 8D"
    )
    state, events = run(state, (1, "TH"), (2, "5S"), (0, "AC"), (1, "TD"), (2, "2S"), (0, "3C"))
    assert texts(events, "peg") == [
        "{p2} pegs 2 for fifteen",
        "{p0} pegs 2 for thirty-one",
    ]
    assert state.turn == 1
    state, events = run(state, (1, "TS"), (2, "9S"), (0, "4C"), (1, "go"), (2, "8S"))
    assert texts(events, "peg") == ["{p2} pegs 2 for thirty-one"]
    # seat 0 still holds KS, so seat 0 leads after seat 2's 31
    assert state.turn == 0
    state, events = run(state, (0, "KS"))
    assert state.turn == 1  # seat 2 is out of cards and is skipped
    state, events = run(state, (1, "9C"))
    assert texts(events)[:2] == ["{p1} plays 9C (19)", "{p1}: last card for 1"]
    assert state.phase == COUNTED


def test_it_skips_a_player_without_cards_when_a_new_count_begins():
    state = position(
        ["AC 2C 3C 4C", "TH TD TS 9C", "5S 9S 8S 6S"], "6D", dealer=0, crib="2D 3D 7D 8D"
    )
    state, events = run(
        state, (1, "TH"), (2, "5S"), (0, "AC"), (1, "TD"), (2, "go"), (0, "3C"), (1, "go")
    )
    assert state.turn == 0  # seat 2 already said go; seat 0 played last and can go on
    state, events = run(state, (0, "2C"), (1, "TS"), (2, "9S"), (0, "4C"))
    assert not state.held[0]
    state, events = run(state, (1, "go"), (2, "8S"))
    assert texts(events, "peg") == ["{p2} pegs 2 for thirty-one"]
    assert state.turn == 1  # seat 0, next after seat 2, has no cards left
    assert state.scores == (2, 0, 4)


def test_it_lets_the_last_partner_take_the_go_for_the_side():
    state = position(
        ["JS 2S 3H 4S", "TH 9H 8H 7D", "KH 6C 5C 4C", "QH 9D 8D 7C"],
        "AD",
        dealer=0,
        crib="2D 3D 5D 6D",
    )
    state, _ = run(state, (1, "TH"), (2, "KH"), (3, "QH"))
    for seat in (0, 1):
        assert state.turn == seat
        state, events = run(state, (seat, "go"))
        assert texts(events) == [f"{{p{seat}}} says go"]
    state, events = run(state, (2, "go"))
    assert texts(events) == ["{p2} says go", "{p3}: go for 1"]
    assert state.scores == (0, 1)  # seats 1 and 3 share a score
    assert (state.count, state.turn) == (0, 0)


def test_it_lets_a_foreign_card_break_a_run_and_finds_runs_played_out_of_order():
    state = position(["7D 6H 6D 7C", "8C 7S 9C 8H"], "KS", dealer=0, crib=CRIB)
    state, events = run(state, (1, "8C"), (0, "7D"), (1, "7S"), (0, "6H"))
    assert texts(events, "peg") == ["{p0} pegs 2 for fifteen", "{p1} pegs 2 for a pair"]
    assert state.scores == (2, 2)
    state, events = run(state, (1, "go"))
    assert texts(events) == ["{p1} says go", "{p0}: go for 1"]
    state, events = run(state, (1, "9C"), (0, "6D"), (1, "8H"), (0, "7C"))
    assert texts(events, "peg") == ["{p0} pegs 2 for fifteen", "{p0} pegs 4 for a run of 4"]
    assert texts(events, "last_card") == ["{p0}: last card for 1"]
    assert texts(events, "show")  # the play is over; the show follows
    play = 2 + 1 + 2 + 4 + 1
    shown = sum(e["points"] for e in events if e["kind"] == "show" and e["seat"] == 0)
    assert state.scores[0] == play + shown


def test_it_starts_a_new_count_from_zero_and_never_combines_counts():
    state = position(["5C 5D KS QS", "5H TD 5S 3D"], "AS", dealer=0, crib=CRIB)
    state, _ = run(state, (1, "5H"), (0, "5C"), (1, "TD"), (0, "KS"))
    assert state.count == 30
    state, events = run(state, (1, "go"))
    assert texts(events)[-1] == "{p0}: go for 1"
    state, events = run(state, (1, "5S"))
    # 5S follows 5C and KS, but a new count began: no pair, no fifteen
    assert texts(events) == ["{p1} plays 5S (5)"]


# --- refusals --------------------------------------------------------------------------------


def test_it_requires_a_card_while_one_can_be_played():
    state = position(["KS QD 6C 5H", "TH 9S 8D 4C"], "AS", dealer=0, crib=CRIB)
    assert len(CRIBBAGE.legal_moves(state, 1)) == 4
    with pytest.raises(IllegalMove, match="you must play a card while you can"):
        CRIBBAGE.apply(state, 1, move("go"))


@pytest.mark.parametrize(
    ("seat", "payload", "message"),
    [
        (0, move("KS"), "it is not your turn to play"),
        (1, move("KS"), "you do not hold KS"),
        (1, move("XY"), "'XY' is not a card"),
        (1, {"type": "play"}, "name the card to play"),
        (1, {"type": "dance"}, "there is no move 'dance'"),
        (1, move("discard TH 9S"), "you cannot discard now"),
        (1, move("continue"), "you cannot continue now"),
        (1, "TH", "a move is an object with a type"),
        (5, move("TH"), "there is no seat 5"),
    ],
)
def test_it_refuses_moves_that_break_a_rule(seat, payload, message):
    state = position(["KS QD 6C 5H", "TH 9S 8D 4C"], "AS", dealer=0, crib=CRIB)
    with pytest.raises(IllegalMove, match=message):
        CRIBBAGE.apply(state, seat, payload)


def test_it_refuses_a_card_that_would_pass_thirty_one():
    state = position(["KS QD 6C 5H", "TH 9S 8D 4C"], "AS", dealer=0, crib=CRIB)
    state, _ = run(state, (1, "TH"), (0, "KS"), (1, "9S"))
    with pytest.raises(IllegalMove, match="the count would be 34"):
        CRIBBAGE.apply(state, 0, move("5H"))


def test_it_refuses_a_card_already_played():
    state = position(["KS QD 6C 5H", "TH 9S 8D 4C"], "AS", dealer=0, crib=CRIB)
    state, _ = run(state, (1, "TH"), (0, "KS"))
    with pytest.raises(IllegalMove, match="you have already played TH"):
        CRIBBAGE.apply(state, 1, move("TH"))


def test_it_never_changes_the_state_it_was_given():
    state = position(["KS QD 6C 5H", "TH 9S 8D 4C"], "AS", dealer=0, crib=CRIB)
    before = CRIBBAGE.dump(state)
    after, _ = run(state, (1, "TH"), (0, "KS"))
    assert CRIBBAGE.dump(state) == before
    assert after.phase == PLAY and after.count == 20
