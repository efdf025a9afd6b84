"""Scoring a trick as a cribbage hand of four cards (no starter), and who takes a trick.

Each test names the rule it checks, in our own words; the rule text's worked examples are
4-5-5-6 (two runs of three, two fifteens and a pair: 12) and four of a kind (six pairs: 12).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from games.engine.core.cli import main
from games.engine.pieces.cards import CardError, parse_cards
from games.engine.scoring.trick import score_trick, trick_winner


def total(cards: str, trump: str = "S") -> int:
    return score_trick(parse_cards(cards), trump).total


def kinds(cards: str, trump: str = "S") -> list[str]:
    return [item.kind for item in score_trick(parse_cards(cards), trump).items]


# --- the worked examples --------------------------------------------------------------------


def test_4_5_5_6_scores_two_runs_two_fifteens_and_a_pair_for_12():
    count = score_trick(parse_cards("4H 5C 5S 6D"), "C")
    assert count.total == 12
    assert sorted(item.kind for item in count.items) == [
        "fifteen", "fifteen", "pair", "run", "run",
    ]  # fmt: skip
    assert count.breakdown() == ["fifteen 2", "fifteen 4", "a pair is 6", "two runs of 3 is 12"]


def test_four_of_a_kind_is_six_pairs_for_12():
    assert total("7C 7D 7H 7S", "D") == 12
    assert kinds("7C 7D 7H 7S", "D") == ["pair"] * 6


# --- each combination -----------------------------------------------------------------------


def test_a_flush_of_all_four_cards_scores_4():
    assert total("2H 4H 8H QH", "S") == 4
    assert kinds("2H 4H 8H QH", "S") == ["flush"]


def test_three_cards_of_a_suit_are_no_flush():
    assert total("2H 4H 8H QS", "C") == 0


def test_a_run_of_four_scores_4_and_not_the_runs_of_three_inside_it():
    assert total("2C 3D 4H 5S", "H") == 4
    count = score_trick(parse_cards("2C 3D 4H 5S"), "H")
    assert [i.kind for i in count.items if i.kind == "run"] == ["run"]
    assert [i.points for i in count.items if i.kind == "run"] == [4]


def test_a_run_of_three_scores_3():
    assert total("8C 9D TH 2S", "H") == 3


def test_runs_do_not_wrap_from_king_to_ace():
    assert total("QC KD AH 2S", "H") == 0


def test_a_doubled_card_makes_two_runs_of_three():
    count = score_trick(parse_cards("8C 9D 9H TS"), "C")
    assert [i.points for i in count.items if i.kind == "run"] == [3, 3]


def test_each_combination_making_15_scores_2():
    assert total("7C 8D 2H 3S", "H") == 2  # 7+8 only (2+3 is 5)
    assert total("5C TD JH 3S", "C") == 4  # 5+10 and 5+J
    assert total("AC 2D 3H 9S", "C") == 2 + 3  # 1+2+3+9 = 15, and the run A-2-3


def test_picture_cards_count_10_towards_15():
    assert total("KC 5D 8H 3S", "C") == 2


def test_a_pair_scores_2_and_three_of_a_kind_6():
    assert total("9C 9D 2H 3S", "C") == 2
    assert total("9C 9D 9H 3S", "C") == 6


def test_the_jack_of_trumps_scores_1():
    assert total("JH 2C 4D 8S", "H") == 1
    assert kinds("JH 2C 4D 8S", "H") == ["jack of trumps"]


def test_a_jack_of_another_suit_scores_nothing_for_itself():
    assert total("JH 2C 4D 8S", "S") == 0


def test_several_combinations_add_up():
    # 5 J of trumps 5 T: fifteens 5+J, 5+T, 5+J, 5+T (8), pair of fives 2, jack of trumps 1
    assert total("5C JS 5D TH", "S") == 8 + 2 + 1


def test_bad_tricks_are_refused():
    with pytest.raises(CardError):
        score_trick(parse_cards("5C 5D 5H"), "S")
    with pytest.raises(CardError):
        score_trick(parse_cards("5C 5D 5H 5S"), "X")
    with pytest.raises(CardError):
        score_trick(parse_cards("5C 5C 5H 5S", distinct=False), "S")


# --- who takes a trick ----------------------------------------------------------------------


def test_without_trumps_the_highest_card_of_the_suit_led_wins():
    assert trick_winner(parse_cards("7S KH 9S 2S"), "C") == 2  # KH is off suit


def test_the_highest_trump_wins_when_trumps_are_played():
    assert trick_winner(parse_cards("7S KS 2H 9S"), "H") == 2
    assert trick_winner(parse_cards("7S 3H KS 5H"), "H") == 3


def test_ace_is_low_and_king_high():
    assert trick_winner(parse_cards("AD 2D KD QD"), "C") == 2
    assert trick_winner(parse_cards("AD 2D 3C 4C"), "S") == 1


def test_when_trumps_are_led_the_highest_trump_wins():
    assert trick_winner(parse_cards("4H QH KC 9H"), "H") == 1


# --- the command line -----------------------------------------------------------------------


def test_cli_score_prints_the_total_and_breakdown(capsys):
    assert main(["score", "--variant", "cribist", "4H", "5C", "5S", "6D", "--trump", "H"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 12
    assert data["breakdown"][-1] == "two runs of 3 is 12"


def test_cli_trick_prints_the_winner_position_and_total(capsys):
    assert main(["trick", "--variant", "cribist", "--trump", "H", "7S", "KS", "2H", "9S"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["winner"] == 2 and data["card"] == "2H" and data["total"] == 0


def test_cli_runs_as_a_module():
    """The documented command line, end to end (one subprocess; the rest run in-process)."""
    result = subprocess.run(
        [sys.executable, "-m", "games.engine", "score", "--variant", "cribist"]
        + ["4H", "5C", "5S", "6D", "--trump", "H"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["total"] == 12


@pytest.mark.parametrize(
    "args",
    [
        ["score", "--variant", "cribist", "4H", "5C", "5S", "--trump", "H"],
        ["score", "--variant", "cribist", "4H", "5C", "5S", "6D", "--trump", "Z"],
        ["score", "--variant", "cribist", "4H", "5C", "5C", "6D", "--trump", "H"],
        ["trick", "--variant", "cribist", "--trump", "H", "7S", "XX", "2H", "9S"],
    ],
)
def test_cli_bad_input_exits_2_with_the_reason(args, capsys):
    assert main(args) == 2
    assert "error:" in capsys.readouterr().err
