"""The JSON API's players: a member's ratings and statistics (mounted by games/api.py)."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext
from ninja import Router, Schema, Status

from accounts import stats
from accounts.models import User
from games.api_schemas import Problem

router = Router(tags=["players"])


class RatingOut(Schema):
    game: str
    players: int
    rating: float
    deviation: float
    volatility: float
    provisional: bool
    games: int


class FigureOut(Schema):
    label: str
    value: str


class GameStatsOut(Schema):
    name: str
    played: int
    won: int
    lost: int
    drawn: int
    rated: int
    win_rate: float | None
    skunks_given: int
    skunks_taken: int
    figures: list[FigureOut]
    totals: dict[str, int]


class PlayerOut(Schema):
    username: str
    name: str
    ratings: list[RatingOut]
    stats: dict[str, GameStatsOut]


@router.get("/players/{username}", response={200: PlayerOut, 401: Problem, 404: Problem})
def player(request: HttpRequest, username: str):
    """A member's ratings (one per game and player count) and statistics per game."""
    member = User.objects.filter(username=username[:150], is_active=True).first()
    if member is None:
        return Status(404, {"detail": gettext("there is no such member"), "field": "username"})
    per_game = stats.member_stats(member)
    return {
        "username": member.username,
        "name": member.name,
        "ratings": [rating for entry in per_game for rating in entry.ratings],
        "stats": {
            entry.game: {
                "name": entry.name,
                "played": entry.played,
                "won": entry.won,
                "lost": entry.lost,
                "drawn": entry.drawn,
                "rated": entry.rated,
                "win_rate": round(entry.won / entry.played, 4) if entry.played else None,
                "skunks_given": entry.skunks_given,
                "skunks_taken": entry.skunks_taken,
                "figures": [{"label": label, "value": value} for label, value in entry.figures],
                "totals": entry.totals,
            }
            for entry in per_game
            if entry.played
        },
    }
