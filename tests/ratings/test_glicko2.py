"""Glicko-2 against the worked example of Glickman's paper, and its edge cases."""

import pytest

from accounts.glicko2 import Glicko, Result, expected_score, idle, rate


def test_it_matches_the_papers_worked_example():
    player = Glicko(1500, 200, 0.06)
    results = [
        Result(Glicko(1400, 30), 1),
        Result(Glicko(1550, 100), 0),
        Result(Glicko(1700, 300), 0),
    ]
    after = rate(player, results)
    # The paper, rounding as it goes, prints 1464.06 / 151.52 / 0.05999.
    assert round(after.rating, 2) == 1464.05
    assert round(after.deviation, 2) == 151.52
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_it_grows_only_the_deviation_in_a_period_without_games():
    after = rate(Glicko(1500, 200, 0.06), [])
    assert after.rating == 1500
    assert after.deviation == pytest.approx((200**2 / 173.7178**2 + 0.06**2) ** 0.5 * 173.7178)


def test_it_caps_the_deviation_of_a_long_idle_player_at_350():
    assert idle(Glicko(1600, 60, 0.06), 0).deviation == 60
    assert 60 < idle(Glicko(1600, 60, 0.06), 30).deviation < 350
    assert idle(Glicko(1600, 60, 0.06), 10**6).deviation == 350


def test_a_win_raises_and_a_loss_lowers_and_a_draw_between_equals_holds():
    new = Glicko()
    assert rate(new, [Result(Glicko(), 1)]).rating > 1500
    assert rate(new, [Result(Glicko(), 0)]).rating < 1500
    assert rate(new, [Result(Glicko(), 0.5)]).rating == pytest.approx(1500)
    assert expected_score(Glicko(1700, 50), Glicko(1500, 50)) > 0.7
