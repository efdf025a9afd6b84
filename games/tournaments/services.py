"""The tournament write path: the event, its entrants, its rounds and its playoff.

Keyword-only functions, one transaction each, the tournament's row locked first; after the
commit the tournament's pages are told ("tournament.changed"). Results live in results.py and
are re-exported here, so callers import every service from this module.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from games.engine.variant import BadOptions, UnknownVariant, get_variant
from games.tournaments import pairing as rules
from games.tournaments.common import (
    Conflict,
    Forbidden,
    NotFound,
    ServiceError,
    advance,
    can_direct,
    entrant_in,
    locked_tournament,
    new_game,
    notify,
    qualifying_rounds_left,
    recompute,
    require_director,
    series_resolve,
    standings_recompute,
)
from games.tournaments.models import Entrant, Game, Pairing, Round, Standing, Tournament
from games.tournaments.results import (
    dispute_resolve,
    game_forfeit,
    result_confirm,
    result_correct,
    result_enter,
)

__all__ = [
    "Conflict",
    "Forbidden",
    "NotFound",
    "ServiceError",
    "can_direct",
    "dispute_resolve",
    "entrant_add",
    "entrant_check_in",
    "entrant_late_entry",
    "entrant_withdraw",
    "game_forfeit",
    "pairing_swap",
    "playoffs_start",
    "result_confirm",
    "result_correct",
    "result_enter",
    "round_generate",
    "series_resolve",
    "standings_recompute",
    "tournament_create",
]

SKUNK_LINES = {121: (90, 60), 61: (30, 15)}
MAX_ROUNDS = 40


def tournament_create(
    *,
    director,
    name: str,
    date: dt.date,
    variant: str = "cribbage",
    players: int = 2,
    options: Mapping[str, Any] | None = None,
    venue: str = Tournament.Venue.TABLE,
    qualifying: str = Tournament.Qualifying.SWISS,
    rounds: int = 9,
    playoff: bool = False,
    qualifiers: int | None = None,
    series_length: int = 3,
    points: Mapping[str, int] | None = None,
    tiebreaks: list[str] | None = None,
    forfeit_minutes: int = 15,
    seed: str = "",
) -> Tournament:
    """A new event taking entries. `points` may override win, skunk, double_skunk, loss,
    skunk_line, double_skunk_line, bye_points and bye_spread (the ACC customs otherwise)."""
    require_director(director)
    name = (name or "").strip()
    if not name:
        raise ServiceError("give the tournament a name", field="name")
    if not isinstance(date, dt.date):
        raise ServiceError("give the date of the tournament", field="date")
    try:
        engine = get_variant(variant)
    except UnknownVariant as error:
        raise ServiceError(str(error), field="variant") from None
    if players not in (2, 4) or players not in engine.player_counts:
        raise ServiceError("a tournament is for singles (2) or doubles (4)", field="players")
    try:
        cleaned = engine.clean_options(players, options or {})
    except BadOptions as error:
        raise ServiceError(str(error), field=f"options.{error.option}") from None
    if cleaned.get("games", 1) != 1:
        raise ServiceError(
            "each tournament game is a single game; use the playoff series for more",
            field="options.games",
        )
    if venue not in Tournament.Venue.values:
        raise ServiceError("games are played over the table, online or both", field="venue")
    if qualifying not in Tournament.Qualifying.values:
        raise ServiceError("choose how the qualifying is played", field="qualifying")
    if not _whole(rounds) or not 1 <= rounds <= MAX_ROUNDS:
        raise ServiceError(f"a tournament has 1 to {MAX_ROUNDS} rounds", field="rounds")
    if qualifying == Tournament.Qualifying.NONE and not playoff:
        raise ServiceError("without qualifying rounds the event needs a playoff", field="playoff")
    if qualifiers is not None and (not _whole(qualifiers) or qualifiers < 2):
        raise ServiceError("at least two entrants must reach the playoff", field="qualifiers")
    if series_length not in (1, 3, 5):
        raise ServiceError("a playoff series is 1, 3 or 5 games", field="series_length")
    order = list(tiebreaks or rules.TIEBREAKS)
    if any(key not in rules.TIEBREAKS for key in order) or len(set(order)) != len(order):
        known = ", ".join(rules.TIEBREAKS)
        raise ServiceError(f"tie-breaks are an order of: {known}", field="tiebreaks")
    if not _whole(forfeit_minutes) or not 0 <= forfeit_minutes <= 240:
        raise ServiceError("the no-show wait is 0 to 240 minutes", field="forfeit_minutes")
    skunk_line, double_line = SKUNK_LINES.get(cleaned.get("target", 121), (90, 60))
    values = {
        "win": 2, "skunk": 3, "double_skunk": 3, "loss": 0,
        "skunk_line": skunk_line, "double_skunk_line": double_line,
        "bye_points": 2, "bye_spread": 0,
    }  # fmt: skip
    for key, value in (points or {}).items():
        if key not in values:
            raise ServiceError(f"there is no scoring setting called {key!r}", field="points")
        if not _whole(value) or not -500 <= value <= 500:
            raise ServiceError(f"{key.replace('_', ' ')} must be a whole number", field=key)
        values[key] = value
    if values["skunk_line"] < 0 or values["double_skunk_line"] > values["skunk_line"]:
        raise ServiceError(
            "the double skunk line must be at or below the skunk line", field="skunk_line"
        )
    with transaction.atomic():
        return Tournament.objects.create(
            name=name[:120],
            date=date,
            variant=engine.key,
            players=players,
            options=cleaned,
            venue=venue,
            qualifying=qualifying,
            rounds=rounds,
            playoff=playoff,
            qualifiers=qualifiers,
            series_length=series_length,
            points_win=values["win"],
            points_skunk=values["skunk"],
            points_double_skunk=values["double_skunk"],
            points_loss=values["loss"],
            skunk_line=values["skunk_line"],
            double_skunk_line=values["double_skunk_line"],
            bye_points=values["bye_points"],
            bye_spread=values["bye_spread"],
            tiebreaks=",".join(order),
            forfeit_minutes=forfeit_minutes,
            seed=(seed or secrets.token_hex(8))[:32],
            director=director,
        )


def entrant_add(
    *,
    tournament_id: int,
    by,
    user=None,
    guest_name: str = "",
    partner=None,
    partner_guest_name: str = "",
    checked_in: bool = False,
) -> Entrant:
    """Enter a member or a guest (with a partner for doubles) before the first round."""
    with transaction.atomic():
        require_director(by)
        tournament = locked_tournament(tournament_id)
        if tournament.stage != Tournament.Stage.ENTRY:
            raise Conflict("the first round is out: add a late entrant instead")
        entrant = _new_entrant(tournament, user, guest_name, partner, partner_guest_name)
        entrant.checked_in = bool(checked_in)
        entrant.save()
        notify(tournament)
        return entrant


def entrant_check_in(*, entrant_id: int, by, checked_in: bool = True) -> Entrant:
    """Mark an entrant present (the director, or the member for their own entry)."""
    with transaction.atomic():
        tournament = _tournament_of_entrant(entrant_id)
        entrant = entrant_in(tournament, entrant_id)
        if not can_direct(by) and not entrant.has_member(by):
            raise Forbidden("only the director or the entrant can check in")
        if tournament.stage != Tournament.Stage.ENTRY:
            raise Conflict("check-in closed when the first round was drawn")
        if entrant.withdrawn:
            raise Conflict(f"{entrant.name} has withdrawn")
        entrant.checked_in = bool(checked_in)
        entrant.save(update_fields=["checked_in"])
        notify(tournament)
        return entrant


def entrant_late_entry(
    *,
    tournament_id: int,
    by,
    user=None,
    guest_name: str = "",
    partner=None,
    partner_guest_name: str = "",
    game_points: int = 0,
    wins: int = 0,
    spread: int = 0,
    games: int = 0,
) -> Entrant:
    """Add an entrant after the first round with the score so far that the director sets."""
    with transaction.atomic():
        require_director(by)
        tournament = locked_tournament(tournament_id)
        if tournament.stage != Tournament.Stage.QUALIFYING:
            if tournament.stage == Tournament.Stage.ENTRY:
                raise Conflict("the event has not started: add the entrant in the usual way")
            raise Conflict("late entries close when the qualifying rounds end")
        if tournament.qualifying != Tournament.Qualifying.SWISS:
            raise Conflict("a round robin's schedule is fixed once it starts")
        for label, value in (("game points", game_points), ("wins", wins),
                             ("spread", spread), ("games", games)):  # fmt: skip
            if not _whole(value):
                raise ServiceError(f"{label} must be a whole number", field=label)
        played = tournament.round_set.filter(stage=Round.Stage.QUALIFYING).count()
        if not 0 <= games <= played:
            raise ServiceError(f"games so far run from 0 to {played}", field="games")
        if not 0 <= wins <= games:
            raise ServiceError("wins cannot be more than the games played", field="wins")
        points = tournament.rules
        best = max(points.win, points.skunk, points.double_skunk)
        low = wins * min(points.win, points.skunk) + (games - wins) * points.loss
        high = wins * best + (games - wins) * points.loss
        if not low <= game_points <= high:
            raise ServiceError(
                f"with {wins} wins in {games} games the game points are {low} to {high}",
                field="game points",
            )
        if abs(spread) > games * points.target:
            raise ServiceError("that spread is more than the games could give", field="spread")
        entrant = _new_entrant(tournament, user, guest_name, partner, partner_guest_name)
        entrant.checked_in = True
        entrant.late = True
        entrant.carry_game_points = game_points
        entrant.carry_wins = wins
        entrant.carry_spread = spread
        entrant.carry_games = games
        entrant.save()
        recompute(tournament)
        return entrant


def entrant_withdraw(*, entrant_id: int, by) -> Entrant:
    """No more pairings for the entrant; the games they played stand."""
    with transaction.atomic():
        tournament = _tournament_of_entrant(entrant_id)
        entrant = entrant_in(tournament, entrant_id)
        if not can_direct(by) and not entrant.has_member(by):
            raise Forbidden("only the director or the entrant can withdraw an entry")
        if entrant.withdrawn:
            raise Conflict(f"{entrant.name} has already withdrawn")
        if tournament.stage == Tournament.Stage.FINISHED:
            raise Conflict("the tournament is over")
        entrant.withdrawn = True
        entrant.save(update_fields=["withdrawn"])
        notify(tournament)
        return entrant


def round_generate(*, tournament_id: int, by) -> Round:
    """Draw the next round: the first qualifying round at random, later ones by standings
    without repeat meetings (or the round robin's next round), or the playoff's next round."""
    with transaction.atomic():
        require_director(by)
        tournament = locked_tournament(tournament_id)
        stage = tournament.stage
        if stage == Tournament.Stage.FINISHED:
            raise Conflict("the tournament is over")
        _require_round_complete(tournament)
        if stage == Tournament.Stage.PLAYOFF:
            round_ = _next_playoff_round(tournament)
        else:
            round_ = _next_qualifying_round(tournament)
        recompute(tournament)
        return round_


def pairing_swap(*, round_id: int, entrant_id: int, other_entrant_id: int, by) -> Round:
    """Swap two entrants' places in a round before their games start (a bye moves too)."""
    with transaction.atomic():
        require_director(by)
        try:
            tournament_id = Round.objects.values_list("tournament_id", flat=True).get(pk=round_id)
        except (Round.DoesNotExist, ValueError, TypeError):
            raise NotFound("there is no such round") from None
        tournament = locked_tournament(tournament_id)
        round_ = tournament.round_set.get(pk=round_id)
        if round_ != tournament.round_set.order_by("-number").first():
            raise Conflict("only the latest round's pairings can be changed")
        if entrant_id == other_entrant_id:
            raise ServiceError("choose two different entrants", field="other_entrant")
        spots = {}
        for eid in (entrant_id, other_entrant_id):
            pairing = round_.pairings.filter(models_q_entrant(eid)).first()
            if pairing is None:
                raise ServiceError("both entrants must be in this round", field="entrant")
            spots[eid] = (pairing, "a" if pairing.a_id == eid else "b")
        (p1, s1), (p2, s2) = spots[entrant_id], spots[other_entrant_id]
        if p1.pk == p2.pk:
            raise ServiceError("those two already play each other", field="other_entrant")
        for p in (p1, p2):
            if p.round.stage == Round.Stage.PLAYOFF:
                raise Conflict("playoff pairings follow the bracket and cannot be swapped")
            if not p.is_bye and not _unstarted(p):
                raise Conflict(f"table {p.table}'s game has started, so it cannot change")
        setattr(p1, f"{s1}_id", other_entrant_id)
        setattr(p2, f"{s2}_id", entrant_id)
        for p in (p1, p2):
            if p.a_id is None:  # a bye moved onto side a: keep the entrant on side a
                p.a_id, p.b_id = p.b_id, None
            if p.is_bye:
                p.status, p.winner_id = Pairing.Status.DONE, p.a_id
                p.games.all().delete()
            else:
                p.status, p.winner_id = Pairing.Status.PLAYING, None
                if not p.games.exists():
                    new_game(p, 1)
            p.save(update_fields=["a", "b", "status", "winner"])
        for p in (p1, p2):
            if not p.is_bye and p.table is None:
                p.table = (round_.pairings.exclude(table=None).count() or 0) + 1
                p.save(update_fields=["table"])
            elif p.is_bye and p.table is not None:
                p.table = None
                p.save(update_fields=["table"])
        recompute(tournament)
        return round_


def playoffs_start(*, tournament_id: int, by) -> Round:
    """Seed the qualifiers by standing into a bracket; the top seeds take the byes."""
    with transaction.atomic():
        require_director(by)
        tournament = locked_tournament(tournament_id)
        if not tournament.playoff:
            raise Conflict("this tournament has no playoff")
        if tournament.stage == Tournament.Stage.PLAYOFF:
            raise Conflict("the playoff has already started")
        if tournament.stage == Tournament.Stage.FINISHED:
            raise Conflict("the tournament is over")
        if tournament.qualifying == Tournament.Qualifying.NONE:
            field = list(tournament.entrants.filter(checked_in=True, withdrawn=False))
            field.sort(key=lambda e: (e.draw is None, e.draw or 0, e.pk))
            if tournament.stage == Tournament.Stage.ENTRY:
                _draw(tournament, field)
            seeds = field
        else:
            if tournament.stage != Tournament.Stage.QUALIFYING:
                raise Conflict("play the qualifying rounds first")
            _require_round_complete(tournament)
            left = qualifying_rounds_left(tournament)
            if left:
                raise Conflict(f"{left} qualifying round{'s' if left > 1 else ''} still to play")
            recompute(tournament)
            ranked = Standing.objects.filter(tournament=tournament, entrant__withdrawn=False)
            seeds = [s.entrant for s in ranked.select_related("entrant").order_by("position")]
        count = rules.qualifier_count(len(seeds), number=tournament.qualifiers)
        if len(seeds) < 2:
            raise Conflict("a playoff needs at least two entrants")
        seeds = seeds[:count]
        plan = rules.bracket([e.pk for e in seeds])
        seed_of = {e.pk: i for i, e in enumerate(seeds, start=1)}
        round_ = _new_round(tournament, Round.Stage.PLAYOFF)
        for slot, (a, b) in enumerate(plan.first_round):
            _new_pairing(round_, a, b, slot=slot, seeds=seed_of,
                         series=tournament.series_length)  # fmt: skip
        _number_tables(round_)
        tournament.stage = Tournament.Stage.PLAYOFF
        tournament.save(update_fields=["stage", "updated_at"])
        advance(tournament)
        notify(tournament)
        return round_


# -- internals ----------------------------------------------------------------------------


def models_q_entrant(entrant_id):
    from django.db.models import Q

    return Q(a_id=entrant_id) | Q(b_id=entrant_id)


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _tournament_of_entrant(entrant_id) -> Tournament:
    try:
        tournament_id = Entrant.objects.values_list("tournament_id", flat=True).get(pk=entrant_id)
    except (Entrant.DoesNotExist, ValueError, TypeError):
        raise NotFound("there is no such entrant") from None
    return locked_tournament(tournament_id)


def _new_entrant(tournament, user, guest_name, partner, partner_guest_name) -> Entrant:
    guest_name = (guest_name or "").strip()[:80]
    partner_guest_name = (partner_guest_name or "").strip()[:80]
    if (user is None) == (not guest_name):
        raise ServiceError("enter a member or a guest's name (one of the two)", field="user")
    has_partner = partner is not None or bool(partner_guest_name)
    if tournament.is_doubles and not has_partner:
        raise ServiceError("a doubles team needs a partner", field="partner")
    if not tournament.is_doubles and has_partner:
        raise ServiceError("this is a singles event: enter partners separately", field="partner")
    if partner is not None and partner_guest_name:
        raise ServiceError("enter the partner as a member or as a guest, not both", field="partner")
    members = [u for u in (user, partner) if u is not None]
    if tournament.venue == Tournament.Venue.ONLINE and len(members) != (2 if has_partner else 1):
        raise ServiceError("online games need everyone to be a member of the site", field="user")
    if len({u.pk for u in members}) != len(members):
        raise ServiceError("the two partners must be different people", field="partner")
    for member in members:
        if not member.is_active:
            raise ServiceError(f"{member.name}'s account is closed", field="user")
        taken = tournament.entrants.filter(models_user_q(member.pk)).exists()
        if taken:
            raise Conflict(f"{member.name} is already entered")
    return Entrant(
        tournament=tournament,
        user=user,
        guest_name="" if user is not None else guest_name,
        partner=partner,
        partner_guest_name="" if partner is not None else partner_guest_name,
    )


def models_user_q(user_id):
    from django.db.models import Q

    return Q(user_id=user_id) | Q(partner_id=user_id)


def _require_round_complete(tournament: Tournament) -> None:
    last = tournament.round_set.order_by("-number").first()
    if last is None:
        return
    open_count = last.pairings.exclude(status=Pairing.Status.DONE).count()
    if open_count:
        raise Conflict(
            f"{last.title} still has {open_count} pairing{'s' if open_count > 1 else ''} "
            "without a result"
        )


def _draw(tournament: Tournament, entrants: list[Entrant]) -> None:
    import random

    order = list(entrants)
    random.Random(tournament.seed).shuffle(order)
    for number, entrant in enumerate(order, start=1):
        entrant.draw = number
    Entrant.objects.bulk_update(order, ["draw"])
    entrants[:] = order


def _next_qualifying_round(tournament: Tournament) -> Round:
    if tournament.qualifying == Tournament.Qualifying.NONE:
        raise Conflict("this tournament has no qualifying rounds: start the playoff")
    first = tournament.stage == Tournament.Stage.ENTRY
    if first:
        field = list(tournament.entrants.filter(checked_in=True, withdrawn=False))
        if len(field) < 2:
            raise Conflict("check in at least two entrants before the first round")
        _draw(tournament, field)
        tournament.stage = Tournament.Stage.QUALIFYING
        tournament.save(update_fields=["stage", "updated_at"])
    elif qualifying_rounds_left(tournament) == 0:
        if tournament.playoff:
            raise Conflict("the qualifying rounds are over: start the playoff")
        raise Conflict("every round has been played")
    if tournament.qualifying == Tournament.Qualifying.SWISS:
        pairs = _swiss_pairs(tournament, first)
    else:
        pairs = _round_robin_pairs(tournament)
    round_ = _new_round(tournament, Round.Stage.QUALIFYING)
    for a, b in pairs:
        _new_pairing(round_, a, b)
    _number_tables(round_)
    advance(tournament)
    return round_


def _swiss_pairs(tournament: Tournament, first: bool) -> list[tuple[int, int | None]]:
    active = set(
        tournament.entrants.filter(checked_in=True, withdrawn=False).values_list("pk", flat=True)
    )
    if len(active) < 2:
        raise Conflict("fewer than two entrants are still playing")
    if first:
        ranked = sorted(active)
    else:
        recompute(tournament)
        ranked = [
            eid
            for eid in Standing.objects.filter(tournament=tournament)
            .order_by("position")
            .values_list("entrant_id", flat=True)
            if eid in active
        ]
    met, had_bye = set(), set()
    for a, b in Pairing.objects.filter(
        round__tournament=tournament, round__stage=Round.Stage.QUALIFYING
    ).values_list("a_id", "b_id"):
        if b is None:
            had_bye.add(a)
        else:
            met.add(frozenset((a, b)))
    try:
        pairs, bye = rules.swiss_round(
            ranked, met, had_bye, first=first, seed=f"{tournament.seed}-1"
        )
    except rules.NoPairing as error:
        raise Conflict(f"no round without a repeat meeting is possible ({error})") from None
    return [*pairs, *([(bye, None)] if bye is not None else [])]


def _round_robin_pairs(tournament: Tournament) -> list[tuple[int, int | None]]:
    drawn = tournament.entrants.filter(draw__isnull=False).order_by("draw")
    roster = list(drawn.values_list("pk", "withdrawn"))
    withdrawn = {pk for pk, gone in roster if gone}
    schedule = rules.round_robin(
        [pk for pk, _ in roster],
        double=tournament.qualifying == Tournament.Qualifying.DOUBLE_ROUND_ROBIN,
    )
    index = tournament.round_set.filter(stage=Round.Stage.QUALIFYING).count()
    pairs = []
    for a, b in schedule[index]:
        if a in withdrawn:
            a, b = b, None
        if b in withdrawn:
            b = None
        if a is not None:
            pairs.append((a, b))
    return pairs


def _next_playoff_round(tournament: Tournament) -> Round:
    last = tournament.round_set.order_by("-number").first()
    previous = list(last.pairings.order_by("slot"))
    if len(previous) == 1:
        raise Conflict("the final is decided: the tournament is over")
    seed_of = {}
    for p in previous:
        seed_of[p.a_id] = p.seed_a
        if p.b_id:
            seed_of[p.b_id] = p.seed_b
    round_ = _new_round(tournament, Round.Stage.PLAYOFF)
    for slot in range(len(previous) // 2):
        top, bottom = previous[2 * slot], previous[2 * slot + 1]
        _new_pairing(round_, top.winner_id, bottom.winner_id, slot=slot, seeds=seed_of,
                     series=tournament.series_length)  # fmt: skip
    _number_tables(round_)
    notify(tournament)
    return round_


def _new_round(tournament: Tournament, stage: str) -> Round:
    number = tournament.round_set.count() + 1
    return Round.objects.create(tournament=tournament, number=number, stage=stage)


def _new_pairing(round_, a, b, *, slot=None, seeds=None, series=1) -> Pairing:
    seeds = seeds or {}
    pairing = Pairing.objects.create(
        round=round_,
        a_id=a,
        b_id=b,
        slot=slot,
        seed_a=seeds.get(a),
        seed_b=seeds.get(b) if b is not None else None,
        series_length=series,
        status=Pairing.Status.DONE if b is None else Pairing.Status.PLAYING,
        winner_id=a if b is None else None,
    )
    if b is not None:
        new_game(pairing, 1)
    return pairing


def _number_tables(round_: Round) -> None:
    """Table 1 for the first pairing drawn (the leaders after round 1); byes get no table."""
    playing = [p for p in round_.pairings.order_by("slot", "pk") if not p.is_bye]
    for table, p in enumerate(playing, start=1):
        p.table = table
    Pairing.objects.bulk_update(playing, ["table"])


def _unstarted(pairing: Pairing) -> bool:
    for game in pairing.games.all():
        if game.status != Game.Status.OPEN or game.entries.exists():
            return False
        if game.match_id is not None:
            return False
    return True
