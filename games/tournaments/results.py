"""Results of tournament games: entry, confirmation, disputes, corrections and forfeits.

The director's entry stands at once. A player's entry waits until someone on the other side
confirms it on their own login; a second entry that disagrees becomes a dispute for the
director. Each function is one transaction under the tournament's row lock.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.tournaments import pairing as rules
from games.tournaments.common import (
    Conflict,
    Forbidden,
    NotFound,
    ServiceError,
    can_direct,
    locked_tournament,
    notify,
    recompute,
    require_director,
    resolve,
)
from games.tournaments.models import Correction, Dispute, Game, Pairing, ResultEntry, Round

__all__ = [
    "dispute_resolve",
    "game_forfeit",
    "result_confirm",
    "result_correct",
    "result_enter",
]


def result_enter(*, game_id: int, by, score_a, score_b) -> Game:
    """Enter a game's two scores (side a first). Returns the game, decided or pending.

    Refused: someone who is neither the director nor at the table (Forbidden), a game that is
    not in play (Conflict), scores that cannot end a game (ServiceError naming the reason).
    """
    with transaction.atomic():
        game = _locked_game(game_id)
        director = can_direct(by)
        side = game.pairing.side_of(by) if by is not None and by.is_authenticated else None
        if not director and side is None:
            raise Forbidden("only the director or the players of this game can enter its result")
        _require_in_play(game)
        a, b = _checked(game, score_a, score_b)
        if director:
            ResultEntry.objects.create(game=game, by=by, side="", score_a=a, score_b=b)
            _decide(game, a, b, entered_by=by, confirmed_by=by)
            return game
        pending = _pending_entry(game)
        entry = ResultEntry.objects.create(game=game, by=by, side=side, score_a=a, score_b=b)
        if pending is None or pending.side == side:
            # A first entry, or the same side changing its own unconfirmed entry.
            game.status = Game.Status.PENDING
            game.score_a, game.score_b = a, b
            game.entered_by = by
            game.save(update_fields=["status", "score_a", "score_b", "entered_by"])
            notify(game.pairing.round.tournament)
        elif (pending.score_a, pending.score_b) == (a, b):
            _decide(game, a, b, entered_by=pending.by, confirmed_by=by)
        else:
            Dispute.objects.create(game=game, first=pending, second=entry)
            game.status = Game.Status.DISPUTED
            game.save(update_fields=["status"])
            notify(game.pairing.round.tournament)
        return game


def result_confirm(*, game_id: int, by) -> Game:
    """The other side agrees with the entered result; it then stands."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.Status.PENDING:
            if game.is_decided:
                raise Conflict("this result already stands")
            raise Conflict("there is no entered result waiting to be confirmed")
        pending = _pending_entry(game)
        side = game.pairing.side_of(by) if by is not None and by.is_authenticated else None
        if not can_direct(by):
            if side is None:
                raise Forbidden("only the players of this game can confirm its result")
            if side == pending.side:
                raise Forbidden("your opponent has to confirm the result you entered")
        _decide(game, pending.score_a, pending.score_b, entered_by=pending.by, confirmed_by=by)
        return game


def dispute_resolve(*, dispute_id: int, by, score_a, score_b, note: str = "") -> Game:
    """The director settles a dispute with the result that stands."""
    with transaction.atomic():
        require_director(by)
        try:
            tournament_id = Dispute.objects.values_list(
                "game__pairing__round__tournament_id", flat=True
            ).get(pk=dispute_id)
        except (Dispute.DoesNotExist, ValueError, TypeError):
            raise NotFound("there is no such dispute") from None
        locked_tournament(tournament_id)
        dispute = Dispute.objects.select_related("game__pairing__round__tournament").get(
            pk=dispute_id
        )
        if dispute.resolved_at is not None:
            raise Conflict("this dispute is already settled")
        game = dispute.game
        a, b = _checked(game, score_a, score_b)
        ResultEntry.objects.create(game=game, by=by, side="", score_a=a, score_b=b)
        dispute.resolved_by = by
        dispute.resolved_at = timezone.now()
        dispute.note = (note or "")[:200]
        dispute.save(update_fields=["resolved_by", "resolved_at", "note"])
        _decide(game, a, b, entered_by=dispute.first.by, confirmed_by=by)
        return game


