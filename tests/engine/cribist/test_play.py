"""The deal and the play of Cribist: trumps from the opening lead, following suit, tricks.

Rules checked here, in our own words: four players with the whole pack, thirteen cards each,
dealt one at a time clockwise from the dealer's left; the deal moves one seat left each hand;
the seat left of the dealer leads first and the suit led is trumps for the hand; follow the
suit led if you can, else play anything; the highest trump takes the trick, else the highest
card of the suit led; the winner scores the trick and leads the next; at the end of a hand
every player scores 1 for each trick taken.
"""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, get_variant
from games.engine.cribist import CRIBIST, position
from games.engine.cribist.state import HAND_OVER, PLAY
from games.engine.pieces.cards import FULL_DECK, shuffled_deck

from .helpers import kinds, move, run


def test_it_is_registered_for_four_players_only():
    assert get_variant("cribist") is CRIBIST
    assert CRIBIST.player_counts == (4,)
    assert CRIBIST.teams(4) == [(0,), (1,), (2,), (3,)]
    with pytest.raises(ValueError, match="4 players"):
        CRIBIST.new_state(3, None, b"seed")


def test_the_deal_gives_thirteen_cards_one_at_a_time_from_the_dealers_left():
    state = CRIBIST.new_state(4, None, b"deal test")
    deck = shuffled_deck(b"deal test", "deal:1")
    first = (state.dealer + 1) % 4
    for i, card in enumerate(deck):
        seat = (first + i) % 4
        assert card in state.held[seat]
    assert all(len(hand) == 13 for hand in state.held)
    assert sorted(c for hand in state.held for c in hand) == sorted(FULL_DECK)
    assert state.leader == first and state.turn == first and state.trump is None


