"""Request and response shapes of the JSON API (games.api), and the functions that fill them.

The shapes also make the API's OpenAPI schema. A match is only ever shown through the engine's
view for the caller's seat (or a spectator's), and its seed only once it is over.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Annotated, Any

from ninja import Field, Schema
from pydantic import StrictBool, StrictInt, field_validator

from accounts.models import User
from games import services
from games.engine.core.variant import fill_names
from games.models import Match, Move

# Bounds of the numbers a client sends (each inside its database column).
MOST_PLAYERS = 8  # above every game's largest table; the game itself says which counts it takes
MOST_SEQ = 2**31 - 1  # a match's seq is a 32-bit column


class Problem(Schema):
    """Every error: what went wrong, and the request field at fault when there is one."""

    detail: str
    field: str | None = None


class StaleProblem(Schema):
    """A move made on an old board: the current state comes with the refusal."""

    detail: str
    state: MatchState


class MatchIn(Schema):
    variant: str = Field(..., examples=["cribbage"], max_length=40)
    players: StrictInt = Field(2, ge=1, le=MOST_PLAYERS)
    options: dict[str, Any] = Field(default_factory=dict, examples=[{"target": 61}])
    computer_seats: list[Annotated[StrictInt, Field(ge=0, lt=MOST_PLAYERS)]] = Field(
        default_factory=list, max_length=MOST_PLAYERS, examples=[[1]]
    )
    invite: list[str] = Field(default_factory=list, description="usernames", examples=[["bob"]])
    invite_only: StrictBool = False
    computer_level: str = Field(
        "", max_length=16, description="one of the game's levels; blank: its default"
    )
    rated: StrictBool = Field(True, description="counts for ratings (never with the computer)")


class PreviewIn(Schema):
    move: dict[str, Any] = Field(..., description="a move you are thinking of making")


class MoveIn(Schema):
    seq: StrictInt = Field(
        ..., ge=0, le=MOST_SEQ, description="the seq of the board the move was chosen on"
    )
    move: dict[str, Any] = Field(..., description="one of legal_moves, unchanged")

    @field_validator("move")
    @classmethod
    def _typed(cls, move: dict[str, Any]) -> dict[str, Any]:
        if "type" in move and not isinstance(move["type"], str):
            raise ValueError('a move\'s type is a word, such as "go"')
        return move


class SeatOut(Schema):
    index: int
    name: str
    username: str | None
    computer: bool


class SideScore(Schema):
    seats: list[int]
    score: int


class MatchState(Schema):
    """A match as one seat (or a spectator) sees it. `view` is the engine's view for that seat."""

    id: int
    variant: str
    status: str
    ending: str
    seq: int
    seat: int | None
    players: int
    seats: list[SeatOut]
    to_move: list[int]
    legal_moves: list[dict[str, Any]]
    view: dict[str, Any] | None
    scores: list[SideScore]
    outcome: dict[str, Any] | None
    seed_sha256: str
    seed: str | None = Field(None, description="revealed once the match is over")


class MatchSummary(Schema):
    id: int
    variant: str
    status: str
    players: int
    seq: int
    seat: int | None
    seats: list[SeatOut]
    to_move: list[int]
    invite_only: bool
    created_by: str | None
    created_at: datetime


class MatchPage(Schema):
    count: int
    limit: int
    offset: int
    items: list[MatchSummary]


class LoggedMove(Schema):
    seq: int
    seat: int
    move: dict[str, Any]
    hidden: bool = Field(..., description="only the move's type is shown until the match ends")
    by_computer: bool
    at: datetime


class MatchLog(Schema):
    moves: list[LoggedMove]
    seed: str | None
    seed_sha256: str


class VariantOut(Schema):
    key: str
    name: str
    player_counts: list[int]
    options_schema: dict[str, Any]
    levels: list[str] = Field(..., description="the computer's levels, weakest first")
    default_level: str


StaleProblem.model_rebuild()


# -- filling them -----------------------------------------------------------------------------


def state_of(match: Match, user: User) -> dict[str, Any]:
    """The match as `user`'s seat (or a spectator) sees it; `match` has its seats prefetched."""
    seat = services.seat_for(match, user)
    index = None if seat is None else seat.index
    view = services.engine_view(match, index)
    outcome = match.outcome
    if outcome is not None and "text" not in outcome and "reason" in outcome:
        outcome = {**outcome, "text": fill_names(outcome["reason"], services.seat_names(match))}
    return {
        "id": match.pk,
        "variant": match.variant,
        "status": match.status,
        "ending": match.ending,
        "seq": match.seq,
        "seat": index,
        "players": match.players,
        "seats": seats_of(match),
        "to_move": list(match.to_move),
        "legal_moves": list(view.get("legal_moves", [])) if view else [],
        "view": view,
        "scores": [
            {"seats": list(side["seats"]), "score": side["score"]}
            for side in (view or {}).get("sides", [])
        ],
        "outcome": outcome,
        "seed_sha256": match.seed_sha256,
        "seed": match.seed if match.is_over else None,
    }


def summary_of(match: Match, user: User) -> MatchSummary:
    seat = services.seat_for(match, user)
    return MatchSummary(
        id=match.pk,
        variant=match.variant,
        status=match.status,
        players=match.players,
        seq=match.seq,
        seat=None if seat is None else seat.index,
        seats=seats_of(match),
        to_move=list(match.to_move),
        invite_only=match.invite_only,
        created_by=match.created_by.username if match.created_by else None,
        created_at=match.created_at,
    )


def seats_of(match: Match) -> list[SeatOut]:
    return [
        SeatOut(
            index=seat.index,
            name=seat.name,
            username=seat.user.username if seat.user_id and not seat.took_over else None,
            computer=seat.is_computer,
        )
        for seat in match.seats.all()
    ]


def log_of(match: Match, user: User, moves: Iterable[Move]) -> dict[str, Any]:
    """The move log. Until the match is over, other seats' moves show only their type (a
    move may name pieces nobody else has seen yet) and the seed is withheld."""
    seat = services.seat_for(match, user)
    over = match.is_over

    def shown(move: Move) -> bool:
        return over or (seat is not None and seat.index == move.seat)

    return {
        "moves": [
            LoggedMove(
                seq=move.seq,
                seat=move.seat,
                move=move.move if shown(move) else {"type": move.move.get("type")},
                hidden=not shown(move),
                by_computer=move.by_computer,
                at=move.created_at,
            )
            for move in moves
        ],
        "seed": match.seed if over else None,
        "seed_sha256": match.seed_sha256,
    }
