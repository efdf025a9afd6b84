"""Classic Cribbage's discard analysis in the JSON API: the same rankings as the site's pages.

    GET /api/v1/cribbage/discard?cards=5H 5C JD 6S 7S KH&deals=me[&players=2]
    GET /api/v1/matches/{id}/discards[?seat=N]

The rules of who may see what are those of games.variants.cribbage.analysis."""

from __future__ import annotations

from typing import Any, Literal

from django.http import HttpRequest
from ninja import Query
from ninja.errors import HttpError

from games import presenters, services
from games.engine.pieces.cards import CardError
from games.variants.cribbage.analysis import NotAllowed, allowed_seats, analyse, match_discards


def add_routes(api, errors: dict[int, Any]) -> None:
    """Register the routes on the site's API (before its catch-all route)."""

    @api.get("/cribbage/discard", response={200: dict[str, Any], **errors}, tags=["games"])
    def rank_discards(
        request: HttpRequest,
        cards: str = Query(..., max_length=200, examples=["5H 5C JD 6S 7S KH"]),
        deals: Literal["me", "them"] = "me",
        players: int = Query(2, ge=2, le=4),
    ):
        """Every discard of the dealt cards, best first: `hand` (the kept cards over every
        starter), `crib` (over every throw and starter) and `total` (hand + crib when your side
        deals, hand - crib otherwise), to two decimals."""
        try:
            return {"discards": analyse(cards, deals, players)}
        except (CardError, ValueError) as error:
            raise HttpError(400, str(error)) from None

    @api.get(
        "/matches/{int:match_id}/discards", response={200: dict[str, Any], **errors}, tags=["games"]
    )
    def match_discard_analysis(request: HttpRequest, match_id: int, seat: int | None = None):
        """Your discards in a classic Cribbage match, hand by hand, each with all discards
        ranked, yours marked and what it cost. Hands still being played are left out; any seat
        once the match is over; nothing while a tournament game is in progress."""
        match = presenters.load_match(match_id)
        if match is None:
            raise HttpError(404, "there is no such match")
        try:
            seats = allowed_seats(match, request.auth)
        except NotAllowed as refusal:
            raise HttpError(403, str(refusal)) from None
        own = services.seat_for(match, request.auth)
        if seat is None:
            seat = own.index if own is not None and own.index in seats else seats[0]
        if seat not in seats:
            raise HttpError(403, "while a match is being played only your own seat is analysed")
        return {"match": match.pk, "seat": seat, "hands": match_discards(match, seat)}
