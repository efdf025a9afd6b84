"""CrossCrib: what it changes from Table Top Cribbage (the crib, free squares, the four-card
flush, game points by the difference), each rule with its test."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, computer_move, get_variant
from games.engine.crosscrib import CROSSCRIB
from games.engine.pieces.cards import parse_card, parse_cards
from games.engine.tabletop import TableTop, position
from games.engine.tabletop.count import count_crib, count_lines
from tests.engine.tabletop.helpers import LAYOUT, layout_missing_last, visible_cards

CENTRE_ONLY = " ".join(["."] * 12 + ["8C"] + ["."] * 12)


def test_crosscrib_is_table_top_with_a_few_rules_changed():
    assert isinstance(CROSSCRIB, TableTop) and get_variant("crosscrib") is CROSSCRIB
    assert CROSSCRIB.player_counts == (2,)
    assert CROSSCRIB.clean_options(2, {}) == {"target": 31}


def test_each_player_gets_14_cards_and_23_stay_out_of_play():
    state = CROSSCRIB.new_state(2, {}, b"deal")
    assert [len(stack) for stack in state.stacks] == [14, 14]
    assert len(state.out) == 23


def test_a_card_may_go_on_any_empty_square_touching_or_not():
    state = position("crosscrib", CENTRE_ONLY, ["5H 2C 9S", "3D 4D 7C"], dealer=1)
    places = [m for m in CROSSCRIB.legal_moves(state, 0) if m["type"] == "place"]
    assert len(places) == 24 and {"type": "place", "row": 0, "col": 4} in places
    after, _ = CROSSCRIB.apply(state, 0, {"type": "place", "row": 4, "col": 0})
    assert str(after.at((4, 0))) == "5H"


def test_a_player_may_crib_the_turned_card_twice_a_deal_and_no_more():
    state = position("crosscrib", CENTRE_ONLY, ["5H 2C 9S 4C 6H", "3D 4D 7C 8D 9D"], dealer=1)
    assert {"type": "crib"} in CROSSCRIB.legal_moves(state, 0)
    state, events = CROSSCRIB.apply(state, 0, {"type": "crib"})
    assert state.cribs[0] == (parse_card("5H"),)
    assert events[0]["kind"] == "crib" and (events[0]["cribbed"], events[0]["of"]) == (1, 2)
    assert "5H" not in str(events)  # the card put away is not named
    state, _ = CROSSCRIB.apply(state, 1, {"type": "place", "row": 1, "col": 1})
    state, _ = CROSSCRIB.apply(state, 0, {"type": "crib"})
    state, _ = CROSSCRIB.apply(state, 1, {"type": "place", "row": 1, "col": 2})
    assert {"type": "crib"} not in CROSSCRIB.legal_moves(state, 0)
    with pytest.raises(IllegalMove, match="already put your 2 cards"):
        CROSSCRIB.apply(state, 0, {"type": "crib"})


def test_a_player_who_owes_as_many_crib_cards_as_turns_left_must_crib():
    state = position("crosscrib", CENTRE_ONLY, ["5H 2C", "3D 4D 7C"], dealer=1)
    assert CROSSCRIB.legal_moves(state, 0) == [{"type": "crib"}]
    with pytest.raises(IllegalMove, match="must go to the crib"):
        CROSSCRIB.apply(state, 0, {"type": "place", "row": 0, "col": 0})
    state = position("crosscrib", CENTRE_ONLY, ["5H", "3D 4D"], cribs=["9S", ""], dealer=1)
    assert CROSSCRIB.legal_moves(state, 0) == [{"type": "crib"}]
    state = position("crosscrib", CENTRE_ONLY, ["5H 2C", "3D 4D"], cribs=["9S", ""], dealer=1)
    moves = CROSSCRIB.legal_moves(state, 0)
    assert {"type": "crib"} in moves and len(moves) == 25  # not forced yet


def test_the_turned_card_is_seen_only_by_its_owner_until_it_is_placed():
    state = CROSSCRIB.new_state(2, {}, b"secret turn")
    owner, other = state.turn, 1 - state.turn
    turned = str(state.turned)
    assert CROSSCRIB.view(state, owner)["turned"] == turned
    for seat in (other, None):
        view = CROSSCRIB.view(state, seat)
        assert view["turned"] is None and view["turned_hidden"] is True
        assert turned in CROSSCRIB.hidden(state, seat) and turned not in visible_cards(view)
    assert turned not in CROSSCRIB.hidden(state, owner)
    move = next(m for m in CROSSCRIB.legal_moves(state, owner) if m["type"] == "place")
    state, _ = CROSSCRIB.apply(state, owner, move)
    assert turned in visible_cards(CROSSCRIB.view(state, other))


def test_crib_cards_are_seen_only_by_the_player_who_put_them_there_until_the_count():
    state = position("crosscrib", CENTRE_ONLY, ["5H 2C", "3D 4D"], cribs=["9S", "KD"], dealer=1)
    assert CROSSCRIB.view(state, 0)["crib"]["mine"] == ["9S"]
    assert "KD" not in visible_cards(CROSSCRIB.view(state, 0))
    assert "9S" not in visible_cards(CROSSCRIB.view(state, 1))
    assert not {"9S", "KD"} & visible_cards(CROSSCRIB.view(state, None))
    assert CROSSCRIB.view(state, None)["crib"]["counts"] == [1, 1]
    assert CROSSCRIB.view(state, None)["crib"]["owed"] == [1, 1]


def _last_card(cribs, dealer, scores=(0, 0), target=31):
    """The worked layout's last card (QD) placed by seat 0; `dealer` is seat 1 or 0."""
    stacks = ["QD", ""] if dealer == 1 else ["QD", ""]
    state = position(
        "crosscrib",
        layout_missing_last(),
        stacks,
        cribs=cribs,
        dealer=dealer,
        turn=0,
        scores=scores,
        target=target,
    )
    return CROSSCRIB.apply(state, 0, {"type": "place", "row": 4, "col": 4})


