"""Statistics: a record per member per finished match, and what the profile and boards add up.

`record_match` writes the records when a match ends (inside its transaction, a few rows);
`fill_figures` counts the game's own figures from the match's replay just after the commit,
off the request thread when a server is running (it replays the whole match).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from django.db import close_old_connections, transaction
from django.db.models import Count, F, OuterRef, Q, Subquery, Sum, prefetch_related_objects
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext

from accounts import figures as game_figures
from accounts import ratings
from accounts.models import MatchRecord, Rating, RatingChange, User

log = logging.getLogger(__name__)

LEADERBOARD_MIN_GAMES = 10
LEADERBOARD_PAGE = 100
ACTIVE_LIMIT = 20


# -- writing ----------------------------------------------------------------------------------


def on_match_ended(*, match, **_: object) -> None:
    """`games.signals.match_ended` (inside the ending transaction): rate the match if it is
    rated and write its members' records; their figures are counted after the commit."""
    if match.status != "finished" or MatchRecord.objects.filter(match_id=match.pk).exists():
        return
    prefetch_related_objects([match], "seats")  # one read of the seats for both uses
    result = ratings.match_result(match)
    if result is not None:
        ratings.rate_result(result)
    MatchRecord.objects.bulk_create(build_records(match, rated=result is not None))
    match_id = match.pk
    transaction.on_commit(lambda: _in_background(fill_figures, match_id))


def build_records(match, *, rated: bool) -> list[MatchRecord]:
    outcome = match.outcome or {}
    winners = set(outcome.get("winners", []))
    seats = list(match.seats.all())
    computer_seats = {s.index for s in seats if s.is_computer and not s.took_over}
    teams = {s.team for s in seats}
    winning_teams = {s.team for s in seats if s.index in winners}
    records = []
    for seat in seats:
        if seat.user_id is None or seat.index in computer_seats:
            continue
        if seat.took_over or seat.team not in winning_teams:
            result = MatchRecord.Result.LOST
        elif winning_teams == teams:
            result = MatchRecord.Result.DRAWN
        else:
            result = MatchRecord.Result.WON
        given, taken = _skunks(outcome, seat.index)
        records.append(
            MatchRecord(
                user_id=seat.user_id,
                match_id=match.pk,
                seat=seat.index,
                team=seat.team,
                game=match.variant,
                players=match.players,
                ended_at=match.finished_at or timezone.now(),
                result=result,
                ending=match.ending,
                score=_score_of(outcome, seat.index),
                skunks_given=given,
                skunks_taken=taken,
                rated=rated,
                vs_computer=bool(computer_seats),
            )
        )
    return records


def fill_figures(match_id: int) -> None:
    """Count the game's own figures for every member seat of the match (from its replay)."""
    from games.models import Match
    from games.services import replay

    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return
    hook = game_figures.figures_for(match.variant)
    try:
        if hook is None:
            counted = game_figures.count_terms(match.outcome or {}, match.players)
        else:
            counted = hook.count(replay(match), match.players)
    except Exception:  # a log that no longer replays must not break anything else
        log.exception("could not count the figures of match %s", match_id)
        return
    for record in MatchRecord.objects.filter(match_id=match_id):
        record.figures = counted.get(record.seat, {})
        record.save(update_fields=["figures"])


def _in_background(func, *args) -> None:
    """Run off the request thread when a server loop is running; here and now otherwise."""
    from games import realtime

    loop = realtime._server_loop
    if loop is None or loop.is_closed() or not loop.is_running():
        func(*args)
        return

    def work() -> None:
        close_old_connections()
        try:
            func(*args)
        except Exception:
            log.exception("background statistics work failed")
        finally:
            close_old_connections()

    loop.call_soon_threadsafe(loop.run_in_executor, None, work)


