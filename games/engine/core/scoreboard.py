"""The scoreboard of a race to a target: adding points, skunk lines, matches of several games.

Skunk lines are defined here and nowhere else: a losing side that has not passed the last
street of the board (31 holes short of the target, so 90 or fewer in a game to 121) is
skunked, and one that has not passed the street before that (60 or fewer in a game to 121) is
double skunked. The lines scale with the target; a line at or below 0 does not apply (a game
to 61 has a skunk at 30 or fewer and no double skunk).
"""

from __future__ import annotations

from collections.abc import Sequence

from .text import gettext_noop

SKUNK_NAMES = ("", gettext_noop("skunk"), gettext_noop("double skunk"))
STREET = 30  # holes in a street of the board


def skunk_lines(target: int) -> tuple[int, ...]:
    """The highest losing scores that are a skunk and a double skunk: 121 -> (90, 60)."""
    lines = (target - STREET - 1, target - 2 * STREET - 1)
    return tuple(line for line in lines if line > 0)


def skunk_level(target: int, score: int) -> int:
    """0, 1 (skunk) or 2 (double skunk) for a losing side that finished on `score`."""
    return sum(1 for line in skunk_lines(target) if score <= line)


def add_points(
    scores: Sequence[int], back_pegs: Sequence[int], side: int, points: int, target: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Scores and back pegs after `side` pegs `points`: the back peg keeps the score before,
    and the front peg stops at the target hole."""
    new_scores = list(scores)
    new_back = list(back_pegs)
    new_back[side] = new_scores[side]
    new_scores[side] = min(target, new_scores[side] + points)
    return tuple(new_scores), tuple(new_back)


def match_won(games_won: int, match_games: int) -> bool:
    """Whether a side that has won `games_won` games has won a best-of-`match_games` match."""
    return 2 * games_won > match_games