def result_correct(
    *, game_id: int, by, score_a=None, score_b=None, forfeit_by: str | None = None, reason=""
) -> Correction:
    """The director changes a result that stands; the change is recorded and standings redone.

    Give either the two scores or `forfeit_by` ("a" or "b": the side that did not play).
    """
    with transaction.atomic():
        require_director(by)
        game = _locked_game(game_id)
        if not game.is_decided:
            raise Conflict("only a result that stands can be corrected; enter it instead")
        before = _snapshot(game)
        old_winner = game.pairing.winner_id
        if forfeit_by is not None:
            if forfeit_by not in ("a", "b"):
                raise ServiceError("name the side that did not play: a or b", field="forfeit_by")
            _decide(game, None, None, entered_by=by, confirmed_by=by, forfeit_by=forfeit_by)
        else:
            a, b = _checked(game, score_a, score_b)
            _decide(game, a, b, entered_by=by, confirmed_by=by)
        pairing = game.pairing
        pairing.refresh_from_db()
        later = Round.objects.filter(
            tournament_id=pairing.round.tournament_id, number__gt=pairing.round.number
        )
        if (
            pairing.round.stage == Round.Stage.PLAYOFF
            and pairing.winner_id != old_winner
            and later.exists()
        ):
            raise Conflict("the bracket has moved on past this series, so its winner must stand")
        return Correction.objects.create(
            game=game, by=by, before=before, after=_snapshot(game), reason=(reason or "")[:200]
        )


def game_forfeit(*, game_id: int, by, absent: str) -> Game:
    """The director gives a game to the side that turned up, once the waiting time is over."""
    with transaction.atomic():
        require_director(by)
        game = _locked_game(game_id)
        if absent not in ("a", "b"):
            raise ServiceError("name the side that did not turn up: a or b", field="absent")
        _require_in_play(game)
        tournament = game.pairing.round.tournament
        wait = timedelta(minutes=tournament.forfeit_minutes)
        waited = timezone.now() - game.started_at
        if waited < wait:
            left = max(1, int((wait - waited).total_seconds() // 60) + 1)
            raise Conflict(
                f"a no-show can be forfeited {tournament.forfeit_minutes} minutes after the "
                f"game starts; wait about {left} more"
            )
        _decide(game, None, None, entered_by=by, confirmed_by=by, forfeit_by=absent)
        if game.match_id is not None:
            # The online match has nothing left to decide. End it after this commit, in its own
            # transaction, so locks are always taken match first, tournament second.
            match_id = game.match_id
            transaction.on_commit(lambda: _call_off(match_id))
        return game


# -- used by online.py --------------------------------------------------------------------


def record_match_result(game: Game, score_a: int, score_b: int) -> None:
    """An online match's result, already checked against the target, decides its game."""
    locked_tournament(game.pairing.round.tournament_id)
    game.refresh_from_db()
    if not game.in_play:
        return
    _decide(game, score_a, score_b, entered_by=None, confirmed_by=None)


# -- internals ----------------------------------------------------------------------------


def _call_off(match_id: int) -> None:
    from games import services as match_services

    match_services.match_call_off(match_id=match_id)


def _locked_game(game_id) -> Game:
    try:
        tournament_id = Game.objects.values_list("pairing__round__tournament_id", flat=True).get(
            pk=game_id
        )
    except (Game.DoesNotExist, ValueError, TypeError):
        raise NotFound("there is no such game") from None
    locked_tournament(tournament_id)
    return Game.objects.select_related(
        "pairing__round__tournament", "pairing__a__user", "pairing__a__partner",
        "pairing__b__user", "pairing__b__partner",
    ).get(pk=game_id)  # fmt: skip


def _require_in_play(game: Game) -> None:
    if game.is_decided:
        raise Conflict("this game already has a result; only the director can correct it")
    if game.status == Game.Status.DISPUTED:
        raise Conflict("this game's result is disputed; the director will settle it")
    if game.pairing.status == Pairing.Status.DONE or game.pairing.is_bye:
        raise Conflict("this game is not in play")


def _checked(game: Game, score_a, score_b) -> tuple[int, int]:
    try:
        return rules.check_scores(score_a, score_b, game.pairing.round.tournament.target)
    except rules.BadResult as error:
        raise ServiceError(str(error), field="score") from None


def _pending_entry(game: Game) -> ResultEntry | None:
    if game.status != Game.Status.PENDING:
        return None
    return game.entries.exclude(side="").order_by("-created_at", "-pk").first()


def _decide(game, score_a, score_b, *, entered_by, confirmed_by, forfeit_by=None) -> None:
    tournament = game.pairing.round.tournament
    if forfeit_by is not None:
        scored = rules.score_forfeit("b" if forfeit_by == "a" else "a", tournament.rules)
        game.status = Game.Status.FORFEIT
    else:
        scored = rules.score_game(score_a, score_b, tournament.rules)
        game.status = Game.Status.CONFIRMED
    game.score_a, game.score_b = score_a, score_b
    game.winner = scored.winner
    game.points_a, game.points_b = scored.points_a, scored.points_b
    game.spread_a, game.skunk = scored.spread_a, scored.skunk
    game.entered_by, game.confirmed_by = entered_by, confirmed_by
    game.decided_at = timezone.now()
    game.save()
    resolve(game.pairing)
    recompute(tournament)


def _snapshot(game: Game) -> dict:
    return {
        "status": game.status,
        "score_a": game.score_a,
        "score_b": game.score_b,
        "winner": game.winner,
        "points_a": game.points_a,
        "points_b": game.points_b,
        "spread_a": game.spread_a,
    }
