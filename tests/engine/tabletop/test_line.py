"""Scoring a line of the layout: a cribbage hand of up to five cards without a starter."""

from __future__ import annotations

import pytest

from games.engine.pieces.cards import CardError, parse_cards
from games.engine.scoring import NOBS_KIND
from games.engine.scoring.line import line_points, score_line


def _score(text: str, flush_min: int = 5) -> int:
    cards = parse_cards(text)
    show = score_line(cards, flush_min)
    assert line_points(cards, flush_min) == show.total  # the fast count agrees
    return show.total


def test_it_counts_the_rule_texts_example_six_seven_seven_eight_eight_as_24():
    show = score_line(parse_cards("6H 7C 7S 8D 8H"))
    kinds = [item.kind for item in show.items]
    assert show.total == 24
    assert kinds.count("fifteen") == 4 and kinds.count("pair") == 2 and kinds.count("run") == 4


def test_it_scores_a_run_of_four_as_4_without_the_runs_of_three_inside_it():
    assert _score("9C TD JH QS") == 4


def test_it_scores_a_run_of_five_as_5():
    assert _score("9C TD JH QS KC") == 5


def test_aces_are_low_so_queen_king_ace_is_no_run():
    assert _score("QC KD AH") == 0
    assert _score("AC 2D 3H") == 3


def test_pairs_pair_royal_and_four_of_a_kind():
    assert _score("2C 2D") == 2
    assert _score("3C 3D 3H KS QS") == 6
    assert _score("2C 2D 2H 2S KC") == 12


def test_every_fifteen_scores_2():
    assert _score("5C TD") == 2
    assert _score("5C 5D 5H JS QS") == 20  # seven fifteens and a pair royal


def test_a_flush_needs_all_five_cards_of_a_suit_in_table_top():
    assert _score("2H 4H 6H 8H QH") == 5  # no fifteen, pair or run: the flush alone
    assert _score("2H 4H 6H 8H QS") == _score("2H 4D 6C 8S QS")  # four of a suit: nothing


def test_a_four_card_flush_counts_4_in_crosscrib_and_a_five_card_flush_5():
    assert _score("2H 4H 6H 8H QS", flush_min=4) == _score("2H 4D 6C 8S QS") + 4
    assert _score("2H 4H 6H 8H QH", flush_min=4) == _score("2H 4H 6H 8H QH")
    assert _score("2H 4H 6S 8S QS", flush_min=4) == _score("2H 4D 6C 8S QS")


def test_a_line_has_no_nobs_nor_heels():
    show = score_line(parse_cards("JH 2H 7C 9S KD"))
    assert NOBS_KIND not in {item.kind for item in show.items}
    assert show.total == 0


def test_a_line_refuses_a_repeated_card_or_more_than_five():
    with pytest.raises(CardError, match="twice"):
        score_line(parse_cards("5H 5H", distinct=False))
    with pytest.raises(CardError, match="at most 5"):
        score_line(parse_cards("AC 2C 3C 4C 5C 6C"))
