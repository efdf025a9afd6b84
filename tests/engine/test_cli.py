"""The command line: python -m games.engine score | peg | distribution | selfplay."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import types
from pathlib import Path

import pytest

from games.engine.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_score_prints_the_total_and_the_running_breakdown(capsys) -> None:
    status, out, _ = run(capsys, "score", "5H", "5C", "5S", "JD", "--starter", "5D")
    assert status == 0
    result = json.loads(out)
    assert result["total"] == 29
    assert result["breakdown"][0] == "fifteen 2"
    assert result["breakdown"][-1] == "nobs 29"


def test_score_counts_a_crib_with_the_crib_flush_rule(capsys) -> None:
    hand = ["2H", "4H", "6H", "8H", "--starter", "TC"]
    assert json.loads(run(capsys, "score", *hand)[1])["total"] == 4
    assert json.loads(run(capsys, "score", *hand, "--crib")[1])["total"] == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["5H", "5C", "5S", "JD", "--starter", "5H"], "the starter 5H is also in the hand"),
        (["5H", "5C", "5H", "JD", "--starter", "5D"], "5H appears twice"),
        (["5H", "5C", "5S", "--starter", "5D"], "not 3"),
        (["5H", "5C", "5S", "JD", "2C", "--starter", "5D"], "not 5"),
        (["5H", "5C", "5S", "1D", "--starter", "5D"], "'1D' is not a card"),
        (["5H", "5C", "5S", "JD", "--starter", "5Z"], "'5Z' is not a card"),
        (["5H", "5C", "5S", "JD"], "--starter"),
    ],
)
def test_score_refuses_bad_cards_with_status_2(capsys, argv: list[str], message: str) -> None:
    status, out, err = run(capsys, "score", *argv)
    assert status == 2
    assert out == ""
    assert message in err


def test_score_batch_prints_one_total_a_line(capsys, tmp_path: Path) -> None:
    batch = tmp_path / "hands.txt"
    batch.write_text(
        "# my hands\n5H 5C 5S JD 5D\n\n2H 4H 6H 8H TC\n2H 4H 6H 8H TC crib\n4H 4C 5D 5S 6H\n"
    )
    status, out, _ = run(capsys, "score", "--batch", str(batch))
    assert status == 0
    assert out.splitlines() == ["29", "4", "0", "24"]


def test_score_batch_reads_stdin(capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("5H 5C 5S 5D JD\nJH 2C 4D 8S 6H crib\n"))
    status, out, _ = run(capsys, "score", "--batch", "-")
    assert (status, out) == (0, "28\n1\n")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("5H 5C 5S JD", "found 4 cards"),
        ("5H 5C 5S JD 5H", "the starter 5H is also in the hand"),
        ("5H 5C 5S JD XX", "'XX' is not a card"),
    ],
)
def test_score_batch_names_the_bad_line(capsys, tmp_path: Path, line: str, message: str) -> None:
    batch = tmp_path / "hands.txt"
    batch.write_text(f"5H 5C 5S JD 5D\n# comment\n{line}\n")
    status, out, err = run(capsys, "score", "--batch", str(batch))
    assert status == 2
    assert "line 3" in err and message in err


def test_score_batch_reports_a_missing_file(capsys, tmp_path: Path) -> None:
    status, _, err = run(capsys, "score", "--batch", str(tmp_path / "absent.txt"))
    assert status == 2 and "cannot read" in err


def test_peg_prints_what_the_last_card_scores(capsys) -> None:
    status, out, _ = run(capsys, "peg", "9H", "6C", "8D", "7S")
    assert status == 0
    assert json.loads(out) == {"count": 30, "total": 4, "reasons": [["run of 4", 4]]}


def test_peg_scores_thirty_one(capsys) -> None:
    result = json.loads(run(capsys, "peg", "KH", "QS", "JD", "AC")[1])
    assert result == {"count": 31, "total": 2, "reasons": [["thirty-one", 2]]}


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["KH", "QS", "JD", "2C"], "past 31"), (["KH", "KH"], "KH appears twice"), (["QQ"], "'QQ'")],
)
def test_peg_refuses_impossible_counts(capsys, argv: list[str], message: str) -> None:
    status, out, err = run(capsys, "peg", *argv)
    assert status == 2 and out == "" and message in err


def test_distribution_prints_every_score_and_the_mean(capsys) -> None:
    status, out, _ = run(capsys, "distribution")
    assert status == 0
    result = json.loads(out)
    assert list(result["counts"]) == [str(score) for score in range(30)]
    assert sum(result["counts"].values()) == result["deals"] == 12_994_800
    assert result["counts"]["0"] == 1_009_008
    assert result["counts"]["29"] == 4
    assert round(result["mean"], 4) == 4.7692
    assert result["crib"] is False


def test_distribution_for_the_crib(capsys) -> None:
    result = json.loads(run(capsys, "distribution", "--crib")[1])
    assert result["crib"] is True
    assert result["deals"] == 12_994_800
    assert result["mean"] < 4.7692


def test_selfplay_hands_over_to_the_game_flow(capsys, monkeypatch) -> None:
    calls = []

    def fake_run_selfplay(variant: str, players: int, games: int, seed: str) -> dict:
        calls.append((variant, players, games, seed))
        return {"games": games, "wins": [1, 0]}

    fake = types.ModuleType("games.engine.core.selfplay")
    fake.run_selfplay = fake_run_selfplay  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "games.engine.core.selfplay", fake)
    argv = ["selfplay", "--variant", "cribbage", "--players", "2", "--games", "1", "--seed", "x"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert json.loads(out) == {"games": 1, "wins": [1, 0]}
    assert calls == [("cribbage", 2, 1, "x")]


def test_selfplay_reports_arguments_the_game_refuses(capsys, monkeypatch) -> None:
    def refuse(variant: str, players: int, games: int, seed: str) -> dict:
        raise ValueError(f"{variant} is not for {players} players")

    fake = types.ModuleType("games.engine.core.selfplay")
    fake.run_selfplay = refuse  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "games.engine.core.selfplay", fake)
    status, out, err = run(capsys, "selfplay", "--players", "9", "--games", "1", "--seed", "x")
    assert (status, out) == (2, "")
    assert "cribbage is not for 9 players" in err


def test_selfplay_runs_the_real_game_flow(capsys) -> None:
    status, out, _ = run(capsys, "selfplay", "--players", "2", "--games", "1", "--seed", "cli")
    assert status == 0
    assert isinstance(json.loads(out), dict)


def test_the_variant_can_come_first_and_defaults_to_cribbage(capsys, monkeypatch) -> None:
    calls = []
    fake = types.ModuleType("games.engine.core.selfplay")
    fake.run_selfplay = lambda *args: calls.append(args) or {}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "games.engine.core.selfplay", fake)
    run(
        capsys, "--variant", "cribbage", "selfplay", "--players", "2", "--games", "3", "--seed", "s"
    )
    run(capsys, "selfplay", "--players", "3", "--games", "1", "--seed", "t")
    assert calls == [("cribbage", 2, 3, "s"), ("cribbage", 3, 1, "t")]


def test_the_variant_before_the_subcommand_is_the_one_played(capsys) -> None:
    status, out, _ = run(
        capsys, "--variant", "tabletop", "selfplay", "--players", "2", "--games", "1", "--seed", "v"
    )
    assert status == 0 and json.loads(out)["variant"] == "tabletop"


def test_an_unknown_variant_is_refused(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--variant", "chess", "score", "5H", "5C", "5S", "JD", "--starter", "5D"])
    assert exit_info.value.code == 2
    assert "chess" in capsys.readouterr().err


def test_a_subcommand_is_required(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([])
    assert exit_info.value.code == 2


def test_the_module_runs_as_a_program() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "score", "5h", "5c", "5s", "jd", "--starter", "5d"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == 29
    failed = subprocess.run(
        [sys.executable, "-m", "games.engine", "peg", "KH", "QS", "JD", "5C"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert failed.returncode == 2
    assert "past 31" in failed.stderr
