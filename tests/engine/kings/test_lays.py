"""One lay on the board: where tiles may go, the hands they form, bonuses, and each rule's
message. The rule text's board examples are here square by square."""

from __future__ import annotations

import io
import json

import pytest

from games.engine.core.cli import main
from games.engine.core.variant import IllegalMove
from games.engine.kings.board import (
    EMPTY_BOARD,
    GRID,
    HOLES,
    board_text,
    parse_board,
    parse_lay,
    score_lay,
)
from tests.engine.kings.helpers import board_with, column_of, row_of


def scored(board, *tokens, first=False, **options):
    return score_lay(board, parse_lay(" ".join(tokens)), first=first, **options)


def hands(result):
    return [("".join(face[0] for face in hand.faces), hand.points) for hand in result.hands]


# --- the board ------------------------------------------------------------------------------


def test_the_board_is_13_by_13_less_the_corner():
    assert GRID.size == 163
    assert {(r, c) for r in (11, 12) for c in (10, 11, 12)} == HOLES


def test_board_notation_round_trips_and_marks_the_corner():
    board = board_with("0,0=AL", "6,6=9D", "12,9=KD")
    text = board_text(board)
    lines = text.splitlines()
    assert len(lines) == 13 and lines[11].split()[10:] == ["#", "#", "#"]
    assert lines[6].split()[6] == "9D" and lines[0].split()[0] == "AL"
    assert parse_board(text) == board


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda rows: rows[:12], "13 lines"),
        (lambda rows: [*rows[:11], rows[11].replace("#", ".", 1), rows[12]], "missing corner"),
        (lambda rows: [rows[0].replace(".", "#", 1), *rows[1:]], "not in the missing corner"),
        (lambda rows: [rows[0].replace(".", "ZZ", 1), *rows[1:]], "not a tile"),
    ],
)
def test_bad_board_notation_is_refused(change, message):
    rows = board_text(EMPTY_BOARD).splitlines()
    with pytest.raises(ValueError, match=message):
        parse_board("\n".join(change(rows)))


# --- the rule text's examples ---------------------------------------------------------------


def test_connecting_7a7a_through_an_old_ace():
    board = board_with(*column_of(5, 9, "7L 7D AL"))  # 7-7-A: a valid hand already there
    result = scored(board, "7,6=7D 7,7=AD 7,8=7L")
    assert hands(result) == [("7A7A", 8)] and result.total == 8


def test_connecting_5qkk_to_an_old_five():
    board = board_with(*column_of(4, 3, "TL 5L"))
    result = scored(board, "5,4=QD 5,5=KD 5,6=KL")
    assert hands(result) == [("5QKK", 8)] and result.total == 8


def test_extending_7833_counts_the_old_fifteen():
    board = board_with(*row_of(6, 5, "7L 8L"))
    result = scored(board, "6,7=3D 6,8=3L")
    assert hands(result) == [("7833", 4)] and result.total == 4


def test_connecting_and_extending_for_42():
    board = board_with(*column_of(7, 8, "4L 4D 7L"))
    result = scored(board, *row_of(6, 5, "8L 7D 8D 7D 9L"))
    assert hands(result) == [("87879", 24), ("7447", 8)]
    assert result.bonuses == (("five_tiles", 10),)
    assert result.total == 42


def test_parallel_lay_for_28():
    board = board_with(*row_of(5, 3, "8L 7L 6L 5L"))
    result = scored(board, *row_of(6, 5, "9D TD JD JL 5D"))
    assert hands(result) == [("9TJJ5", 14), ("69", 2), ("5T", 2)]
    assert result.total == 28
    assert result.text() == (
        "hand 9-T-J-J-5: 14, hand 6-9: 2, hand 5-T: 2, + 10 bonus (all five tiles)"
    )


def test_a_parallel_lay_forms_several_two_tile_hands():
    board = board_with(*row_of(5, 3, "5L KL"))
    result = scored(board, "6,3=TL 6,4=5D")
    assert hands(result) == [("T5", 2), ("5T", 2), ("K5", 2)] and result.total == 6


def test_a_line_through_existing_tiles_counts_them_all():
    board = board_with("6,5=7L", "6,7=7D", *column_of(4, 5, "8L 7D"))
    result = scored(board, "6,4=AL 6,6=AD")  # fills the hole between the sevens: A-7-A-7
    assert hands(result) == [("A7A7", 8)]


# --- the first lay --------------------------------------------------------------------------


def test_the_first_lay_goes_anywhere_with_the_first_bonus():
    result = scored(EMPTY_BOARD, "0,0=5L 0,1=TD", first=True)
    assert result.bonuses == (("first", 10),) and result.total == 12


