"""Results of tournament games: entry, confirmation, disputes, corrections and forfeits.

The director's entry stands at once. A player's entry waits until someone on the other side
confirms it on their own login; a second entry that disagrees becomes a dispute for the
director. Each function is one transaction under the tournament's row lock.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.texts import engine_text
from games.tournaments import matches
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
    score,
    write_scored,
)
from games.tournaments.models import Correction, Dispute, Game, Pairing, ResultEntry, Round
from games.tournaments.scoring import SEATS, BadResult, check_scores

__all__ = [
    "dispute_resolve",
    "game_forfeit",
    "result_confirm",
    "result_correct",
    "result_enter",
]


def result_enter(*, game_id: int, by, score_a, score_b, score_c=None, score_d=None) -> Game:
    """Enter a game's scores, seat by seat (a first; c and d at tables of three or four).
    Returns the game, decided or pending.

    Refused: someone who is neither the director nor at the table (Forbidden), a game that is
    not in play (Conflict), scores that cannot end a game (ServiceError naming the reason).
    """
    with transaction.atomic():
        game = _locked_game(game_id)
        director = can_direct(by)
        side = game.pairing.side_of(by) if by is not None and by.is_authenticated else None
        if not director and side is None:
            raise Forbidden(_("only the director or the players of this game can enter its result"))
        _require_in_play(game)
        scores = _checked(game, [score_a, score_b, score_c, score_d])
        if director:
            _entry(game, by, "", scores)
            _decide(game, scores, entered_by=by, confirmed_by=by)
            return game
        pending = _pending_entry(game)
        entry = _entry(game, by, side, scores)
        if pending is None or pending.side == side:
            # A first entry, or the same side changing its own unconfirmed entry.
            game.status = Game.Status.PENDING
            _set_scores(game, scores)
            game.entered_by = by
            game.save(update_fields=["status", *_score_fields(), "entered_by"])
            notify(game.pairing.round.tournament)
        elif pending.scores() == scores:
            _decide(game, scores, entered_by=pending.by, confirmed_by=by)
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
                raise Conflict(_("this result already stands"))
            raise Conflict(_("there is no entered result waiting to be confirmed"))
        pending = _pending_entry(game)
        side = game.pairing.side_of(by) if by is not None and by.is_authenticated else None
        if not can_direct(by):
            if side is None:
                raise Forbidden(_("only the players of this game can confirm its result"))
            if side == pending.side:
                raise Forbidden(_("your opponent has to confirm the result you entered"))
        _decide(game, pending.scores(), entered_by=pending.by, confirmed_by=by)
        return game


def dispute_resolve(
    *, dispute_id: int, by, score_a, score_b, score_c=None, score_d=None, note: str = ""
) -> Game:
    """The director settles a dispute with the result that stands."""
    with transaction.atomic():
        require_director(by)
        try:
            tournament_id = Dispute.objects.values_list(
                "game__pairing__round__tournament_id", flat=True
            ).get(pk=dispute_id)
        except (Dispute.DoesNotExist, ValueError, TypeError):
            raise NotFound(_("there is no such dispute")) from None
        locked_tournament(tournament_id)
        dispute = Dispute.objects.select_related("game__pairing__round__tournament").get(
            pk=dispute_id
        )
        if dispute.resolved_at is not None:
            raise Conflict(_("this dispute is already settled"))
        game = dispute.game
        scores = _checked(game, [score_a, score_b, score_c, score_d])
        _entry(game, by, "", scores)
        dispute.resolved_by = by
        dispute.resolved_at = timezone.now()
        dispute.note = (note or "")[:200]
        dispute.save(update_fields=["resolved_by", "resolved_at", "note"])
        _decide(game, scores, entered_by=dispute.first.by, confirmed_by=by)
        return game


def result_correct(
    *,
    game_id: int,
    by,
    score_a=None,
    score_b=None,
    score_c=None,
    score_d=None,
    forfeit_by: str | None = None,
    reason="",
) -> Correction:
    """The director changes a result that stands; the change is recorded and standings redone.

    Give either the scores or `forfeit_by` (the seat letter that did not play: "a" or "b").
    """
    with transaction.atomic():
        require_director(by)
        game = _locked_game(game_id)
        if not game.is_decided:
            raise Conflict(_("only a result that stands can be corrected; enter it instead"))
        before = _snapshot(game)
        old_winner = game.pairing.winner_id
        if forfeit_by is not None:
            _require_seat(game, forfeit_by, "forfeit_by")
            _decide(game, None, entered_by=by, confirmed_by=by, forfeit_by=forfeit_by)
        else:
            scores = _checked(game, [score_a, score_b, score_c, score_d])
            _decide(game, scores, entered_by=by, confirmed_by=by)
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
            raise Conflict(_("the bracket has moved on past this series, so its winner must stand"))
        return Correction.objects.create(
            game=game, by=by, before=before, after=_snapshot(game), reason=(reason or "")[:200]
        )


def game_forfeit(*, game_id: int, by, absent: str) -> Game:
    """The director gives a game to the side that turned up, once the waiting time is over
    (`absent`: the seat letter of the no-show)."""
    with transaction.atomic():
        require_director(by)
        game = _locked_game(game_id)
        _require_seat(game, absent, "absent")
        _require_in_play(game)
        tournament = game.pairing.round.tournament
        wait = timedelta(minutes=tournament.forfeit_minutes)
        waited = timezone.now() - game.started_at
        if waited < wait:
            left = max(1, int((wait - waited).total_seconds() // 60) + 1)
            raise Conflict(
                _(
                    "a no-show can be forfeited %(wait)d minutes after the game starts; wait "
                    "about %(left)d more"
                )
                % {"wait": tournament.forfeit_minutes, "left": left}
            )
        _decide(game, None, entered_by=by, confirmed_by=by, forfeit_by=absent)
        if game.match_id is not None:
            # The online match has nothing left to decide. End it after this commit, in its own
            # transaction, so locks are always taken match first, tournament second.
            match_id = game.match_id
            transaction.on_commit(lambda: matches.call_off(match_id))
        return game


# -- used by online.py --------------------------------------------------------------------


def record_match_result(game: Game, scores: list[int], winners: str) -> None:
    """An online match's result (each seat's score and the winning seats) decides its game."""
    locked_tournament(game.pairing.round.tournament_id)
    game.refresh_from_db()
    if not game.in_play:
        return
    _decide(game, scores, entered_by=None, confirmed_by=None, winners=winners)


# -- internals ----------------------------------------------------------------------------


def _locked_game(game_id) -> Game:
    try:
        tournament_id = Game.objects.values_list("pairing__round__tournament_id", flat=True).get(
            pk=game_id
        )
    except (Game.DoesNotExist, ValueError, TypeError):
        raise NotFound(_("there is no such game")) from None
    locked_tournament(tournament_id)
    return Game.objects.select_related(
        "pairing__round__tournament", "pairing__a__user", "pairing__a__partner",
        "pairing__b__user", "pairing__b__partner",
    ).get(pk=game_id)  # fmt: skip


def _require_in_play(game: Game) -> None:
    if game.is_decided:
        raise Conflict(_("this game already has a result; only the director can correct it"))
    if game.status == Game.Status.DISPUTED:
        raise Conflict(_("this game's result is disputed; the director will settle it"))
    if game.pairing.status == Pairing.Status.DONE or game.pairing.is_bye:
        raise Conflict(_("this game is not in play"))


def _checked(game: Game, given: list) -> list[int]:
    """One score per seat of the table, checked by the game's tournament scoring."""
    tournament = game.pairing.round.tournament
    size = tournament.table_size
    if any(s is None for s in given[:size]) or any(s is not None for s in given[size:]):
        raise ServiceError(
            _("enter one score for each of the %(size)d seats") % {"size": size}, field="score"
        )
    try:
        return check_scores(given[:size], tournament.rules)
    except BadResult as error:
        raise ServiceError(engine_text(error.template, error.params), field="score") from None