def test_the_first_dealer_is_drawn_from_the_seed():
    dealers = {CRIBIST.new_state(4, None, f"s{n}".encode()).dealer for n in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_the_opening_lead_names_trumps_for_the_whole_hand():
    state = position(["5H 2C", "9H 3C", "KH 4C", "AH 5C"], dealer=3)
    state, events = run(state, (0, "5H"))
    assert state.trump == "H"
    assert events[0]["kind"] == "lead" and events[0]["trump"] == "H"
    state, _ = run(state, (1, "9H"), (2, "KH"), (3, "AH"))
    assert state.leader == 2
    state, _ = run(state, (2, "4C"), (3, "5C"))
    assert state.trump == "H"  # a club lead later does not change trumps


def test_a_player_must_follow_the_suit_led():
    state = position(["5H 2C", "9H 3C", "KH 4C", "AH 5C"], dealer=3)
    state, _ = run(state, (0, "5H"))
    assert CRIBIST.legal_moves(state, 1) == [move("9H")]
    with pytest.raises(IllegalMove, match="follow suit"):
        CRIBIST.apply(state, 1, move("3C"))


def test_a_player_out_of_the_suit_led_may_play_any_card():
    state = position(["5H 2C", "9S 3C", "KH 4C", "AH 5C"], dealer=3, trump="D")
    state, _ = run(state, (0, "5H"))
    assert {m["card"] for m in CRIBIST.legal_moves(state, 1)} == {"9S", "3C"}
    state, _ = run(state, (1, "3C"))
    assert state.current[-1].suit == "C"


def test_only_the_seat_whose_turn_it_is_plays_and_only_cards_it_holds():
    state = position(["5H 2C", "9H 3C", "KH 4C", "AH 5C"], dealer=3)
    assert CRIBIST.to_move(state) == {0}
    assert CRIBIST.legal_moves(state, 1) == []
    with pytest.raises(IllegalMove, match="turn"):
        CRIBIST.apply(state, 1, move("9H"))
    with pytest.raises(IllegalMove, match="do not hold"):
        CRIBIST.apply(state, 0, move("9H"))
    with pytest.raises(IllegalMove, match="not a card"):
        CRIBIST.apply(state, 0, move("ZZ"))


def test_without_trumps_in_it_the_highest_card_of_the_suit_led_takes_the_trick():
    state = position(["7S 2C", "KH 3C", "9S 4C", "2S 5C"], dealer=3, trump="C")
    state, events = run(state, (0, "7S"), (1, "KH"), (2, "9S"), (3, "2S"))
    assert state.tricks[-1].winner == 2
    assert state.leader == 2 and CRIBIST.to_move(state) == {2}


def test_the_highest_trump_takes_the_trick():
    state = position(["7S 2C", "KS 3C", "2H 4C", "9S 5H"], dealer=3, trump="H")
    state, _ = run(state, (0, "7S"), (1, "KS"), (2, "2H"), (3, "9S"))
    assert state.tricks[-1].winner == 2
    state = position(["7S 2C", "3H 3C", "KS 4C", "5H 5D"], dealer=3, trump="H")
    state, _ = run(state, (0, "7S"), (1, "3H"), (2, "KS"), (3, "5H"))
    assert state.tricks[-1].winner == 3


def test_the_winner_scores_the_trick_at_once_when_muggins_is_off():
    state = position(["4H 2C", "5C 3C", "5S 4C", "6D 9C"], dealer=3, trump="H")
    state, events = run(state, (0, "4H"), (1, "5C"), (2, "5S"), (3, "6D"))
    # 4H leads hearts (trumps); nobody else has a heart: 4H is the only trump and takes it
    assert state.tricks[-1].winner == 0
    assert state.scores == (12, 0, 0, 0)
    trick = [e for e in events if e["kind"] == "trick"][0]
    assert trick["points"] == 12 and trick["winner"] == 0
    assert trick["breakdown"][-1] == "two runs of 3 is 12"


def test_each_player_scores_a_point_a_trick_at_the_end_of_the_hand():
    state = position(["2H 2C", "4H 3C", "KH 4C", "7S 9C"], dealer=3)
    state, events = run(state, (0, "2H"), (1, "4H"), (2, "KH"), (3, "7S"))
    assert state.scores == (0, 0, 0, 0)  # 2 4 K 7 scores nothing
    state, events = run(state, (2, "4C"), (3, "9C"), (0, "2C"), (1, "3C"))
    # 4C 9C 2C 3C: a flush (4) plus 2+4+9 = 15 (2) and the run 2-3-4 (3): 9 to seat 3
    assert state.tricks[-1].winner == 3 and state.tricks[-1].points == 9
    assert state.phase == HAND_OVER
    assert CRIBIST.view(state, 0)["tricks_won"] == [0, 0, 1, 1]  # each seat's own bundle
    assert state.scores == (0, 0, 1, 9 + 1)
    assert "trick_points" in kinds(events)
    assert state.sheet == ((0, 0, 1, 10),)


def test_every_seat_continues_before_the_next_deal_which_passes_left():
    state = position(["2H 2C", "4H 3C", "KH 4C", "7S 9C"], dealer=3)
    state, _ = run(state, (0, "2H"), (1, "4H"), (2, "KH"), (3, "7S"))
    state, _ = run(state, (2, "4C"), (3, "9C"), (0, "2C"), (1, "3C"))
    assert CRIBIST.to_move(state) == {0, 1, 2, 3}
    state, _ = run(state, (2, "continue"))
    with pytest.raises(IllegalMove, match="already"):
        CRIBIST.apply(state, 2, move("continue"))
    state, events = run(state, (0, "continue"), (1, "continue"), (3, "continue"))
    assert state.phase == PLAY and state.hand == 2 and state.dealer == 0
    assert state.leader == 1 and state.trump is None
    assert all(len(hand) == 13 for hand in state.held)
    assert "deal" in kinds(events)


def test_moves_out_of_place_say_what_is_expected():
    state = position(["2H 2C", "3H 3C", "KH 4C", "7S 9C"], dealer=3)
    with pytest.raises(IllegalMove, match="now is the play"):
        CRIBIST.apply(state, 0, move("continue"))
    with pytest.raises(IllegalMove, match="no move"):
        CRIBIST.apply(state, 0, {"type": "fly"})
    with pytest.raises(IllegalMove, match="seat"):
        CRIBIST.apply(state, 7, move("2H"))
    with pytest.raises(IllegalMove, match="object"):
        CRIBIST.apply(state, 0, "2H")  # type: ignore[arg-type]


def test_the_hand_in_view_is_sorted_by_suit():
    state = position(["KS 2C AH 9C 3D", "", "", ""], dealer=3)
    assert CRIBIST.view(state, 0)["hand"] == ["2C", "9C", "3D", "AH", "KS"]
