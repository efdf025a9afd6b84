"""Ratings: which results are rated, and the Glicko-2 period each rated result makes.

One rated result (a match, or a tournament game entered over the table) is one rating period
for everyone in it, applied when it ends and in the order results end. `apply_result` is the
one place the arithmetic happens: the live listener and `recompute_ratings` both call it, so
the command gives the live figures exactly.

Who is rated against whom: every pair of sides whose order the result settles. Two sides:
the winner beats the loser. Three or more (3-player Cribbage, ranked games), by places: each
side beats every side placed below it and shares a draw with a side on the same place, and a
member gets all those results in the one period, which is how Glicko-2 takes several games in
a period (the paper's own example). Partnerships: each member plays the other side as one
opponent, rated at its members' mean, with their deviations' root mean square. A member who
abandoned (the computer took the seat over) loses to every side that stayed.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.glicko2 import Glicko, Result, idle, rate
from accounts.models import RatedEvent, Rating, RatingChange

log = logging.getLogger(__name__)

# lichess's pace: the deviation grows as if a rating period passed every ~4.7 days away.
PERIODS_PER_DAY = 0.21436
PROVISIONAL_DEVIATION = 110.0  # lichess's line: above it a rating is provisional
RATED_ENDINGS = {"played", "resigned", "abandoned"}
_TOURNAMENT_FLAG = "rate_table_results"


@dataclass(frozen=True)
class Side:
    """The members of one side and its rank (1 best); None: it left the table (last)."""

    members: tuple[int, ...]
    rank: int | None


@dataclass(frozen=True)
class RatedResult:
    """A result that counts for ratings, in the form the arithmetic needs."""

    game: str
    players: int
    at: datetime
    sides: tuple[Side, ...]
    ties_are_draws: bool = True
    match_id: int | None = None
    table_game_id: int | None = None

    @property
    def members(self) -> list[int]:
        return [m for side in self.sides for m in side.members]


# -- which results are rated ------------------------------------------------------------------


def match_result(match) -> RatedResult | None:
    """The rated form of a finished match, or None when it is not rated.

    Rated: created rated, played out or resigned or abandoned (never aborted or cancelled),
    and every seat a member's (a seat the computer took over from a member who left counts
    as that member's loss; a seat the computer held from the start makes the match unrated).
    """
    if not match.rated or match.status != "finished" or match.ending not in RATED_ENDINGS:
        return None
    seats = list(match.seats.all())
    if not seats or any(s.user_id is None or (s.is_computer and not s.took_over) for s in seats):
        return None
    outcome = match.outcome or {}
    winners = set(outcome.get("winners", []))
    early = match.ending != "played"
    teams: dict[int, list] = {}
    for seat in seats:
        teams.setdefault(seat.team, []).append(seat)
    scores = _side_scores(outcome)
    sides = []
    for _, members in sorted(teams.items()):
        indexes = tuple(sorted(s.index for s in members))
        if any(s.took_over for s in members):
            rank = None
        elif early:
            rank = 1 if winners & set(indexes) else 2
        else:
            rank = _place(outcome, indexes, winners, scores)
        sides.append(Side(tuple(s.user_id for s in members), rank))
    if len(sides) < 2:
        return None
    return RatedResult(
        game=match.variant,
        players=match.players,
        at=match.finished_at or timezone.now(),
        sides=tuple(sides),
        ties_are_draws=not early,
        match_id=match.pk,
    )


def table_result(game) -> RatedResult | None:
    """The rated form of a tournament game entered over the table, or None.

    Rated when the director's event says so (a RatedEvent), the result stands (confirmed; a
    forfeit is no game played), and everyone on both sides is a member.
    """
    if game.source != "table" or game.status != "confirmed" or game.winner not in ("a", "b"):
        return None
    pairing = game.pairing
    tournament = pairing.round.tournament
    if pairing.b_id is None or not rates_table_results(tournament):
        return None
    sides = []
    for letter, entrant in (("a", pairing.a), ("b", pairing.b)):
        members = [entrant.user_id]
        if tournament.players == 4:
            members.append(entrant.partner_id)
        if any(m is None for m in members):
            return None
        sides.append(Side(tuple(members), 1 if game.winner == letter else 2))
    return RatedResult(
        game=tournament.variant,
        players=tournament.players,
        at=game.decided_at or timezone.now(),
        sides=tuple(sides),
        table_game_id=game.pk,
    )


def rates_table_results(tournament) -> bool:
    """Whether the director's event rates its results from over the table.

    The hook for the tournament models: once Tournament has a boolean field named
    `rate_table_results`, it decides; until then a RatedEvent row (in the admin) does.
    """
    flag = getattr(tournament, _TOURNAMENT_FLAG, None)
    if flag is not None:
        return bool(flag)
    return RatedEvent.objects.filter(tournament_id=tournament.pk, rate_table_results=True).exists()


# -- the live updates -------------------------------------------------------------------------


def on_game_saved(*, instance, created: bool = False, **_: object) -> None:
    """post_save of a tournament Game: rate a result from over the table, once.

    A result corrected after it was rated is not undone here: `recompute_ratings` repairs it.
    """
    if created or instance.source != "table" or instance.status != "confirmed":
        return
    if RatingChange.objects.filter(table_game_id=instance.pk).exists():
        log.info("table game %s changed after it was rated: run recompute_ratings", instance.pk)
        return
    result = table_result(instance)
    if result is not None:
        rate_result(result)


def rate_table_game(game) -> list[RatingChange]:
    """For the tournament code, should it prefer to call: rate a decided table game now."""
    result = table_result(game)
    return rate_result(result) if result is not None else []


def rate_result(result: RatedResult) -> list[RatingChange]:
    """Apply one rated result to the stored ratings (locks its members' rows)."""
    with transaction.atomic(savepoint=False):
        members = sorted(set(result.members))
        Rating.objects.bulk_create(
            [Rating(user_id=m, game=result.game, players=result.players) for m in members],
            ignore_conflicts=True,
        )
        rows = (
            Rating.objects.select_for_update()
            .filter(game=result.game, players=result.players, user_id__in=members)
            .order_by("user_id")
        )
        ratings = {row.user_id: row for row in rows}
        changes = apply_result(result, ratings)
        Rating.objects.bulk_update(
            ratings.values(),
            ["rating", "deviation", "volatility", "games", "last_played_at"],
        )
        RatingChange.objects.bulk_create(changes)
    return changes


# -- the arithmetic (shared by live updates and the recompute) --------------------------------


def apply_result(result: RatedResult, ratings: dict[int, Rating]) -> list[RatingChange]:
    """Update the members' Rating objects in place for one rated result; the changes made.

    Everyone is rated from the ratings as they stood before this result (grown for the time
    each member was away), so the order of the members does not matter.
    """
    before = {m: _grown(ratings[m], result.at) for m in result.members}
    changes = []
    for side in result.sides:
        games = []
        for other in result.sides:
            if other is side:
                continue
            score = _score(side, other, result.ties_are_draws)
            if score is not None:
                games.append(Result(_composite([before[m] for m in other.members]), score))
        if not games:
            continue
        for member in side.members:
            row = ratings[member]
            new = rate(before[member], games)
            changes.append(
                RatingChange(
                    user_id=member,
                    game=result.game,
                    players=result.players,
                    match_id=result.match_id,
                    table_game_id=result.table_game_id,
                    at=result.at,
                    rating_before=row.rating,
                    rating=new.rating,
                    deviation=new.deviation,
                    volatility=new.volatility,
                    score=sum(g.score for g in games),
                    opponents=len(games),
                )
            )
            row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
            row.games += 1
            row.last_played_at = result.at
    return changes


def current(rating: Rating, now: datetime | None = None) -> Glicko:
    """The rating as it stands now: its deviation grown for the days since it last moved."""
    return _grown(rating, now or timezone.now())


def is_provisional(deviation: float) -> bool:
    return deviation > PROVISIONAL_DEVIATION


def ordered(results: Iterable[RatedResult]) -> list[RatedResult]:
    """Results in the order they ended (ties: matches before table games, then by id)."""
    return sorted(
        results, key=lambda r: (r.at, r.table_game_id is not None, r.match_id or r.table_game_id)
    )


# -- helpers ----------------------------------------------------------------------------------


def _grown(rating: Rating, at: datetime) -> Glicko:
    glicko = Glicko(rating.rating, rating.deviation, rating.volatility)
    if rating.last_played_at is None:
        return glicko
    days = (at - rating.last_played_at).total_seconds() / 86400.0
    return idle(glicko, days * PERIODS_PER_DAY)


def _composite(members: Sequence[Glicko]) -> Glicko:
    """A side as one opponent: its members' mean rating, their deviations' root mean square."""
    if len(members) == 1:
        return members[0]
    n = len(members)
    return Glicko(
        sum(m.rating for m in members) / n,
        math.sqrt(sum(m.deviation**2 for m in members) / n),
    )


def _score(side: Side, other: Side, ties_are_draws: bool) -> float | None:
    """What `side` scored against `other` (1, 0.5, 0), or None when the result does not say."""
    if side.rank is None and other.rank is None:
        return None
    if side.rank is None:
        return 0.0
    if other.rank is None:
        return 1.0
    if side.rank == other.rank:
        return 0.5 if ties_are_draws else None
    return 1.0 if side.rank < other.rank else 0.0


def _side_scores(outcome: dict) -> dict[tuple[int, ...], int]:
    sides = outcome.get("sides", [])
    return {tuple(sorted(s.get("seats", []))): int(s.get("score", 0)) for s in sides}


def _place(outcome: dict, seats: tuple[int, ...], winners: set[int], scores: dict) -> int:
    """A side's place in a played-out match: the outcome's own, else winners first, by score."""
    for side in outcome.get("sides", []):
        if tuple(sorted(side.get("seats", []))) == seats and side.get("place"):
            return int(side["place"])
    if winners & set(seats):
        return 1
    others = [v for k, v in scores.items() if not winners & set(k)]
    mine = scores.get(seats, 0)
    return 2 + sum(1 for v in others if v > mine)


# -- the repair: everything again from the history --------------------------------------------


def history() -> list[RatedResult]:
    """Every rated result on record, in the order they ended."""
    from games.models import Game, Match, Tournament

    matches = Match.objects.filter(
        status="finished", rated=True, ending__in=RATED_ENDINGS
    ).prefetch_related("seats")
    results = [r for r in map(match_result, matches.iterator(chunk_size=500)) if r is not None]
    rated_events = set(
        RatedEvent.objects.filter(rate_table_results=True).values_list("tournament_id", flat=True)
    )
    if _TOURNAMENT_FLAG in {f.name for f in Tournament._meta.get_fields()}:
        rated_events |= set(
            Tournament.objects.filter(**{_TOURNAMENT_FLAG: True}).values_list("pk", flat=True)
        )
    games = Game.objects.filter(
        source="table", status="confirmed", pairing__round__tournament_id__in=rated_events
    ).select_related("pairing__round__tournament", "pairing__a", "pairing__b")
    results += [r for r in map(table_result, games) if r is not None]
    return ordered(results)


def recompute() -> tuple[int, int]:
    """Throw the ratings away and rate the whole history again; (results, ratings) made."""
    results = history()
    table: dict[tuple[int, str, int], Rating] = {}
    changes: list[RatingChange] = []
    for result in results:
        rows = {}
        for member in result.members:
            key = (member, result.game, result.players)
            if key not in table:
                table[key] = Rating(user_id=member, game=result.game, players=result.players)
            rows[member] = table[key]
        changes += apply_result(result, rows)
    with transaction.atomic():
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        Rating.objects.bulk_create(table.values(), batch_size=1000)
        RatingChange.objects.bulk_create(changes, batch_size=1000)
    return len(results), len(table)
