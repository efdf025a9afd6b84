"""Shared parts of the tournament write path: who may direct, locking, standings, series.

Every public service takes the tournament's row lock first (`select_for_update`), so two
results entered at once for one event are applied one after the other.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import Conflict, Forbidden, NotFound, ServiceError
from games.tournaments import matches
from games.tournaments import pairing as rules
from games.tournaments.models import Entrant, Game, Pairing, Round, Standing, Tournament
from games.tournaments.scoring import SEATS, Scored, score_forfeit, score_game

__all__ = [
    "Conflict",
    "Forbidden",
    "NotFound",
    "ServiceError",
    "can_direct",
    "series_resolve",
    "standings_recompute",
]

DIRECT_PERMISSION = "games.direct_tournament"


def can_direct(user) -> bool:
    """Staff holding the director permission (superusers hold every permission)."""
    return bool(
        user is not None
        and user.is_authenticated
        and user.is_active
        and user.is_staff
        and user.has_perm(DIRECT_PERMISSION)
    )


def require_director(user) -> None:
    if not can_direct(user):
        raise Forbidden(_("only the tournament director can do that"))


def locked_tournament(tournament_id) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError):
        raise NotFound(_("there is no such tournament")) from None


def notify(tournament: Tournament) -> None:
    """After the commit, tell the tournament's pages that something changed."""
    group = tournament.group_name

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, {"type": "tournament.changed"})

    transaction.on_commit(send)


def standings_recompute(*, tournament_id: int, by=None) -> list[Standing]:
    """Score every decided qualifying game with the current settings and rank the entrants.

    `by` (when given) must be a director: the admin action and the director's button pass one;
    the other services call this internally after each result.
    """
    with transaction.atomic():
        if by is not None:
            require_director(by)
        tournament = locked_tournament(tournament_id)
        return recompute(tournament)


def recompute(tournament: Tournament) -> list[Standing]:
    points = tournament.rules
    seats = tournament.seats
    entrants = list(tournament.entrants.all())
    results: list[rules.Result] = []
    games = (
        Game.objects.filter(
            pairing__round__tournament=tournament,
            pairing__round__stage=Round.Stage.QUALIFYING,
            status__in=[Game.Status.CONFIRMED, Game.Status.FORFEIT],
        )
        .select_related("pairing", "match")
        .defer("match__snapshot")  # only the outcome and ending are read
        .order_by("pairing__round__number", "pairing__table", "number")
    )
    changed = []
    fields = [f"{kind}_{letter}" for kind in ("points", "spread") for letter in SEATS] + ["skunk"]
    for game in games:
        scored = score(game, tournament, points)
        before = [getattr(game, name) for name in fields]
        write_scored(game, scored)
        if [getattr(game, name) for name in fields] != before:
            changed.append(game)
        p = game.pairing
        results.append(
            rules.Result(
                tuple(p.entrant_ids),
                scored.points,
                scored.spreads,
                frozenset(seats.index(letter) for letter in scored.winners),
            )
        )
    if changed:
        Game.objects.bulk_update(changed, fields)
    byes = Pairing.objects.filter(
        round__tournament=tournament, round__stage=Round.Stage.QUALIFYING, b__isnull=True
    ).values_list("a_id", flat=True)
    for entrant_id in byes:
        results.append(rules.Result.bye(entrant_id, points.bye_points, points.bye_spread))
    carried = {
        e.pk: rules.Carry(e.carry_game_points, e.carry_wins, e.carry_spread, e.carry_games)
        for e in entrants
        if e.late
    }
    lines = rules.standings([e.pk for e in entrants], results, tournament.tiebreak_order, carried)
    Standing.objects.filter(tournament=tournament).delete()
    rows = Standing.objects.bulk_create(
        Standing(
            tournament=tournament,
            entrant_id=line.entrant,
            position=line.position,
            game_points=line.game_points,
            wins=line.wins,
            losses=line.losses,
            spread=line.spread,
            games=line.games,
        )
        for line in lines
    )
    notify(tournament)
    return rows


def score(game: Game, tournament: Tournament, points=None) -> Scored:
    """How a decided game counts under the event's current settings.

    A forfeit: the absent seats are those not among the winners. A result that came from an
    online match keeps the match's word on who won and the engine's skunk level; one entered
    by a person (over the table, or a correction) is read from its scores.
    """
    points = points or tournament.rules
    seats = tournament.seats
    if game.status == Game.Status.FORFEIT:
        absent = [i for i, letter in enumerate(seats) if letter not in game.winner]
        return score_forfeit(absent, len(seats), points)
    if game.source == Game.Source.ONLINE and game.entered_by_id is None:
        winners = [seats.index(letter) for letter in game.winner if letter in seats] or None
        return score_game(
            game.scores(seats),
            points,
            winners=winners,
            skunk=engine_skunk(game),
            places=engine_places(game, tournament),
        )
    return score_game(game.scores(seats), points)


def engine_skunk(game: Game) -> int | None:
    """The loser's skunk level in the online match's outcome, when it was played out."""
    sides = _played_out_sides(game)
    levels = [int(side.get("skunk", 0)) for side in sides]
    return max(levels) if levels else None


