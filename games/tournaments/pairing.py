"""Pure tournament arithmetic: standings, Swiss pairing, round robins, brackets.

No Django here: entrants are plain hashable ids, results plain tuples, so the services, the
simulation command, the benchmark and the property tests all share one implementation. How a
single game counts is in scoring.py; tables of more than two seats are drawn in tables.py.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from games.engine.core.text import gettext_noop

Id = Hashable

TIEBREAKS = ("game_points", "wins", "spread", "head_to_head")
TIEBREAK_LABELS = {
    "game_points": gettext_noop("game points"),
    "wins": gettext_noop("games won"),
    "spread": gettext_noop("spread"),
    "head_to_head": gettext_noop("head-to-head"),
}


class NoPairing(ValueError):
    """No pairing of the round avoids a repeat meeting. Like the engine's IllegalMove, the
    message may be a template with named fields: `str(error)` is the English, `template` and
    `params` let the site say it in the reader's language."""

    def __init__(self, message: str, **params) -> None:
        super().__init__(message.format(**params) if params else message)
        self.template = message
        self.params = params


# -- standings ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """A decided game at a table: the entrants in their seats (one alone: a bye), each seat's
    game points and spread, and the indices of the seats that won."""

    seats: tuple
    points: tuple
    spreads: tuple
    winners: frozenset

    @classmethod
    def bye(cls, entrant: Id, points, spread: int) -> Result:
        return cls((entrant,), (points,), (spread,), frozenset({0}))


@dataclass
class Line:
    """One entrant's line in the standings."""

    entrant: Id
    game_points: int = 0
    wins: int = 0
    losses: int = 0
    spread: int = 0
    games: int = 0
    byes: int = 0
    position: int = 0
    opponents: list = field(default_factory=list)

    @property
    def card(self) -> str:
        """Game points over wins, as clubs write them ("13/6")."""
        return f"{self.game_points}/{self.wins}"


@dataclass(frozen=True)
class Carry:
    """What a late entrant starts with, as the director decided."""

    game_points: int = 0
    wins: int = 0
    spread: int = 0
    games: int = 0


