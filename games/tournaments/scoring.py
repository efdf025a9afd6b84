"""How one tournament game counts, for any game: game points, spread and skunk from a result.

No Django here. A table has seats named by letter (a, b, c, d); a result is each seat's final
score and, when the match layer says so, which seats won (a resignation can make the lower
score the winner). The variant's `TournamentScoring` says how to read it:

- "race": two seats race to the `target` option; the winner takes the event's win points, or
  its skunk points by the loser's skunk level, and the spread is the difference of the scores.
  Skunk lines come from games/engine/core/scoreboard.py unless the director set their own.
- "ranked": the final scores place the seats (equal scores share a place); each place earns
  the event's game points for it, seats sharing places share those places' points equally,
  and each seat's spread is its score less the mean of the others'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from fractions import Fraction

from games.engine.core.outcome import TournamentScoring
from games.engine.core.scoreboard import skunk_lines

SEATS = "abcd"
RACE = TournamentScoring()
CENT = Decimal("0.01")


class BadResult(ValueError):
    """Scores that cannot be the end of a game; the message says why (its `template` and
    `params` let the site say it in the reader's language)."""

    def __init__(self, message: str, **params) -> None:
        super().__init__(message.format(**params) if params else message)
        self.template = message
        self.params = params


class BadPlace(ValueError):
    """A figure of the game points by place that is not a number."""

    def __init__(self, figure: str) -> None:
        super().__init__(f"{figure!r} is not a number of game points")
        self.figure = figure


def default_places(table_size: int, scoring: TournamentScoring | None = None) -> tuple:
    """Game points by place when the director sets none: the game's own when its
    TournamentScoring declares `places` (best first, cut to the table), else 2 and 0 for two
    seats (a tie shares them, 1 each) and N-1 down to 0 for a table of N (3/2/1/0 for four)."""
    own = tuple(getattr(scoring, "places", None) or ())
    if own:
        return (own + (0,) * table_size)[:table_size]
    if table_size <= 2:
        return (2, 0)
    return tuple(range(table_size - 1, -1, -1))


@dataclass(frozen=True)
class Points:
    """The event's scoring settings (the ACC customs by default).

    `skunk_line`/`double_skunk_line` None: the game's own lines (the scoreboard's, from the
    target). `places`: a ranked game's points by place, best first.
    """

    scoring: TournamentScoring = RACE
    target: int = 121
    win: int = 2
    skunk: int = 3
    double_skunk: int = 3
    loss: int = 0
    skunk_line: int | None = None
    double_skunk_line: int | None = None
    places: tuple = (2, 0)
    bye_points: Decimal | int = 2
    bye_spread: int = 0

    @property
    def lines(self) -> tuple[int | None, int | None]:
        """The skunk and double skunk lines in force (None: no such line for this target)."""
        own = skunk_lines(self.target) + (None, None)
        return (
            self.skunk_line if self.skunk_line is not None else own[0],
            self.double_skunk_line if self.double_skunk_line is not None else own[1],
        )

    def skunk_level(self, loser_score: int) -> int:
        """0, 1 or 2 for a race game's loser (always 0 for a game without skunks)."""
        if not self.scoring.skunks:
            return 0
        return sum(1 for line in self.lines if line is not None and loser_score <= line)

    @property
    def overrides_lines(self) -> bool:
        return self.skunk_line is not None or self.double_skunk_line is not None


@dataclass(frozen=True)
class Scored:
    """One game as it counts: the winning seats' letters, and per seat its game points and
    spread; `skunk` is the race loser's skunk level."""

    winners: str
    points: tuple = ()
    spreads: tuple[int, ...] = ()
    skunk: int = 0
    places: tuple[int, ...] = field(default=(), compare=False)

    @property
    def winner(self) -> str:
        return self.winners

    @property
    def points_a(self):
        return self.points[0]

    @property
    def points_b(self):
        return self.points[1]

    @property
    def spread_a(self) -> int:
        return self.spreads[0]


def check_scores(scores: Sequence[object], rules: Points) -> list[int]:
    """The table's scores as whole numbers, or BadResult naming what makes them impossible."""
    try:
        return rules.scoring.check_scores(list(scores), {"target": rules.target})
    except ValueError as error:
        template = getattr(error, "template", str(error))
        raise BadResult(template, **getattr(error, "params", {})) from None


def score_game(
    scores: Sequence[int],
    rules: Points,
    *,
    winners: Sequence[int] | None = None,
    skunk: int | None = None,
    places: Sequence[int] | None = None,
) -> Scored:
    """Game points and spreads for a finished game (scores already checked).

    `winners` (seat indices) is the match layer's word on who won, when there was a match;
    otherwise the scores decide. `skunk` is the engine's skunk level for the loser, used
    unless the director set their own skunk lines; `places` the engine's places (ranked).
    """
    if rules.scoring.kind == "ranked":
        return _ranked(list(scores), rules, winners, places)
    a, b = scores
    win_seat = winners[0] if winners else (0 if a > b else 1)
    lose_seat = 1 - win_seat
    level = skunk if skunk is not None and not rules.overrides_lines else None
    if level is None:
        level = rules.skunk_level(scores[lose_seat])
    won = (rules.win, rules.skunk, rules.double_skunk)[level]
    spread = scores[win_seat] - scores[lose_seat]
    points = [0, 0]
    spreads = [0, 0]
    points[win_seat], points[lose_seat] = won, rules.loss
    spreads[win_seat], spreads[lose_seat] = spread, -spread
    places = (1, 2) if win_seat == 0 else (2, 1)
    return Scored(SEATS[win_seat], tuple(points), tuple(spreads), level, places)


def score_forfeit(absent: Sequence[int], table_size: int, rules: Points) -> Scored:
    """A game that some seats did not turn up for: no spread. At a table of two the side
    present takes a plain win; at a bigger table every seat present takes a bye's points and
    every absent one the last place's."""
    present = [i for i in range(table_size) if i not in absent]
    if table_size == 2:
        won = rules.win if rules.scoring.kind == "race" else _place_points(rules, 1)
        lost = rules.loss if rules.scoring.kind == "race" else _place_points(rules, 2)
    else:
        won, lost = rules.bye_points, _place_points(rules, table_size)
    points = tuple(won if i in present else lost for i in range(table_size))
    winners = "".join(SEATS[i] for i in present)
    places = tuple(1 if i in present else len(present) + 1 for i in range(table_size))
    return Scored(winners, points, (0,) * table_size, 0, places)


def places_of(scores: Sequence[int], winners: Sequence[int] | None = None) -> list[int]:
    """Each seat's place: the winners first (ranked by score among themselves) and the rest
    after them; equal scores in the same group share a place."""
    first = set(winners or [])
    if not first:
        top = max(scores)
        first = {i for i, s in enumerate(scores) if s == top}

    def key(i: int) -> tuple[int, int]:
        return (0 if i in first else 1, -scores[i])

    return [1 + sum(1 for j in range(len(scores)) if key(j) < key(i)) for i in range(len(scores))]


def _ranked(
    scores: list[int], rules: Points, winners: Sequence[int] | None, given: Sequence[int] | None
) -> Scored:
    n = len(scores)
    places = list(given) if given and len(given) == n else places_of(scores, winners)
    points = []
    for i in range(n):
        shared = places.count(places[i])
        total = sum(
            Fraction(_place_points(rules, place)) for place in range(places[i], places[i] + shared)
        )
        points.append(_decimal(total / shared))
    total_score = sum(scores)
    spreads = tuple(round(Fraction(n * s - total_score, n - 1)) if n > 1 else 0 for s in scores)
    if winners:  # the match layer's word stands, so a recount reads the game the same way
        top = "".join(SEATS[i] for i in sorted(winners))
    else:
        top = "".join(SEATS[i] for i in range(n) if places[i] == 1)
    return Scored(top, tuple(points), spreads, 0, tuple(places))


def _place_points(rules: Points, place: int):
    return rules.places[place - 1] if 0 < place <= len(rules.places) else 0


def _decimal(value: Fraction) -> Decimal | int:
    if value.denominator == 1:
        return int(value)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(CENT, rounding=ROUND_HALF_UP)


def points_text(value) -> str:
    """Game points as people write them: 13, 12.5, 0.67."""
    if isinstance(value, Decimal):
        if value == value.to_integral_value():
            return str(int(value))
        return format(value.normalize(), "f")
    return str(value)


def score_text(scores) -> str:
    if not scores or any(s is None for s in scores):
        return ""
    return "–".join(str(s) for s in scores)


def parse_places(text: str) -> tuple:
    """ "3,2,1,0" -> (3, 2, 1, 0); halves allowed ("2.5"); ValueError names what is wrong."""
    values = []
    for part in (text or "").split(","):
        try:
            value = Decimal(part.strip())
        except InvalidOperation:
            raise BadPlace(part.strip()) from None
        values.append(int(value) if value == value.to_integral_value() else value)
    return tuple(values)