def _skunks(outcome: dict, seat: int) -> tuple[int, int]:
    """Skunks this seat's side gave (losing sides skunked in games it won) and took."""
    games = outcome.get("games") or [outcome]
    given = taken = 0
    for game in games:
        mine = next((s for s in game.get("sides", []) if seat in s.get("seats", [])), None)
        if mine is None:
            continue
        if mine.get("skunk"):
            taken += 1
        if seat in game.get("winners", []):
            given += sum(
                1 for s in game.get("sides", []) if s is not mine and int(s.get("skunk") or 0)
            )
    return given, taken


def _score_of(outcome: dict, seat: int) -> int:
    side = next((s for s in outcome.get("sides", []) if seat in s.get("seats", [])), None)
    return int(side.get("score", 0)) if side else 0


# -- reading: the profile ---------------------------------------------------------------------


@dataclass
class GameStats:
    game: str
    name: str
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    rated: int = 0
    skunks_given: int = 0
    skunks_taken: int = 0
    average_score: str = "–"
    figures: list[tuple[str, str]] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    ratings: list[dict] = field(default_factory=list)

    @property
    def win_rate(self) -> str:
        if not self.played:
            return "–"
        return gettext("%(percent)s%%") % {
            "percent": number_format(100 * self.won / self.played, 0)
        }


def member_stats(user: User) -> list[GameStats]:
    """Per game the member has played: counts, the game's own figures and the ratings."""
    rows = (
        MatchRecord.objects.filter(user=user)
        .values("game")
        .annotate(
            played=Count("pk"),
            won=Count("pk", filter=Q(result="won")),
            lost=Count("pk", filter=Q(result="lost")),
            drawn=Count("pk", filter=Q(result="drawn")),
            rated=Count("pk", filter=Q(rated=True)),
            given=Sum("skunks_given"),
            taken=Sum("skunks_taken"),
            points=Sum("score"),
        )
    )
    stats = {}
    for row in rows:
        stats[row["game"]] = GameStats(
            game=row["game"],
            name=game_name(row["game"]),
            played=row["played"],
            won=row["won"],
            lost=row["lost"],
            drawn=row["drawn"],
            rated=row["rated"],
            skunks_given=row["given"] or 0,
            skunks_taken=row["taken"] or 0,
            average_score=game_figures.average(row["points"] or 0, row["played"]),
        )
    totals: dict[str, list] = {}
    for game, counted in MatchRecord.objects.filter(user=user, figures__isnull=False).values_list(
        "game", "figures"
    ):
        totals.setdefault(game, []).append(counted)
    for game, entry in stats.items():
        entry.totals = game_figures.combine(totals.get(game, []))
        hook = game_figures.figures_for(game)
        entry.figures = (hook.show if hook else game_figures.show_terms)(entry.totals)
    for rating in Rating.objects.filter(user=user).order_by("game", "players"):
        entry = stats.setdefault(rating.game, GameStats(rating.game, game_name(rating.game)))
        entry.ratings.append(rating_json(rating))
    return sorted(stats.values(), key=lambda s: game_order(s.game))


def rating_json(rating: Rating, now: datetime | None = None) -> dict:
    """A rating as the API and the pages show it: its deviation grown to today."""
    now_glicko = ratings.current(rating, now)
    return {
        "game": rating.game,
        "players": rating.players,
        "rating": round(rating.rating, 1),
        "deviation": round(now_glicko.deviation, 1),
        "volatility": round(rating.volatility, 6),
        "provisional": ratings.is_provisional(now_glicko.deviation),
        "games": rating.games,
    }


def rating_series(user: User) -> dict[tuple[str, int], list[tuple[datetime, float]]]:
    """Each of the member's ratings over time: (when, rating after) per rated result."""
    series: dict[tuple[str, int], list[tuple[datetime, float]]] = {}
    changes = RatingChange.objects.filter(user=user).order_by("at", "pk")
    for game, players, at, value in changes.values_list("game", "players", "at", "rating"):
        series.setdefault((game, players), []).append((at, value))
    return series


# -- reading: the boards ----------------------------------------------------------------------


