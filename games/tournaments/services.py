"""The tournament write path: the event, its entrants, its rounds and its playoff.

Keyword-only functions, one transaction each, the tournament's row locked first; after the
commit the tournament's pages are told ("tournament.changed"). Results live in results.py and
are re-exported here, so callers import every service from this module.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from games.engine import BadOptions, UnknownVariant, get_variant
from games.texts import engine_text
from games.tournaments import pairing as rules
from games.tournaments.common import (
    Conflict,
    Forbidden,
    NotFound,
    ServiceError,
    can_direct,
    entrant_in,
    locked_tournament,
    notify,
    recompute,
    require_director,
    series_resolve,
    standings_recompute,
)
from games.tournaments.models import Entrant, Round, Tournament
from games.tournaments.results import (
    dispute_resolve,
    game_forfeit,
    result_confirm,
    result_correct,
    result_enter,
)
from games.tournaments.rounds import pairing_swap, playoffs_start, round_generate
from games.tournaments.scoring import BadPlace, Points, default_places, parse_places
from games.tournaments.texts import local_points, setting_name

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

MAX_ROUNDS = 40
MATCH_LENGTH_OPTION = "games"  # a match of several games: a tournament uses its series instead


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
    """A new event taking entries, for any registered game.

    `players` is the number in each game; the variant's sides make the table: two sides of
    one (singles), two of two (doubles), or three or four each for themselves. `options` are
    the game's own (its options_schema). `points` may override win, skunk, double_skunk, loss,
    skunk_line and double_skunk_line (race games; the lines default to the game's own),
    places (ranked games: "3,2,1,0"), bye_points and bye_spread.
    """
    require_director(director)
    name = (name or "").strip()
    if not name:
        raise ServiceError(_("give the tournament a name"), field="name")
    if not isinstance(date, dt.date):
        raise ServiceError(_("give the date of the tournament"), field="date")
    try:
        engine = get_variant(variant)
    except UnknownVariant:
        raise ServiceError(
            _("there is no game called %(key)s") % {"key": repr(variant)}, field="variant"
        ) from None
    scoring = engine.tournament
    if not _whole(players) or players not in engine.player_counts:
        counts = ", ".join(str(n) for n in engine.player_counts)
        raise ServiceError(
            _("%(game)s is played by %(counts)s")
            % {"game": engine_text(engine.name), "counts": counts},
            field="players",
        )
    sides = engine.teams(players)
    if len({len(side) for side in sides}) != 1 or len(sides[0]) > 2:
        raise ServiceError(
            _("%(game)s for %(players)d cannot be seated as entrants of one or two")
            % {"game": engine_text(engine.name), "players": players},
            field="players",
        )
    if scoring.kind == "race" and len(sides) != 2:
        raise ServiceError(
            _("a race to a target is a game of two sides: %(game)s for %(players)d has %(sides)d")
            % {"game": engine_text(engine.name), "players": players, "sides": len(sides)},
            field="players",
        )
    try:
        cleaned = engine.clean_options(players, options or {})
    except BadOptions as error:
        raise ServiceError(_option_error(engine, error), field=f"options.{error.option}") from None
    if cleaned.get(MATCH_LENGTH_OPTION, 1) != 1:
        raise ServiceError(
            _("each tournament game is a single game; use the playoff series for more"),
            field=f"options.{MATCH_LENGTH_OPTION}",
        )
    if scoring.kind == "race" and "target" not in cleaned:
        raise ServiceError(
            _("%(game)s has no target to race to") % {"game": engine_text(engine.name)},
            field="variant",
        )
    if venue not in Tournament.Venue.values:
        raise ServiceError(_("games are played over the table, online or both"), field="venue")
    if qualifying not in Tournament.Qualifying.values:
        raise ServiceError(_("choose how the qualifying is played"), field="qualifying")
    if not _whole(rounds) or not 1 <= rounds <= MAX_ROUNDS:
        raise ServiceError(
            _("a tournament has 1 to %(most)d rounds") % {"most": MAX_ROUNDS}, field="rounds"
        )
    if len(sides) > 2 and playoff:
        raise ServiceError(
            _(
                "a playoff bracket is for games of two sides; tables of more are ranked by the "
                "qualifying rounds"
            ),
            field="playoff",
        )
    if len(sides) > 2 and qualifying != Tournament.Qualifying.SWISS:
        raise ServiceError(
            _(
                "tables of more than two are drawn by standings: choose rounds against new "
                "opponents"
            ),
            field="qualifying",
        )
    if qualifying == Tournament.Qualifying.NONE and not playoff:
        raise ServiceError(
            _("without qualifying rounds the event needs a playoff"), field="playoff"
        )
    if qualifiers is not None and (not _whole(qualifiers) or qualifiers < 2):
        raise ServiceError(_("at least two entrants must reach the playoff"), field="qualifiers")
    if series_length not in (1, 3, 5):
        raise ServiceError(_("a playoff series is 1, 3 or 5 games"), field="series_length")
    order = list(tiebreaks or rules.TIEBREAKS)
    if any(key not in rules.TIEBREAKS for key in order) or len(set(order)) != len(order):
        known = ", ".join(rules.TIEBREAKS)
        raise ServiceError(
            _("tie-breaks are an order of: %(known)s") % {"known": known}, field="tiebreaks"
        )
    if not _whole(forfeit_minutes) or not 0 <= forfeit_minutes <= 240:
        raise ServiceError(_("the no-show wait is 0 to 240 minutes"), field="forfeit_minutes")
    places = default_places(len(sides), scoring)
    given = dict(points or {})
    if "places" in given:
        places = _places(given.pop("places"), len(sides))
    values: dict[str, Any] = {
        "win": 2, "skunk": 3, "double_skunk": 3, "loss": 0,
        "skunk_line": None, "double_skunk_line": None,
        "bye_points": 2 if scoring.kind == "race" else _mean(places), "bye_spread": 0,
    }  # fmt: skip
    for key, value in given.items():
        if key not in values:
            raise ServiceError(
                _("there is no scoring setting called %(key)s") % {"key": repr(key)}, field="points"
            )
        if value is None and key.endswith("skunk_line"):
            continue
        if not _whole(value) or not -500 <= value <= 500:
            raise ServiceError(
                _("%(setting)s must be a whole number") % {"setting": setting_name(key)}, field=key
            )
        values[key] = value
    lines = Points(target=cleaned.get("target", 0), skunk_line=values["skunk_line"],
                   double_skunk_line=values["double_skunk_line"]).lines  # fmt: skip
    if (values["skunk_line"] is not None and values["skunk_line"] < 0) or (
        None not in lines and lines[1] > lines[0]
    ):
        raise ServiceError(
            _("the double skunk line must be at or below the skunk line"), field="skunk_line"
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
            place_points=",".join(str(p) for p in places) if scoring.kind == "ranked" else "",
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
            raise Conflict(_("the first round is out: add a late entrant instead"))
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
            raise Forbidden(_("only the director or the entrant can check in"))
        if tournament.stage != Tournament.Stage.ENTRY:
            raise Conflict(_("check-in closed when the first round was drawn"))
        if entrant.withdrawn:
            raise Conflict(_("%(name)s has withdrawn") % {"name": entrant.name})
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
                raise Conflict(_("the event has not started: add the entrant in the usual way"))
            raise Conflict(_("late entries close when the qualifying rounds end"))
        if tournament.qualifying != Tournament.Qualifying.SWISS:
            raise Conflict(_("a round robin's schedule is fixed once it starts"))
        for label, value in (("wins", wins), ("spread", spread), ("games", games)):
            if not _whole(value):
                raise ServiceError(
                    _("%(setting)s must be a whole number") % {"setting": setting_name(label)},
                    field=label,
                )
        if isinstance(game_points, Decimal) and game_points == game_points.to_integral_value():
            game_points = int(game_points)
        halves = tournament.is_ranked and isinstance(game_points, Decimal)
        if not _whole(game_points) and not (halves and game_points.is_finite()):
            raise ServiceError(_("game points must be a whole number"), field="game points")
        played = tournament.round_set.filter(stage=Round.Stage.QUALIFYING).count()
        if not 0 <= games <= played:
            raise ServiceError(
                _("games so far run from 0 to %(played)d") % {"played": played}, field="games"
            )
        if not 0 <= wins <= games:
            raise ServiceError(_("wins cannot be more than the games played"), field="wins")
        points = tournament.rules
        if tournament.is_ranked:
            low, high = games * min(points.places), games * max(points.places)
        else:
            best = max(points.win, points.skunk, points.double_skunk)
            low = wins * min(points.win, points.skunk) + (games - wins) * points.loss
            high = wins * best + (games - wins) * points.loss
        if not low <= game_points <= high:
            raise ServiceError(
                _("with %(wins)d wins in %(games)d games the game points are %(low)s to %(high)s")
                % {
                    "wins": wins,
                    "games": games,
                    "low": local_points(low),
                    "high": local_points(high),
                },
                field="game points",
            )
        if abs(spread) > games * max(points.target, 500):
            raise ServiceError(_("that spread is more than the games could give"), field="spread")
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
            raise Forbidden(_("only the director or the entrant can withdraw an entry"))
        if entrant.withdrawn:
            raise Conflict(_("%(name)s has already withdrawn") % {"name": entrant.name})
        if tournament.stage == Tournament.Stage.FINISHED:
            raise Conflict(_("the tournament is over"))
        entrant.withdrawn = True
        entrant.save(update_fields=["withdrawn"])
        notify(tournament)
        return entrant


# -- internals ----------------------------------------------------------------------------


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _tournament_of_entrant(entrant_id) -> Tournament:
    try:
        tournament_id = Entrant.objects.values_list("tournament_id", flat=True).get(pk=entrant_id)
    except (Entrant.DoesNotExist, ValueError, TypeError):
        raise NotFound(_("there is no such entrant")) from None
    return locked_tournament(tournament_id)


def _new_entrant(tournament, user, guest_name, partner, partner_guest_name) -> Entrant:
    guest_name = (guest_name or "").strip()[:80]
    partner_guest_name = (partner_guest_name or "").strip()[:80]
    if (user is None) == (not guest_name):
        raise ServiceError(_("enter a member or a guest's name (one of the two)"), field="user")
    has_partner = partner is not None or bool(partner_guest_name)
    if tournament.is_doubles and not has_partner:
        raise ServiceError(_("a doubles team needs a partner"), field="partner")
    if not tournament.is_doubles and has_partner:
        raise ServiceError(_("this is a singles event: enter partners separately"), field="partner")
    if partner is not None and partner_guest_name:
        raise ServiceError(
            _("enter the partner as a member or as a guest, not both"), field="partner"
        )
    members = [u for u in (user, partner) if u is not None]
    if tournament.venue == Tournament.Venue.ONLINE and len(members) != (2 if has_partner else 1):
        raise ServiceError(_("online games need everyone to be a member of the site"), field="user")
    if len({u.pk for u in members}) != len(members):
        raise ServiceError(_("the two partners must be different people"), field="partner")
    for member in members:
        if not member.is_active:
            raise ServiceError(
                _("%(name)s's account is closed") % {"name": member.name}, field="user"
            )
        taken = tournament.entrants.filter(models_user_q(member.pk)).exists()
        if taken:
            raise Conflict(_("%(name)s is already entered") % {"name": member.name})
    return Entrant(
        tournament=tournament,
        user=user,
        guest_name="" if user is not None else guest_name,
        partner=partner,
        partner_guest_name="" if partner is not None else partner_guest_name,
    )


def models_user_q(user_id) -> Q:
    return Q(user_id=user_id) | Q(partner_id=user_id)


def _places(text, table_size: int) -> tuple:
    """The director's game points by place: one figure per seat, best first, not rising."""
    try:
        places = parse_places(text if isinstance(text, str) else ",".join(map(str, text)))
    except (ValueError, TypeError) as error:
        raise ServiceError(_places_error(error), field="places") from None
    if len(places) != table_size:
        raise ServiceError(
            _("give game points for each of the %(size)d places at a table") % {"size": table_size},
            field="places",
        )
    if any(later > earlier for earlier, later in zip(places, places[1:], strict=False)):
        raise ServiceError(_("a better place cannot earn fewer game points"), field="places")
    if any(abs(p) > 500 for p in places):
        raise ServiceError(_("game points by place run from -500 to 500"), field="places")
    return places


def _option_error(engine, error: BadOptions) -> str:
    """The engine's complaint about an option, the option named by its label."""
    spec = engine.options_schema.get(error.option) or {}
    label = engine_text(spec["label"]) if spec.get("label") else error.option
    return _("%(option)s: %(reason)s") % {"option": label, "reason": engine_text(error.reason)}


def _places_error(error: Exception) -> str:
    if isinstance(error, BadPlace):
        return _("%(figure)s is not a number of game points") % {"figure": repr(error.figure)}
    return _("write the game points by place as numbers separated by commas")


def _mean(places: tuple) -> Decimal:
    """A bye at a ranked event: the average of the places' game points."""
    value = Fraction(sum(Fraction(str(p)) for p in places), len(places))
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"))
