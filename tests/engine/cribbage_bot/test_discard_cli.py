"""python -m games.engine discard CARDS --dealer | --pone."""

from __future__ import annotations

import json

import pytest

from games.engine.__main__ import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_it_ranks_the_issues_hand_as_dealer(capsys):
    status, out, _ = run(capsys, "discard", "5H", "5C", "JD", "6S", "7S", "KH", "--dealer")
    assert status == 0
    discards = json.loads(out)["discards"]
    assert discards[:2] == [
        {"cards": ["6S", "7S"], "hand": 12.43, "crib": 5.37, "total": 17.81},
        {"cards": ["JD", "KH"], "hand": 12.22, "crib": 4.0, "total": 16.22},
    ]
    assert len(discards) == 15
    assert [d["total"] for d in discards] == sorted((d["total"] for d in discards), reverse=True)


def test_as_pone_the_crib_counts_against(capsys):
    status, out, _ = run(capsys, "discard", "5H", "5C", "JD", "6S", "7S", "KH", "--pone")
    assert status == 0
    for d in json.loads(out)["discards"]:
        assert d["total"] == pytest.approx(d["hand"] - d["crib"], abs=0.011)


def test_three_and_four_handed_throw_one_card(capsys):
    status, out, _ = run(
        capsys, "discard", "5H", "5C", "JD", "6S", "7S", "--pone", "--players", "4"
    )
    assert status == 0
    discards = json.loads(out)["discards"]
    assert len(discards) == 5 and all(len(d["cards"]) == 1 for d in discards)


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["5H", "5C", "JD", "6S", "7S", "ZZ", "--dealer"], "not a card"),
        (["5H", "5C", "JD", "6S", "7S", "5H", "--dealer"], "twice"),
        (["5H", "5C", "JD", "6S", "7S", "--dealer"], "6 cards"),
    ],
)
def test_bad_cards_exit_2_with_the_reason(capsys, argv, reason):
    status, _, err = run(capsys, "discard", *argv)
    assert status == 2
    assert reason in err


def test_it_needs_to_know_who_deals(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["discard", "5H", "5C", "JD", "6S", "7S", "KH"])
    assert exit_.value.code == 2