def standings(
    entrants: Iterable[Id],
    results: Iterable[Result],
    order: Sequence[str] = TIEBREAKS,
    carried: dict | None = None,
) -> list[Line]:
    """Every entrant's line, best first, ranked by the tie-breaks in `order`.

    A game counts as a win for a seat that won alone, and as a loss for a seat that did not
    win (a shared first place is neither). Head-to-head compares game points won in the games
    among the entrants still tied at that point. Entrants tied on everything keep the order
    they were given in.
    """
    unknown = [key for key in order if key not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-break {unknown[0]!r}")
    lines = {e: Line(e) for e in entrants}
    for e, carry in (carried or {}).items():
        if e in lines:
            line = lines[e]
            line.game_points += carry.game_points
            line.wins += carry.wins
            line.spread += carry.spread
            line.games += carry.games
            line.losses += max(0, carry.games - carry.wins)
    meetings: dict[tuple, int] = {}
    for r in results:
        sole = len(r.winners) == 1
        for k, entrant in enumerate(r.seats):
            line = lines.get(entrant)
            others = [e for j, e in enumerate(r.seats) if j != k]
            for other in others:
                meetings[(entrant, other)] = meetings.get((entrant, other), 0) + r.points[k]
            if line is None:
                continue
            line.game_points += r.points[k]
            line.spread += r.spreads[k]
            line.games += 1
            line.wins += k in r.winners and sole
            line.losses += k not in r.winners
            line.opponents.extend(others)
            if not others:
                line.byes += 1
    index = {e: i for i, e in enumerate(lines)}
    ranked = _rank(list(lines.values()), list(order), meetings, index)
    for position, line in enumerate(ranked, start=1):
        line.position = position
    return ranked


def _rank(group: list[Line], order: list[str], meetings: dict, index: dict) -> list[Line]:
    if len(group) <= 1 or not order:
        return sorted(group, key=lambda line: index[line.entrant])
    key, rest = order[0], order[1:]
    if key == "head_to_head":
        members = [line.entrant for line in group]
        value = {
            e: sum(meetings.get((e, other), 0) for other in members if other != e) for e in members
        }
        score = lambda line: value[line.entrant]  # noqa: E731
    else:
        score = lambda line: getattr(line, key)  # noqa: E731
    buckets: dict[int, list[Line]] = {}
    for line in group:
        buckets.setdefault(score(line), []).append(line)
    ranked: list[Line] = []
    for value_ in sorted(buckets, reverse=True):
        ranked.extend(_rank(buckets[value_], rest, meetings, index))
    return ranked


# -- pairing ------------------------------------------------------------------------------


def swiss_round(
    ranked: Sequence[Id],
    met: set[frozenset],
    had_bye: set[Id],
    *,
    first: bool = False,
    seed: int | str | None = None,
    budget: int = 200_000,
) -> tuple[list[tuple[Id, Id]], Id | None]:
    """Pair `ranked` (best first) so that nobody meets anyone again; returns (pairs, bye).

    The first round is drawn at random from `seed`. With an odd number the bye goes to the
    lowest-ranked entrant who has not had one (everyone has: the lowest-ranked). Raises
    NoPairing when every pairing would repeat a meeting.
    """
    order = list(ranked)
    if len(set(order)) != len(order):
        raise ValueError("an entrant is listed twice")
    if first:
        random.Random(seed).shuffle(order)
    if len(order) < 2:
        raise NoPairing(gettext_noop("at least two entrants are needed for a round"))
    if len(order) % 2 == 0:
        return _pair_all(order, met, budget), None
    candidates = [e for e in reversed(order) if e not in had_bye] or [order[-1]]
    last_error: NoPairing | None = None
    for bye in candidates[:8]:
        rest = [e for e in order if e != bye]
        try:
            return _pair_all(rest, met, budget), bye
        except NoPairing as error:
            last_error = error
    raise last_error or NoPairing(gettext_noop("no pairing avoids a repeat meeting"))


def _pair_all(order: list[Id], met: set[frozenset], budget: int) -> list[tuple[Id, Id]]:
    """Pair top-down, each with the highest-ranked opponent not met yet; backtrack on a dead end."""
    n = len(order)
    # Opponents each entrant may still meet, in ranking order.
    allowed = [
        [j for j in range(n) if j != i and frozenset((order[i], order[j])) not in met]
        for i in range(n)
    ]
    if any(not options for options in allowed):
        stuck = next(order[i] for i in range(n) if not allowed[i])
        raise NoPairing(
            gettext_noop("{stuck} has already met everyone else in the round"), stuck=stuck
        )
    paired = [False] * n
    pairs: list[tuple[int, int]] = []
    steps = 0
    # Only an entrant with no more options than there are paired entrants can be stranded.
    fragile = sorted(range(n), key=lambda k: len(allowed[k]))

    def stranded() -> bool:
        taken = 2 * len(pairs)
        for k in fragile:
            if len(allowed[k]) > taken:
                return False
            if not paired[k] and all(paired[j] for j in allowed[k]):
                return True
        return False

    def solve(start: int) -> bool:
        nonlocal steps
        i = start
        while i < n and paired[i]:
            i += 1
        if i == n:
            return True
        paired[i] = True
        for j in allowed[i]:
            if paired[j]:
                continue
            steps += 1
            if steps > budget:
                raise NoPairing(
                    gettext_noop("no pairing without a repeat meeting was found in time")
                )
            paired[j] = True
            pairs.append((i, j))
            # Prune: nobody left may be stranded without a possible opponent.
            if not stranded() and solve(i + 1):
                return True
            pairs.pop()
            paired[j] = False
        paired[i] = False
        return False

    if not solve(0):
        raise NoPairing(gettext_noop("every way of pairing this round repeats a meeting"))
    return [(order[i], order[j]) for i, j in pairs]


Schedule = list[list[tuple[Id, Id | None]]]


def round_robin(entrants: Sequence[Id], *, double: bool = False) -> Schedule:
    """Every round of a round robin by the circle method; (x, None) is a bye.

    Each entrant meets every other once (twice with `double`, the second time with sides
    swapped). The first entrant stays put and the rest turn round it.
    """
    players: list[Id | None] = list(entrants)
    if len(players) < 2:
        raise NoPairing(gettext_noop("a round robin needs at least two entrants"))
    if len(players) % 2:
        players.append(None)
    n = len(players)
    rounds: Schedule = []
    ring = players[1:]
    for r in range(n - 1):
        line = [players[0], *ring]
        pairs = []
        for k in range(n // 2):
            a, b = line[k], line[n - 1 - k]
            if r % 2 and k == 0:
                a, b = b, a  # the fixed entrant alternates sides
            if a is None:
                a, b = b, None
            pairs.append((a, b))
        rounds.append(pairs)
        ring = [ring[-1], *ring[:-1]]
    if double:
        rounds += [[(b, a) if b is not None else (a, None) for a, b in r] for r in rounds]
    return rounds


# -- playoffs -----------------------------------------------------------------------------


def qualifier_count(entrants: int, *, fraction: float = 0.25, number: int | None = None) -> int:
    """How many qualify: a set number, or the fraction of the field rounded up (at least 2)."""
    if number is not None:
        return max(2, min(number, entrants))
    return max(2, min(entrants, math.ceil(entrants * fraction - 1e-9)))


@dataclass(frozen=True)
class Bracket:
    size: int
    byes: list  # seeds' ids that go straight to the second round, best first
    first_round: list  # (top, bottom or None) in bracket order


def bracket(seeds: Sequence[Id]) -> Bracket:
    """A single-elimination bracket for `seeds` (best first), padded with byes.

    The size is the next power of two; the top seeds take the byes, and the standard order
    makes seed 1 meet the lowest seed, with 1 and 2 only meeting in the final.
    """
    q = len(seeds)
    if q < 2:
        raise ValueError("a bracket needs at least two qualifiers")
    size = 1 << (q - 1).bit_length()
    slots = seed_order(size)
    first_round = []
    for k in range(0, size, 2):
        top, bottom = slots[k], slots[k + 1]
        a = seeds[top - 1]
        b = seeds[bottom - 1] if bottom <= q else None
        first_round.append((a, b))
    return Bracket(size=size, byes=list(seeds[: size - q]), first_round=first_round)


def seed_order(size: int) -> list[int]:
    """Seed numbers in bracket order: [1, 8, 4, 5, 2, 7, 3, 6] for 8."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def series_winner(winners: Iterable[str], length: int) -> str | None:
    """'a' or 'b' once a side has won more than half of a best-of-`length` series (a game
    whose win was shared, "ab", counts for neither: the series plays on)."""
    need = length // 2 + 1
    tally = {"a": 0, "b": 0}
    for w in winners:
        if w not in tally:
            continue
        tally[w] += 1
        if tally[w] >= need:
            return w
    return None
