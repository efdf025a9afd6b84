"""Tile hands: the rule text's worked examples and the validity rule, through the scorer and
the command line."""

from __future__ import annotations

import json
from itertools import combinations_with_replacement

import pytest

from games.engine.core.cli import main
from games.engine.pieces.tiles import parse_rank
from games.engine.scoring import combination_points, rank_key
from games.engine.scoring.tiles import INVALID, hand_points, points_by_ranks, score_tile_hand


def ranks(text: str) -> list[int]:
    return [parse_rank(ch) for ch in text]


@pytest.mark.parametrize(
    ("hand", "total", "fifteens", "pairs", "runs"),
    [
        ("K69K", 4, 2, 2, 0),  # fifteen 6-9, pair of kings
        ("JJ5", 6, 4, 2, 0),  # two fifteens J-5, pair of jacks
        ("98799", 17, 2, 6, 9),  # fifteen 8-7, three nines, three runs 9-8-7
        ("7A7A", 8, 4, 4, 0),  # fifteens 7-7-A twice, two pairs
        ("5QKK", 8, 6, 2, 0),  # three fifteens, pair of kings
        ("7833", 4, 2, 2, 0),  # the fifteen 7-8 and the pair of threes
        ("7447", 8, 4, 4, 0),
        ("87879", 24, 8, 4, 12),
        ("9TJJ5", 14, 6, 2, 6),
        ("69", 2, 2, 0, 0),
        ("5T", 2, 2, 0, 0),
        ("55555", 40, 20, 20, 0),  # five of a kind: 20 for the pairs, and fifteens galore
    ],
)
def test_the_worked_examples_score_as_the_rules_say(hand, total, fifteens, pairs, runs):
    scored = score_tile_hand(ranks(hand))
    assert scored.valid and scored.problem() is None
    assert (scored.total, scored.fifteens, scored.pairs, scored.runs) == (
        total,
        fifteens,
        pairs,
        runs,
    )


def test_pairs_climb_2_6_12_20():
    assert [score_tile_hand([7] * n).pairs for n in (2, 3, 4, 5)] == [2, 6, 12, 20]


def test_runs_are_ace_low_and_never_turn_the_corner():
    assert score_tile_hand(ranks("A23")).runs == 3
    assert not score_tile_hand(ranks("QKA")).valid
    assert not score_tile_hand(ranks("KA2")).valid
    assert score_tile_hand(ranks("9TJQK")).runs == 5


def test_six_tiles_are_too_many_even_when_every_tile_scores():
    hand = score_tile_hand(ranks("676878"))
    assert not hand.valid
    assert "6 tiles" in hand.problem() and "at most five" in hand.problem()
    assert points_by_ranks(ranks("676878")) == INVALID


def test_a_tile_in_no_combination_makes_the_hand_invalid():
    hand = score_tile_hand(ranks("666T"))
    assert not hand.valid and hand.idle == (3,)
    assert hand.problem() == "in the line 6-6-6-T the T scores nothing"


def test_five_of_one_suit_is_not_enough_to_be_valid():
    hand = score_tile_hand(ranks("2468K"))  # even values never make fifteen
    assert not hand.valid and hand.total == 0


def test_the_table_agrees_with_the_plain_count_for_every_hand():
    for size in (2, 3, 4, 5):
        hands = list(combinations_with_replacement(range(1, 14), size))
        for hand in hands if size < 5 else hands[::7]:
            scored = score_tile_hand(hand)
            expected = scored.total if scored.valid else INVALID
            assert hand_points(rank_key(hand)) == expected
            assert scored.total == combination_points(hand)


def test_score_on_the_command_line(capsys):
    assert main(["score", "--variant", "kings", "9", "8", "7", "9", "9"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == 17 and out["runs"] == 9 and out["flush"] is False
    assert main(["score", "--variant", "kings", "9L", "TL", "JL", "JL", "5L"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == 14 and out["flush"] is True


@pytest.mark.parametrize(
    ("tiles", "reason"),
    [("6 6 6 T", "the T scores nothing"), ("6 7 6 8 7 8", "at most five"), ("9 Z", "not a rank")],
)
def test_score_refuses_an_invalid_hand_with_the_reason(capsys, tiles, reason):
    assert main(["score", "--variant", "kings", *tiles.split()]) == 2
    assert reason in capsys.readouterr().err
