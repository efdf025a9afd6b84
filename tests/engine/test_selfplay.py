"""Self-play: random legal games played to the end and summarised."""

from __future__ import annotations

import pytest

from games.engine.core.selfplay import run_selfplay


@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_plays_every_game_to_the_end(players):
    summary = run_selfplay("cribbage", players, 4, "club night")
    assert (summary["finished"], summary["unfinished"], summary["errors"]) == (4, 0, 0)
    assert sum(side["wins"] for side in summary["sides"]) == 4
    assert len(summary["sides"]) == (2 if players == 4 else players)
    winners_reach_target = max(side["mean_final_score"] for side in summary["sides"])
    assert 0 < winners_reach_target <= 121
    assert summary["mean_moves"] > 50


def test_it_gives_the_same_summary_for_the_same_seed():
    first = run_selfplay("cribbage", 2, 3, "same", {"target": 61, "muggins": True})
    assert first == run_selfplay("cribbage", 2, 3, "same", {"target": 61, "muggins": True})
    assert first != run_selfplay("cribbage", 2, 3, "other", {"target": 61, "muggins": True})


def test_it_counts_skunks_from_the_games_played():
    # random play loses by 30 points or more often (about one game in seven)
    summary = run_selfplay("cribbage", 2, 40, "skunks")
    assert 1 <= summary["skunks"] + summary["double_skunks"] <= 40


@pytest.mark.parametrize(
    ("variant", "players", "games", "message"),
    [
        ("snap", 2, 1, "there is no game called 'snap'"),
        ("cribbage", 5, 1, "Cribbage is for 2, 3 or 4 players, not 5"),
        ("cribbage", 2, -1, "the number of games"),
    ],
)
def test_it_refuses_bad_arguments(variant, players, games, message):
    with pytest.raises(ValueError, match=message):
        run_selfplay(variant, players, games, "x")
