"""Rounds: drawing the next qualifying or playoff round, swapping pairings, seeding the bracket.

Part of the tournament write path (re-exported by services.py); each public function is one
transaction under the tournament's row lock.
"""

from __future__ import annotations

import random

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.texts import engine_text
from games.tournaments import matches, tables
from games.tournaments import pairing as rules
from games.tournaments.common import (
    Conflict,
    NotFound,
    ServiceError,
    advance,
    locked_tournament,
    new_game,
    notify,
    qualifying_rounds_left,
    recompute,
    require_director,
)
from games.tournaments.models import Entrant, Game, Pairing, Round, Standing, Tournament
from games.tournaments.scoring import SEATS

__all__ = ["pairing_swap", "playoffs_start", "round_generate"]


def round_generate(*, tournament_id: int, by) -> Round:
    """Draw the next round: the first qualifying round at random, later ones by standings
    without repeat meetings (or the round robin's next round), or the playoff's next round."""
    with transaction.atomic():
        require_director(by)
        tournament = locked_tournament(tournament_id)
        stage = tournament.stage
        if stage == Tournament.Stage.FINISHED:
            raise Conflict(_("the tournament is over"))
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
            raise NotFound(_("there is no such round")) from None
        matches.lock_round_matches(round_id)
        tournament = locked_tournament(tournament_id)
        round_ = tournament.round_set.get(pk=round_id)
        if round_ != tournament.round_set.order_by("-number").first():
            raise Conflict(_("only the latest round's pairings can be changed"))
        if entrant_id == other_entrant_id:
            raise ServiceError(_("choose two different entrants"), field="other_entrant")
        spots = {}
        for eid in (entrant_id, other_entrant_id):
            pairing = round_.pairings.filter(models_q_entrant(eid)).first()
            if pairing is None:
                raise ServiceError(_("both entrants must be in this round"), field="entrant")
            spots[eid] = (pairing, pairing.letter_of(eid))
        (p1, s1), (p2, s2) = spots[entrant_id], spots[other_entrant_id]
        if p1.pk == p2.pk:
            raise ServiceError(_("those two already play each other"), field="other_entrant")
        for p in (p1, p2):
            if p.round.stage == Round.Stage.PLAYOFF:
                raise Conflict(_("playoff pairings follow the bracket and cannot be swapped"))
            if not p.is_bye and not _unstarted(p):
                raise Conflict(
                    _("table %(table)s's game has started, so it cannot change")
                    % {"table": p.table}
                )
        for p in (p1, p2):
            matches.call_off_unplayed(p)
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
                else:
                    matches.seat_online(p)
            p.save(update_fields=[*SEATS, "status", "winner"])
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
            raise Conflict(_("this tournament has no playoff"))
        if tournament.stage == Tournament.Stage.PLAYOFF:
            raise Conflict(_("the playoff has already started"))
        if tournament.stage == Tournament.Stage.FINISHED:
            raise Conflict(_("the tournament is over"))
        if tournament.table_size > 2:
            raise Conflict(
                _("a playoff bracket is for games of two sides; this event ranks tables")
            )
        if tournament.qualifying == Tournament.Qualifying.NONE:
            field = list(tournament.entrants.filter(checked_in=True, withdrawn=False))
            field.sort(key=lambda e: (e.draw is None, e.draw or 0, e.pk))
            if tournament.stage == Tournament.Stage.ENTRY:
                _draw(tournament, field)
            seeds = field
        else:
            if tournament.stage != Tournament.Stage.QUALIFYING:
                raise Conflict(_("play the qualifying rounds first"))
            _require_round_complete(tournament)
            left = qualifying_rounds_left(tournament)
            if left:
                raise Conflict(
                    ngettext(
                        "%(count)d qualifying round still to play",
                        "%(count)d qualifying rounds still to play",
                        left,
                    )
                    % {"count": left}
                )
            recompute(tournament)
            ranked = Standing.objects.filter(tournament=tournament, entrant__withdrawn=False)
            seeds = [s.entrant for s in ranked.select_related("entrant").order_by("position")]
        count = rules.qualifier_count(len(seeds), number=tournament.qualifiers)
        if len(seeds) < 2:
            raise Conflict(_("a playoff needs at least two entrants"))
        seeds = seeds[:count]
        plan = rules.bracket([e.pk for e in seeds])
        seed_of = {e.pk: i for i, e in enumerate(seeds, start=1)}
        round_ = _new_round(tournament, Round.Stage.PLAYOFF)
        for slot, (a, b) in enumerate(plan.first_round):
            _new_pairing(round_, (a, b), slot=slot, seeds=seed_of,
                         series=tournament.series_length)  # fmt: skip
        _number_tables(round_)
        tournament.stage = Tournament.Stage.PLAYOFF
        tournament.save(update_fields=["stage", "updated_at"])
        advance(tournament)
        notify(tournament)
        return round_


# -- internals ----------------------------------------------------------------------------


def models_q_entrant(entrant_id) -> Q:
    found = Q()
    for letter in SEATS:
        found |= Q(**{f"{letter}_id": entrant_id})
    return found


def _require_round_complete(tournament: Tournament) -> None:
    last = tournament.round_set.order_by("-number").first()
    if last is None:
        return
    open_count = last.pairings.exclude(status=Pairing.Status.DONE).count()
    if open_count:
        raise Conflict(
            ngettext(
                "%(round)s still has %(count)d pairing without a result",
                "%(round)s still has %(count)d pairings without a result",
                open_count,
            )
            % {"round": last.title, "count": open_count}
        )