def engine_places(game: Game, tournament: Tournament) -> list[int] | None:
    """Each seat's place in the online match's outcome (seat a first), when it was played out
    and the engine gave every side a place."""
    letter_of = matches.side_letters(tournament)
    found = {}
    for side in _played_out_sides(game):
        letter = letter_of.get(tuple(side.get("seats", ())))
        if letter is not None and int(side.get("place") or 0) > 0:
            found[letter] = int(side["place"])
    if sorted(found) != sorted(tournament.seats):
        return None
    return [found[letter] for letter in tournament.seats]


def _played_out_sides(game: Game) -> list[dict]:
    match = game.match if game.match_id else None
    if match is None or match.ending != "played":
        return []
    return list((match.outcome or {}).get("sides") or [])


def write_scored(game: Game, scored: Scored) -> None:
    """Copy a game's count onto its row (seats beyond the table get nothing)."""
    game.winner = scored.winners
    for i, letter in enumerate(SEATS):
        setattr(game, f"points_{letter}", scored.points[i] if i < len(scored.points) else 0)
        setattr(game, f"spread_{letter}", scored.spreads[i] if i < len(scored.spreads) else 0)
    game.skunk = scored.skunk


def series_resolve(*, pairing_id: int, by) -> Pairing:
    """Decide a pairing from its games: a winner once a side has won more than half of the
    series, or the next game set up. The result services call this after every game; the
    director can call it to settle a pairing after corrections."""
    with transaction.atomic():
        require_director(by)
        try:
            tournament_id = Pairing.objects.values_list("round__tournament_id", flat=True).get(
                pk=pairing_id
            )
        except (Pairing.DoesNotExist, ValueError, TypeError):
            raise NotFound(_("there is no such pairing")) from None
        locked_tournament(tournament_id)
        pairing = Pairing.objects.select_related("round__tournament").get(pk=pairing_id)
        resolve(pairing)
        return pairing


def resolve(pairing: Pairing) -> None:
    """Settle `pairing` from its decided games (or reopen it when a correction undid that)."""
    tournament = pairing.round.tournament
    if pairing.is_bye:
        return
    games = list(pairing.games.order_by("number"))
    if pairing.round.stage == Round.Stage.QUALIFYING:
        # One game settles a qualifying table; a win shared by several seats settles it too,
        # with no single winner (each seat's game points stand on their own).
        decided = bool(games) and all(g.is_decided for g in games)
        side = (games[-1].winner if len(games[-1].winner) == 1 else "") if decided else None
    else:
        side = rules.series_winner([g.winner for g in games if g.is_decided], pairing.series_length)
    if side is not None:
        pairing.winner_id = getattr(pairing, f"{side}_id") if side else None
        pairing.status = Pairing.Status.DONE
        pairing.save(update_fields=["winner", "status"])
        # Games set up but no longer needed (a correction decided the series) go away.
        for game in games:
            if not game.is_decided and not game.entries.exists():
                game.delete()
    else:
        pairing.winner_id = None
        pairing.status = Pairing.Status.PLAYING
        pairing.save(update_fields=["winner", "status"])
        if all(g.is_decided for g in games):
            number = (games[-1].number + 1) if games else 1
            new_game(pairing, number)
    advance(tournament)


def new_game(pairing: Pairing, number: int) -> Game:
    """A game of `pairing`: online ones get their match at once."""
    game = Game.objects.create(pairing=pairing, number=number, started_at=timezone.now())
    if matches.plays_online(pairing):
        matches.start_match(game)
    return game


def advance(tournament: Tournament) -> None:
    """Finish the event when its last pairing is decided."""
    last = tournament.round_set.order_by("-number").first()
    if last is None or last.pairings.exclude(status=Pairing.Status.DONE).exists():
        return
    if tournament.stage == Tournament.Stage.PLAYOFF and last.stage == Round.Stage.PLAYOFF:
        if last.pairings.count() == 1:
            _set_stage(tournament, Tournament.Stage.FINISHED)
    elif (
        tournament.stage == Tournament.Stage.QUALIFYING
        and not tournament.playoff
        and qualifying_rounds_left(tournament) == 0
    ):
        _set_stage(tournament, Tournament.Stage.FINISHED)


def _set_stage(tournament: Tournament, stage: str) -> None:
    tournament.stage = stage
    tournament.save(update_fields=["stage", "updated_at"])


def qualifying_rounds_total(tournament: Tournament) -> int:
    if tournament.qualifying == Tournament.Qualifying.NONE:
        return 0
    if tournament.qualifying == Tournament.Qualifying.SWISS:
        return tournament.rounds
    roster = tournament.entrants.filter(draw__isnull=False).count()
    per_cycle = roster - 1 if roster % 2 == 0 else roster
    cycles = 2 if tournament.qualifying == Tournament.Qualifying.DOUBLE_ROUND_ROBIN else 1
    return per_cycle * cycles


def qualifying_rounds_left(tournament: Tournament) -> int:
    played = tournament.round_set.filter(stage=Round.Stage.QUALIFYING).count()
    return max(0, qualifying_rounds_total(tournament) - played)


def entrant_in(tournament: Tournament, entrant_id) -> Entrant:
    try:
        return tournament.entrants.select_related("user", "partner").get(pk=entrant_id)
    except (Entrant.DoesNotExist, ValueError, TypeError):
        raise NotFound(_("there is no such entrant in this tournament")) from None