def test_the_first_lay_is_two_tiles_or_more():
    with pytest.raises(IllegalMove, match="two or more tiles"):
        scored(EMPTY_BOARD, "6,6=5L", first=True)


def test_centre_start_puts_the_first_lay_over_the_centre():
    with pytest.raises(IllegalMove, match="centre square 6,6"):
        scored(EMPTY_BOARD, "0,0=5L 0,1=TD", first=True, centre_start=True)
    assert scored(EMPTY_BOARD, "6,5=5L 6,6=TD", first=True, centre_start=True).total == 12


def test_five_tiles_on_the_first_lay_and_the_reduced_option():
    five = "6,4=7L 6,5=8L 6,6=9L 6,7=TL 6,8=JL"  # a run of five, all light: 5 + flush
    full = scored(EMPTY_BOARD, five, first=True)
    assert [kind for kind, _ in full.bonuses] == ["first", "five_tiles", "flush"]
    assert full.total == 2 + 5 + 30  # fifteen 7-8
    reduced = scored(EMPTY_BOARD, five, first=True, reduced_first_bonus=True)
    assert [kind for kind, _ in reduced.bonuses] == ["first", "flush"]


# --- bonuses --------------------------------------------------------------------------------


def test_extending_to_five_of_a_suit_earns_the_flush():
    board = board_with(*row_of(6, 3, "9L TL JL JL"))
    result = scored(board, "6,7=5L")
    assert result.bonuses == (("flush", 10),) and result.total == 24
    mixed = scored(board, "6,7=5D")
    assert mixed.bonuses == () and mixed.total == 14


# --- the rules a lay must keep --------------------------------------------------------------

TWO = board_with(*row_of(6, 5, "5L TL"))


@pytest.mark.parametrize(
    ("tokens", "message"),
    [
        ("11,10=5D", "missing corner"),
        ("13,0=5D", "off the board"),
        ("6,5=5D", "already has a tile"),
        ("7,5=TD 7,5=KD", "two tiles are laid on square 7,5"),
        ("7,5=TD 8,6=KD", "one row or one column"),
        ("7,5=KD 7,7=KL", "gap at 7,6"),
        ("9,9=5D 9,10=TD", "touch a tile"),
        ("7,7=5D", "touch a tile"),  # a corner alone does not connect
        ("6,7=5D 6,8=5D 6,9=5D 6,10=5D", "6 tiles"),
        ("6,7=AD", "the A scores nothing"),
        ("5,5=5D 5,6=KL", "the line K-T the K, T score nothing"),  # the king over the ten
        ("6,1=1L", "not a tile"),
    ],
)
def test_each_rule_has_its_message(tokens, message):
    with pytest.raises(IllegalMove, match=message):
        scored(TWO, tokens)


def test_a_lay_is_one_to_five_tiles():
    with pytest.raises(IllegalMove, match="1 to 5"):
        scored(TWO, *row_of(7, 0, "AL AL AL AL AL AL"))


def test_nothing_lands_in_the_corner_hole_even_as_a_line():
    board = board_with(*row_of(11, 6, "5L TL"))
    with pytest.raises(IllegalMove, match="missing corner"):
        scored(board, "11,8=5D 11,9=5D 11,10=5D")
    assert scored(board, "11,8=5D 11,9=TD").total > 0


# --- the command line -----------------------------------------------------------------------


def test_lay_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "board.txt"
    path.write_text(board_text(board_with(*row_of(5, 3, "8L 7L 6L 5L"))))
    argv = ["lay", "--variant", "kings", "--board", str(path), *row_of(6, 5, "9D TD JD JL 5D")]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == 28
    assert [hand["tiles"] for hand in out["hands"]][0] == ["9D", "TD", "JD", "JL", "5D"]
    assert [hand["points"] for hand in out["hands"]] == [14, 2, 2]
    assert out["bonus"] == [{"kind": "five_tiles", "points": 10}]


def test_lay_reads_the_board_from_stdin_and_knows_the_first_lay(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(board_text(EMPTY_BOARD)))
    assert main(["lay", "--variant", "kings", "--board", "-", "--first", "6,6=5L", "6,7=KD"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == 12 and out["bonus"] == [{"kind": "first", "points": 10}]


@pytest.mark.parametrize(
    ("tokens", "message"),
    [("7,7=5D 8,8=5D", "one row or one column"), ("0,0=5D", "touch a tile"), ("x", "ROW,COL")],
)
def test_an_illegal_lay_exits_2_with_the_rule(tmp_path, capsys, tokens, message):
    path = tmp_path / "board.txt"
    path.write_text(board_text(TWO))
    assert main(["lay", "--variant", "kings", "--board", str(path), *tokens.split()]) == 2
    assert message in capsys.readouterr().err
