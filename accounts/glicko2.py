"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): one rating period at a time.

Pure arithmetic, no Django. Ratings travel on the Glicko scale (1500 / 350); the formulas work
on the Glicko-2 scale (divide by 173.7178) as the paper's steps 2 to 8 say. The volatility is
found with the Illinois algorithm of step 5.1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
TAU = 0.5
EPSILON = 0.000001


@dataclass(frozen=True)
class Glicko:
    """A player's rating, deviation (RD) and volatility, on the Glicko scale."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY


@dataclass(frozen=True)
class Result:
    """One game of the period against `opponent`: score 1 for a win, 0.5 a draw, 0 a loss."""

    opponent: Glicko
    score: float


def rate(player: Glicko, results: Sequence[Result], *, tau: float = TAU) -> Glicko:
    """The player's rating after one period with these results (none: only the RD grows)."""
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        return Glicko(player.rating, _capped(math.sqrt(phi**2 + sigma**2)) * SCALE, sigma)
    impacts = []
    for result in results:
        mu_j = (result.opponent.rating - START_RATING) / SCALE
        g_j = _g(result.opponent.deviation / SCALE)
        impacts.append((g_j, _expected(mu, mu_j, g_j), result.score))
    v = 1.0 / sum(g * g * e * (1 - e) for g, e, _ in impacts)
    delta = v * sum(g * (s - e) for g, e, s in impacts)
    sigma = _new_volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi**2 + sigma**2)
    phi = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / v)
    mu = mu + phi**2 * sum(g * (s - e) for g, e, s in impacts)
    return Glicko(mu * SCALE + START_RATING, phi * SCALE, sigma)


def idle(player: Glicko, periods: float) -> Glicko:
    """The player after `periods` empty rating periods: the deviation grows, capped at 350.

    Step 6 applied `periods` times at once (phi'^2 = phi^2 + n sigma^2); fractions are fine.
    """
    if periods <= 0:
        return player
    phi = player.deviation / SCALE
    grown = math.sqrt(phi**2 + periods * player.volatility**2) * SCALE
    return Glicko(player.rating, min(grown, START_DEVIATION), player.volatility)


def expected_score(player: Glicko, opponent: Glicko) -> float:
    """The chance the player beats the opponent, as Glicko-2 sees it (used for display)."""
    mu = (player.rating - START_RATING) / SCALE
    mu_j = (opponent.rating - START_RATING) / SCALE
    phi = math.hypot(player.deviation, opponent.deviation) / SCALE
    return _expected(mu, mu_j, _g(phi))


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi**2 / math.pi**2)


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def _capped(phi: float) -> float:
    return min(phi, START_DEVIATION / SCALE)


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the root of f(x) by the Illinois (regula falsi) method."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta**2 - phi**2 - v - ex)
        return top / (2.0 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)