def test_the_crib_counts_for_the_dealer_with_the_centre_as_starter_and_nobs():
    # Columns 21 for seat 0; rows 58 for seat 1, who deals and has the crib: J+3+2 and 6+9
    # with the centre 9H (4) and the jack of hearts, nobs (1).
    state, events = _last_card(["JH 6S", "3S 2D"], dealer=1, target=100)
    assert state.last.crib_points == 5 and "nobs" in state.last.crib_breakdown
    assert state.last.hand_points == (21, 58 + 5)
    assert state.last.gained == (0, 42)
    assert state.scores == (0, 42) and state.phase == "counted"
    crib_event = next(e for e in events if e["kind"] == "crib_count")
    assert crib_event["points"] == 5 and sorted(crib_event["cards"]) == ["2D", "3S", "6S", "JH"]
    view = CROSSCRIB.view(state, 0)
    assert sorted(view["last"]["crib"]) == ["2D", "3S", "6S", "JH"]


def test_a_crib_scores_only_a_five_card_flush():
    assert count_crib(parse_cards("2H 4H 6H 8H"), parse_card("KC"))[0] == 0
    assert count_crib(parse_cards("2H 4H 6H 8H"), parse_card("KH"))[0] == 5
    assert count_crib(parse_cards("JC 2H 4D 6S"), parse_card("KC"))[0] == 1  # nobs


def test_a_line_flush_counts_with_four_cards_of_a_suit():
    board = parse_cards(LAYOUT.replace("6H 6D 9C 9S QD", "6H 6D 9D JD QD"))
    rows = {line.number: line.points for line in count_lines(board, CROSSCRIB.flush_min)}
    table_top = {line.number: line.points for line in count_lines(board, 5)}
    assert rows[4] == table_top[4] + 4


def test_the_side_with_more_hand_points_gains_the_difference_as_game_points():
    assert CROSSCRIB.settle([37, 32], (0, 0)) == (5, 0)  # the rule text's example
    assert CROSSCRIB.settle([30, 44], (0, 0)) == (0, 14)
    assert CROSSCRIB.settle([40, 40], (0, 0)) == (0, 0)


def test_the_first_to_31_game_points_wins_with_no_skunk():
    state, events = _last_card(["JH 6S", "3S 2D"], dealer=0)  # seat 0 deals: 26 to 58
    assert state.last.hand_points == (26, 58) and state.scores == (0, 32)
    result = CROSSCRIB.outcome(state)
    assert result.winners == (1,) and state.phase == "over"
    assert [side.skunk for side in result.sides] == [0, 0]
    assert result.sides[1].terms["game_points"] == 32
    assert "game points" in result.reason


def test_the_tournament_scores_crosscrib_by_its_own_game_points():
    scoring = CROSSCRIB.tournament
    assert (scoring.kind, scoring.stops_at_target, scoring.skunks) == ("race", False, False)
    assert scoring.check_scores([40, 12], {"target": 31}) == [40, 12]
    assert scoring.skunk({"target": 31}, 0) == 0


def test_the_computer_cribs_when_it_must_and_never_more_than_twice():
    state = position("crosscrib", CENTRE_ONLY, ["5H 2C", "3D 4D 7C"], dealer=1)
    for level in ("easy", "strong"):
        assert computer_move(CROSSCRIB, state, 0, level) == {"type": "crib"}
    game = CROSSCRIB.new_state(2, {}, b"crib bot")
    while game.phase == "place":
        move = computer_move(CROSSCRIB, game, game.turn, "strong")
        game, _ = CROSSCRIB.apply(game, game.turn, move)
    assert [len(c) for c in game.cribs] == [2, 2]
