"""How did I discard? Every discard of a member's hands ranked by exact expected points.

Who may see what is decided here, never in a template:
* a finished match: every seat's hands (the replay shows them all face up);
* a match in progress: only the member's own seat, and only hands that are over (shown), so
  nothing is revealed that the table has not shown; never while it is a tournament game;
* spectators of a match in progress: nothing.
The standalone analyser takes any cards a member types in.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from games import presenters, services
from games.engine.cribbage.discard import discard_report, rank_discards
from games.engine.cribbage.view import REVEALED
from games.engine.pieces.cards import CardError, parse_card
from games.models import Match

VARIANT = "cribbage"


class NotAllowed(Exception):
    """The analysis is not offered for this match, seat or hand (the message says why)."""


def allowed_seats(match: Match, user) -> list[int]:
    """The seats whose discards `user` may see analysed; NotAllowed says why there are none."""
    if match.variant != VARIANT:
        raise NotAllowed(gettext("the discard analysis is for classic Cribbage matches"))
    if match.snapshot is None:
        raise NotAllowed(gettext("this match has not started yet"))
    if match.is_over:
        return list(range(match.players))
    if in_tournament(match):
        raise NotAllowed(gettext("a tournament game is analysed only once it is over"))
    seat = services.seat_for(match, user) if user is not None else None
    if seat is None:
        raise NotAllowed(
            gettext("while a match is being played only its players see their discards")
        )
    return [seat.index]


def offered_to_seat(match: Match, seat: int | None) -> bool:
    """Whether the match page offers `seat`'s player the analysis of its own discards."""
    if seat is None or match.variant != VARIANT or match.snapshot is None:
        return False
    return match.is_over or not in_tournament(match)


def in_tournament(match: Match) -> bool:
    """Whether the match is a game of a tournament."""
    return getattr(match, "tournament_game", None) is not None


def match_discards(match: Match, seat: int) -> list[dict[str, Any]]:
    """One report per hand of `seat` whose show is over (every hand once the match is over),
    oldest first; each has `game`, `hand` and `dealer_name` besides `discard_report`'s keys."""
    states = [state for state, _ in services.replay(match)]
    moves = list(match.moves.order_by("seq"))
    names = services.seat_names(match)
    shown = {(s.game, s.hand) for s in states if s.phase in REVEALED}
    current = (states[-1].game, states[-1].hand)
    reports = []
    for move, before, after in zip(moves, states, states[1:], strict=False):
        if move.seat != seat or move.move.get("type") != "discard":
            continue
        key = (before.game, before.hand)
        if not (match.is_over or key in shown or key != current):
            continue  # this hand is still being played
        report = discard_report(
            before.held[seat],
            after.discards[seat],
            dealer=before.dealer,
            seat=seat,
            players=before.players,
        )
        report.update(game=before.game, hand=before.hand, dealer_name=names[before.dealer])
        reports.append(report)
    return reports


@login_required
@require_GET
def match_analysis(request: HttpRequest, match_id: int) -> HttpResponse:
    """The page: every hand of one seat with its fifteen discards ranked."""
    match = presenters.load_match(match_id)
    if match is None:
        raise Http404("There is no such match.")
    try:
        seats = allowed_seats(match, request.user)
    except NotAllowed as refusal:
        return render(
            request,
            "games/cribbage/analysis_match.html",
            {"match": match, "refusal": str(refusal)},
            status=403,
        )
    own = services.seat_for(match, request.user)
    default = own.index if own is not None and own.index in seats else seats[0]
    seat = _chosen_seat(request.GET.get("seat"), seats, default)
    names = services.seat_names(match)
    reports = match_discards(match, seat)
    context = {
        "match": match,
        "seat": seat,
        "seat_name": names[seat],
        "seat_choices": [(s, names[s]) for s in seats] if len(seats) > 1 else [],
        "reports": reports,
        "total_cost": round(sum(r["cost"] for r in reports), 2),
        "average_cost": round(sum(r["cost"] for r in reports) / len(reports), 2) if reports else 0,
    }
    return render(request, "games/cribbage/analysis_match.html", context)


@login_required
@require_GET
def analyser(request: HttpRequest) -> HttpResponse:
    """The standalone analyser: type the dealt cards and say who deals."""
    form = {
        "cards": request.GET.get("cards", "").strip(),
        "deals": request.GET.get("deals", "me"),
        "players": request.GET.get("players", "2"),
    }
    context: dict[str, Any] = {
        "form": form,
        "ranking": None,
        "error": None,
        "own_crib": form["deals"] != "them",
    }
    if form["cards"]:
        try:
            context["ranking"] = analyse(form["cards"], form["deals"], form["players"])
        except (CardError, ValueError) as error:
            context["error"] = str(error)
    status = 400 if context["error"] else 200
    return render(request, "games/cribbage/analysis.html", context, status=status)


def analyse(cards: str, deals: str, players: str | int = 2) -> list[dict[str, Any]]:
    """The ranking for typed cards; ValueError (or CardError) names what is wrong."""
    if deals not in ("me", "them"):
        raise ValueError(gettext("say who deals: you (your crib) or an opponent"))
    try:
        count = int(players)
    except (TypeError, ValueError):
        raise ValueError(gettext("the number of players must be 2, 3 or 4")) from None
    if len(cards) > 200:
        raise ValueError(gettext("that is far too many cards"))
    dealt = _typed_cards(cards)
    if count not in (2, 3, 4):
        raise ValueError(
            gettext("cribbage is for 2, 3 or 4 players, not %(players)d") % {"players": count}
        )
    deal = 6 if count == 2 else 5
    if len(dealt) != deal:
        raise ValueError(
            gettext("%(players)d players are dealt %(deal)d cards each, not %(given)d")
            % {"players": count, "deal": deal, "given": len(dealt)}
        )
    return [d.to_json() for d in rank_discards(dealt, own_crib=deals == "me", players=count)]


def _typed_cards(text: str) -> tuple:
    """The cards typed in, each once; ValueError in the reader's language names the bad one."""
    cards = []
    for token in text.replace(",", " ").split():
        try:
            card = parse_card(token)
        except CardError:
            shown = token if len(token) <= 12 else token[:10] + "..."
            raise ValueError(
                gettext(
                    "'%(token)s' is not a card: write a rank (A 2-9 T J Q K, or 10) then a "
                    "suit (C D H S)"
                )
                % {"token": shown}
            ) from None
        if card in cards:
            raise ValueError(gettext("%(card)s appears twice") % {"card": card})
        cards.append(card)
    return tuple(cards)


def _chosen_seat(value: str | None, seats: list[int], default: int) -> int:
    try:
        seat = int(value) if value is not None else default
    except ValueError:
        return default
    return seat if seat in seats else default
