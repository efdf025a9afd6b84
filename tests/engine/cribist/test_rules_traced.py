"""Every rule of the Cribist rule text (shared/rules/cribist.txt), in our own words, with the
tests that check it; this test fails if a named test goes missing."""

from __future__ import annotations

import importlib

import pytest

RULES = {
    "four players, one normal pack of 52": [
        "test_play.test_it_is_registered_for_four_players_only",
        "test_play.test_the_deal_gives_thirteen_cards_one_at_a_time_from_the_dealers_left",
    ],
    "aces low, kings high": ["test_trick_scoring.test_ace_is_low_and_king_high"],
    "court cards count 10 when counting": [
        "test_trick_scoring.test_picture_cards_count_10_towards_15",
    ],
    "the match is a number of deals, a time, or a race to a target": [
        "test_endings.test_the_default_is_ten_deals",
        "test_endings.test_time_up_during_a_hand_finishes_that_hand_and_ends_the_match",
        "test_endings.test_reaching_the_target_with_a_trick_ends_the_match_at_once",
    ],
    "the deal moves to the left": [
        "test_play.test_every_seat_continues_before_the_next_deal_which_passes_left",
    ],
    "one card at a time, clockwise from the dealer's left, thirteen each": [
        "test_play.test_the_deal_gives_thirteen_cards_one_at_a_time_from_the_dealers_left",
    ],
    "the dealer's left leads, and the suit led is trumps for the hand": [
        "test_play.test_the_opening_lead_names_trumps_for_the_whole_hand",
    ],
    "follow suit when you can": ["test_play.test_a_player_must_follow_the_suit_led"],
    "otherwise play any card": [
        "test_play.test_a_player_out_of_the_suit_led_may_play_any_card",
    ],
    "the highest trump wins, else the highest card of the suit led": [
        "test_play.test_the_highest_trump_takes_the_trick",
        "test_play.test_without_trumps_in_it_the_highest_card_of_the_suit_led_takes_the_trick",
        "test_trick_scoring.test_when_trumps_are_led_the_highest_trump_wins",
    ],
    "each player's tricks are kept apart": [
        "test_play.test_each_player_scores_a_point_a_trick_at_the_end_of_the_hand",
    ],
    "the winner of a trick scores it by cribbage rules": [
        "test_play.test_the_winner_scores_the_trick_at_once_when_muggins_is_off",
    ],
    "a flush of four 4": ["test_trick_scoring.test_a_flush_of_all_four_cards_scores_4"],
    "a straight of four 4, never turning the corner from king to ace": [
        "test_trick_scoring.test_a_run_of_four_scores_4_and_not_the_runs_of_three_inside_it",
        "test_trick_scoring.test_runs_do_not_wrap_from_king_to_ace",
    ],
    "a straight of three 3": ["test_trick_scoring.test_a_run_of_three_scores_3"],
    "each combination making 15 is 2": [
        "test_trick_scoring.test_each_combination_making_15_scores_2",
    ],
    "each pair 2": ["test_trick_scoring.test_a_pair_scores_2_and_three_of_a_kind_6"],
    "the jack of trumps 1": [
        "test_trick_scoring.test_the_jack_of_trumps_scores_1",
        "test_trick_scoring.test_a_jack_of_another_suit_scores_nothing_for_itself",
    ],
    "combinations count as often as they occur (the two worked examples, 12 each)": [
        "test_trick_scoring.test_4_5_5_6_scores_two_runs_two_fifteens_and_a_pair_for_12",
        "test_trick_scoring.test_four_of_a_kind_is_six_pairs_for_12",
        "test_trick_scoring.test_a_doubled_card_makes_two_runs_of_three",
    ],
    "after the claim and before the next trick, any other player may call muggins": [
        "test_muggins.test_after_a_short_declaration_the_others_may_call_before_the_next_lead",
        "test_muggins.test_once_every_other_player_has_called_or_passed_the_winner_leads",
    ],
    "a call states the points and where they are": [
        "test_muggins.test_calls_that_name_nothing_sensible_are_refused",
        "test_muggins.test_a_call_stating_the_wrong_number_of_points_is_wrong",
    ],
    "a valid call wins the points claimed, an invalid one loses as many": [
        "test_muggins.test_a_right_call_scores_the_points_named_for_the_caller",
        "test_muggins.test_a_wrong_call_costs_the_caller_the_points_claimed",
        "test_muggins.test_a_call_for_more_than_was_missed_is_wrong",
    ],
    "at the end of the hand, 1 point for each trick won": [
        "test_play.test_each_player_scores_a_point_a_trick_at_the_end_of_the_hand",
    ],
    "the first to the target wins, else the most points at the end": [
        "test_endings.test_reaching_the_target_with_a_trick_ends_the_match_at_once",
        "test_endings.test_the_highest_score_wins_and_equal_scores_share_the_win",
    ],
}


@pytest.mark.parametrize("rule", sorted(RULES))
def test_every_rule_has_its_tests(rule):
    for name in RULES[rule]:
        module, function = name.split(".")
        found = importlib.import_module(f"{__package__}.{module}")
        assert callable(getattr(found, function, None)), f"{name} is missing for: {rule}"