def _require_seat(game: Game, letter, field: str) -> None:
    seats = game.pairing.round.tournament.seats
    if letter not in tuple(seats):
        listed = _("%(some)s or %(last)s") % {"some": ", ".join(seats[:-1]), "last": seats[-1]}
        raise ServiceError(
            _("name the seat that did not play: %(seats)s") % {"seats": listed}, field=field
        )


def _score_fields() -> list[str]:
    return [f"score_{letter}" for letter in SEATS]


def _set_scores(game: Game, scores: list[int] | None) -> None:
    for i, letter in enumerate(SEATS):
        value = scores[i] if scores is not None and i < len(scores) else None
        setattr(game, f"score_{letter}", value)


def _entry(game: Game, by, side: str, scores: list[int]) -> ResultEntry:
    entry = ResultEntry(game=game, by=by, side=side)
    _set_scores(entry, scores)
    entry.save()
    return entry


def _pending_entry(game: Game) -> ResultEntry | None:
    if game.status != Game.Status.PENDING:
        return None
    return game.entries.exclude(side="").order_by("-created_at", "-pk").first()


def _decide(game, scores, *, entered_by, confirmed_by, forfeit_by=None, winners: str = "") -> None:
    """Let a result stand: the scores (or a forfeit), counted by the event's settings."""
    tournament = game.pairing.round.tournament
    _set_scores(game, scores)
    if forfeit_by is not None:
        game.status = Game.Status.FORFEIT
        game.winner = "".join(s for s in tournament.seats if s != forfeit_by)
    else:
        game.status = Game.Status.CONFIRMED
        game.winner = winners
    write_scored(game, score(game, tournament))
    game.entered_by, game.confirmed_by = entered_by, confirmed_by
    game.decided_at = timezone.now()
    game.save()
    resolve(game.pairing)
    recompute(tournament)


def _snapshot(game: Game) -> dict:
    seats = game.pairing.round.tournament.seats
    return {
        "status": game.status,
        **{f"score_{s}": getattr(game, f"score_{s}") for s in seats},
        "winner": game.winner,
        **{f"points_{s}": _number(getattr(game, f"points_{s}")) for s in seats},
        **{f"spread_{s}": getattr(game, f"spread_{s}") for s in seats},
    }


def _number(value) -> int | float:
    """Game points for the JSON record: whole numbers stay whole."""
    return int(value) if value == int(value) else float(value)
