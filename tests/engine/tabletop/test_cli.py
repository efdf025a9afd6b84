"""The command line for Table Top Cribbage and CrossCrib: score a line, count a layout."""

from __future__ import annotations

import json

import pytest

from games.engine.__main__ import main

from .helpers import LAYOUT, LAYOUT_COLUMNS, LAYOUT_ROWS


def run(capsys, *argv: str) -> tuple[int, dict | None, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, json.loads(out) if status == 0 else None, err


def test_score_prints_a_lines_total_as_json(capsys):
    status, result, _ = run(capsys, "score", "--variant", "tabletop", "6H", "7C", "7S", "8D", "8H")
    assert status == 0 and result["total"] == 24
    assert result["breakdown"][-1] == "four runs of 3 is 24"


def test_score_applies_the_four_card_flush_with_crosscrib(capsys):
    cards = ["2H", "4H", "6H", "8H", "QS"]
    assert run(capsys, "score", "--variant", "tabletop", *cards)[1]["total"] == 0
    assert run(capsys, "score", "--variant", "crosscrib", *cards)[1]["total"] == 4


@pytest.mark.parametrize(
    ("cards", "reason"),
    [(["6H", "6H"], "twice"), (["6X"], "not a card"), (["AC", "2C", "3C", "4C", "5C", "6C"], "5")],
)
def test_score_exits_2_with_the_reason_on_bad_input(capsys, cards, reason):
    status, _, err = run(capsys, "score", "--variant", "tabletop", *cards)
    assert status == 2 and reason in err


def test_layout_prints_every_row_and_column_and_the_totals(capsys):
    status, result, _ = run(capsys, "layout", "--variant", "tabletop", *LAYOUT.split())
    assert status == 0
    assert result == {
        "rows": LAYOUT_ROWS,
        "columns": LAYOUT_COLUMNS,
        "rows_total": sum(LAYOUT_ROWS),
        "columns_total": sum(LAYOUT_COLUMNS),
    }


def test_layout_with_crosscrib_counts_the_crib_with_the_centre_as_starter(capsys):
    # The centre is 9H: J+3+2 and 6+9 are fifteens (4) and the jack of hearts is nobs (1).
    argv = ["layout", "--variant", "crosscrib", *LAYOUT.split(), "--crib", "JH", "6S", "3S", "2D"]
    status, result, _ = run(capsys, *argv)
    assert status == 0 and result["crib"] == 5 and "nobs" in result["crib_breakdown"]
    assert result["rows"] == LAYOUT_ROWS  # no line of this layout holds four of a suit but one


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        (["--crib", "JH", "6S", "3S"], "4 cards"),
        (["--crib", "JH", "6S", "3S", "5H"], "both in the layout and in the crib"),
    ],
)
def test_layout_refuses_a_bad_crib(capsys, extra, reason):
    status, _, err = run(capsys, "layout", "--variant", "crosscrib", *LAYOUT.split(), *extra)
    assert status == 2 and reason in err


def test_layout_exits_2_on_a_wrong_count_a_repeated_card_or_a_crib_in_table_top(capsys):
    cards = LAYOUT.split()
    status, _, err = run(capsys, "layout", "--variant", "tabletop", *cards[:24])
    assert status == 2 and "25 cards" in err
    status, _, err = run(capsys, "layout", "--variant", "tabletop", *cards[:24], cards[0])
    assert status == 2 and "twice" in err
    status, _, err = run(capsys, "layout", "--variant", "tabletop", *cards, "--crib", "JH")
    assert status == 2 and "no crib" in err


def test_selfplay_runs_each_variant_and_player_count(capsys):
    for variant, players in (("tabletop", "2"), ("tabletop", "4"), ("crosscrib", "2")):
        argv = ["selfplay", "--variant", variant, "--players", players, "--games", "2"]
        status, result, _ = run(capsys, *argv, "--seed", "cli")
        assert status == 0 and result["finished"] == 2 and result["errors"] == 0
    status, _, err = run(capsys, "selfplay", "--variant", "crosscrib", "--players", "4",
                         "--games", "1", "--seed", "x")  # fmt: skip
    assert status == 2 and "2 players" in err