def _draw(tournament: Tournament, entrants: list[Entrant]) -> None:
    order = list(entrants)
    random.Random(tournament.seed).shuffle(order)
    for number, entrant in enumerate(order, start=1):
        entrant.draw = number
    Entrant.objects.bulk_update(order, ["draw"])
    entrants[:] = order


def _next_qualifying_round(tournament: Tournament) -> Round:
    if tournament.qualifying == Tournament.Qualifying.NONE:
        raise Conflict(_("this tournament has no qualifying rounds: start the playoff"))
    first = tournament.stage == Tournament.Stage.ENTRY
    if first:
        field = list(tournament.entrants.filter(checked_in=True, withdrawn=False))
        need = tournament.table_size
        if len(field) < need:
            raise Conflict(
                _("check in at least %(need)d entrants before the first round") % {"need": need}
            )
        _draw(tournament, field)
        tournament.stage = Tournament.Stage.QUALIFYING
        tournament.save(update_fields=["stage", "updated_at"])
    elif qualifying_rounds_left(tournament) == 0:
        if tournament.playoff:
            raise Conflict(_("the qualifying rounds are over: start the playoff"))
        raise Conflict(_("every round has been played"))
    if tournament.table_size > 2:
        pairs = _table_seats(tournament, first)
    elif tournament.qualifying == Tournament.Qualifying.SWISS:
        pairs = _swiss_pairs(tournament, first)
    else:
        pairs = _round_robin_pairs(tournament)
    round_ = _new_round(tournament, Round.Stage.QUALIFYING)
    for seats in pairs:
        _new_pairing(round_, seats)
    _number_tables(round_)
    advance(tournament)
    return round_


def _ranked_active(tournament: Tournament, first: bool) -> list[int]:
    """The entrants still playing, best first (by entry for the first round's draw)."""
    active = set(
        tournament.entrants.filter(checked_in=True, withdrawn=False).values_list("pk", flat=True)
    )
    need = tournament.table_size
    if len(active) < need:
        raise Conflict(_("fewer than %(need)d entrants are still playing") % {"need": need})
    if first:
        return sorted(active)
    recompute(tournament)
    return [
        eid
        for eid in Standing.objects.filter(tournament=tournament)
        .order_by("position")
        .values_list("entrant_id", flat=True)
        if eid in active
    ]


def _table_seats(tournament: Tournament, first: bool) -> list[tuple]:
    """Tables of the event's size by standings; the spare entrants take byes in turn."""
    ranked = _ranked_active(tournament, first)
    met: dict[frozenset, int] = {}
    byes_had: dict[int, int] = {}
    earlier = Pairing.objects.filter(round__tournament=tournament).values_list(*SEATS)
    for row in earlier:
        seated = [e for e in row if e is not None]
        if len(seated) == 1:
            byes_had[seated[0]] = byes_had.get(seated[0], 0) + 1
        for i, x in enumerate(seated):
            for y in seated[i + 1 :]:
                met[frozenset((x, y))] = met.get(frozenset((x, y)), 0) + 1
    try:
        seated, byes = tables.tables_round(
            ranked, tournament.table_size, met=met, byes_had=byes_had, first=first,
            seed=f"{tournament.seed}-1",
        )  # fmt: skip
    except rules.NoPairing as error:
        raise Conflict(engine_text(error.template, error.params)) from None
    return [*seated, *((e,) for e in byes)]


def _swiss_pairs(tournament: Tournament, first: bool) -> list[tuple[int, int | None]]:
    ranked = _ranked_active(tournament, first)
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
        reason = engine_text(error.template, error.params)
        raise Conflict(
            _("no round without a repeat meeting is possible (%(reason)s)") % {"reason": reason}
        ) from None
    return [*pairs, *([(bye,)] if bye is not None else [])]


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
            pairs.append((a, b) if b is not None else (a,))
    return pairs


def _next_playoff_round(tournament: Tournament) -> Round:
    last = tournament.round_set.order_by("-number").first()
    previous = list(last.pairings.order_by("slot"))
    if len(previous) == 1:
        raise Conflict(_("the final is decided: the tournament is over"))
    seed_of = {}
    for p in previous:
        seed_of[p.a_id] = p.seed_a
        if p.b_id:
            seed_of[p.b_id] = p.seed_b
    round_ = _new_round(tournament, Round.Stage.PLAYOFF)
    for slot in range(len(previous) // 2):
        top, bottom = previous[2 * slot], previous[2 * slot + 1]
        _new_pairing(round_, (top.winner_id, bottom.winner_id), slot=slot, seeds=seed_of,
                     series=tournament.series_length)  # fmt: skip
    _number_tables(round_)
    notify(tournament)
    return round_


def _new_round(tournament: Tournament, stage: str) -> Round:
    number = tournament.round_set.count() + 1
    return Round.objects.create(tournament=tournament, number=number, stage=stage)


def _new_pairing(round_, seats, *, slot=None, seeds=None, series=1) -> Pairing:
    """A table with `seats` (entrant ids, seat a first; one alone or with None: a bye)."""
    seeds = seeds or {}
    seats = [e for e in seats if e is not None]
    a, b = seats[0], seats[1] if len(seats) > 1 else None
    pairing = Pairing.objects.create(
        round=round_,
        **{f"{letter}_id": entrant for letter, entrant in zip(SEATS, seats, strict=False)},
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
    """No game of the pairing has a result, an entry, or a move in its online match."""
    for game in pairing.games.select_related("match"):
        if game.status != Game.Status.OPEN or game.entries.exists():
            return False
        if game.match_id is not None and (game.match.moves_played or game.match.is_over):
            return False
    return True