def top_rated(game: str, players: int, *, min_games: int = LEADERBOARD_MIN_GAMES, page: int = 1):
    """One page of the best ratings with at least `min_games` rated games (two queries)."""
    board = Rating.objects.filter(game=game, players=players, games__gte=min_games)
    total = board.count()
    start = (max(1, page) - 1) * LEADERBOARD_PAGE
    rows = list(
        board.select_related("user")
        .only("rating", "deviation", "volatility", "games", "last_played_at", "game", "players",
              "user__username", "user__display_name")
        .order_by("-rating", "user_id")[start : start + LEADERBOARD_PAGE]
    )  # fmt: skip
    now = timezone.now()
    lines = [
        {"rank": start + i + 1, "user": row.user, **rating_json(row, now)}
        for i, row in enumerate(rows)
    ]
    return lines, total


def most_active(game: str, since: datetime, *, limit: int = ACTIVE_LIMIT) -> list[dict]:
    """Members with the most finished matches of the game since `since` (one query)."""
    rows = (
        MatchRecord.objects.filter(game=game, ended_at__gte=since)
        .values("user_id", "user__username", "user__display_name")
        .annotate(played=Count("pk"), won=Count("pk", filter=Q(result="won")))
        .order_by("-played", "user__username")[:limit]
    )
    return [
        {
            "username": row["user__username"],
            "name": row["user__display_name"] or row["user__username"],
            "played": row["played"],
            "won": row["won"],
        }
        for row in rows
    ]


def head_to_head(first: User, second: User, game: str | None = None) -> dict:
    """Matches the two played on opposite sides, per game: first's wins, losses, shares."""
    their_team = MatchRecord.objects.filter(user=second, match_id=OuterRef("match_id"))
    mine = MatchRecord.objects.filter(user=first).annotate(
        their_team=Subquery(their_team.values("team")[:1])
    )
    opposite = mine.filter(their_team__isnull=False).exclude(team=F("their_team"))
    if game:
        opposite = opposite.filter(game=game)
    table: dict[str, dict[str, int]] = {}
    for row in opposite.values("game", "result").annotate(n=Count("pk")):
        entry = table.setdefault(row["game"], {"won": 0, "lost": 0, "drawn": 0})
        entry[row["result"]] += row["n"]
    return {
        key: {**counts, "played": sum(counts.values()), "name": game_name(key)}
        for key, counts in sorted(table.items(), key=lambda item: game_order(item[0]))
    }


# -- games ------------------------------------------------------------------------------------


def game_keys() -> list[str]:
    from games.engine import variant_keys

    return list(variant_keys())


def game_name(key: str) -> str:
    from games.engine import get_variant

    try:
        return get_variant(key).name
    except Exception:
        return key.title()


def game_order(key: str) -> tuple[int, str]:
    keys = game_keys()
    return (keys.index(key) if key in keys else len(keys), key)


def player_counts(key: str) -> tuple[int, ...]:
    from games.engine import get_variant

    return tuple(get_variant(key).player_counts)


def month_start(now: datetime | None = None) -> datetime:
    now = timezone.localtime(now or timezone.now())
    return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def backfill(*, all_figures: bool = False) -> tuple[int, int]:
    """Records for finished matches that lack them, and figures where missing (or all)."""
    from games.models import Match

    have = MatchRecord.objects.values("match_id")
    written = 0
    missing = Match.objects.filter(status="finished").exclude(pk__in=have).prefetch_related("seats")
    for match in missing.iterator(chunk_size=500):
        with transaction.atomic():
            rows = build_records(match, rated=ratings.match_result(match) is not None)
            MatchRecord.objects.bulk_create(rows)
            written += len(rows)
    todo = MatchRecord.objects.all()
    if not all_figures:
        todo = todo.filter(figures__isnull=True)
    match_ids = sorted(set(todo.values_list("match_id", flat=True)))
    for match_id in match_ids:
        fill_figures(match_id)
    return written, len(match_ids)
