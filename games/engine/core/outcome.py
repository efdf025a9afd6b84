"""How a match ended, per side, and how a club tournament scores such a result.

`Outcome` is the engine's last word on a match: the winners, every side's score and the game's
own result terms (skunk level, games won, place). Tournaments take it as it is; a variant says
how one of its games counts in a tournament with its `tournament` attribute, a
`TournamentScoring`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .scoreboard import SKUNK_NAMES, skunk_level
from .text import gettext_noop


class ScoreError(ValueError):
    """Scores entered over the table that cannot be a result. Like IllegalMove, the message
    may be a template marked with `gettext_noop` and its fields (`template`, `params`), so the
    site can say it in the reader's language; `str(error)` is the English."""

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message.format(**params) if params else message)
        self.template = message
        self.params = params


@dataclass(frozen=True)
class SideResult:
    """How one side (a player, or a partnership) finished.

    `skunk` is 0, 1 (skunk) or 2 (double skunk) for a race game's loser; `place` is 1 for the
    winners and counts up, sides on the same score sharing a place; `terms` holds any other
    figures the game reports (CrossCrib's game points, say), JSON-ready.
    """

    seats: tuple[int, ...]
    score: int
    skunk: int = 0
    games_won: int = 0
    place: int = 0
    terms: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": list(self.seats),
            "score": self.score,
            "skunk": self.skunk,
            "skunk_name": SKUNK_NAMES[self.skunk],
            "games_won": self.games_won,
            "place": self.place,
            **({"terms": dict(self.terms)} if self.terms else {}),
        }


@dataclass(frozen=True)
class GameResult:
    """One finished game of a match: its number, the winning seats and every side's result."""

    number: int
    winners: tuple[int, ...]
    sides: tuple[SideResult, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "winners": list(self.winners),
            "sides": [side.to_json() for side in self.sides],
        }


@dataclass(frozen=True)
class Outcome:
    """The result of a whole match.

    `sides` gives each side's result in the last game; `games` lists every game played (a
    match of several games); `winners` is every seat that won (several sides when a
    highest-score game ends level). `reason` is a short text with seat placeholders
    ("{p0} wins 121 to 87 (skunk)").
    """

    winners: tuple[int, ...]
    sides: tuple[SideResult, ...]
    reason: str
    games: tuple[GameResult, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "sides": [side.to_json() for side in self.sides],
            "reason": self.reason,
            "games": [game.to_json() for game in self.games],
        }


def places(scores: Sequence[int]) -> list[int]:
    """Each score's place, highest first, equal scores sharing a place: [5, 9, 5] -> [2, 1, 2]."""
    return [1 + sum(1 for other in scores if other > score) for score in scores]


@dataclass(frozen=True)
class TournamentScoring:
    """How a tournament counts one game of a variant.

    kind "race": two sides race to the `target` option; the winner takes the event's win
    points (or its skunk points, by the loser's skunk level, when `skunks`), and the spread is
    the difference of the scores. `stops_at_target`: the game ends the moment a side reaches
    the target, so the winner's score is the target exactly (Cribbage pegging out); otherwise
    the winner may pass it (Table Top's simultaneous scoring, CrossCrib's game points).

    kind "ranked": the final scores rank the sides (ties share a place), and places earn the
    event's points per place; the spread is each side's score less the others' mean.
    """

    kind: str = "race"
    stops_at_target: bool = True
    skunks: bool = True

    def check_scores(self, scores: Sequence[object], options: dict[str, Any]) -> list[int]:
        """Scores entered over the table, as whole numbers; ScoreError (a ValueError) says
        what is wrong."""
        for score in scores:
            if isinstance(score, bool) or not isinstance(score, int):
                raise ScoreError(gettext_noop("scores are whole numbers of points"))
        values = [int(s) for s in scores]  # type: ignore[call-overload]
        if self.kind != "race":
            return values  # a ranked game may end below zero (Kings Cribbage's rack penalties)
        if any(v < 0 for v in values):
            raise ScoreError(gettext_noop("a score cannot be negative"))
        target = int(options.get("target", 0))
        high, low = max(values), min(values)
        if high < target:
            raise ScoreError(
                gettext_noop("the winner must reach {target}; {high} is short of it"),
                target=target,
                high=high,
            )
        if self.stops_at_target:
            if low >= target:
                raise ScoreError(
                    gettext_noop(
                        "both scores reach {target}, but the game ends when the first side does"
                    ),
                    target=target,
                )
            if high > target:
                raise ScoreError(
                    gettext_noop("a game stops the moment a side reaches {target}; enter {target}"),
                    target=target,
                )
        elif high == low:
            raise ScoreError(
                gettext_noop("a race game cannot end level: play on until one side is ahead")
            )
        return values

    def skunk(self, options: dict[str, Any], loser_score: int) -> int:
        """The loser's skunk level (always 0 when this game has no skunks)."""
        if not self.skunks:
            return 0
        return skunk_level(int(options.get("target", 0)), loser_score)


RACE = TournamentScoring()
