"""The one write path for matches: create, join, start, play, resign, abort, claim, connect.

Every function here is keyword-only and runs in one transaction. Functions that change a match
lock its row first (`select_for_update`; on SQLite the IMMEDIATE transaction does the locking),
check, ask the engine, write, and only after the commit tell the channel layer (group
`match-<id>`: `{"type": "match.changed", "seq": N}`, never any cards) and the computer player.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Case, F, Value, When
from django.db.models.functions import Greatest
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from accounts.models import User
from games import realtime, signals
from games.engine import computer_move
from games.engine.core import default_level as computer_default_level
from games.engine.core import levels as computer_levels
from games.engine.core import places, preview, table_view
from games.engine.core.variant import (
    BadOptions,
    IllegalMove,
    UnknownVariant,
    fill_names,
    get_variant,
)
from games.errors import Conflict, Forbidden, Illegal, NotFound, ServiceError, Stale
from games.models import Match, Move, Seat, group_for
from games.queries import CompiledRead, insert_row, update_fields
from games.texts import engine_text

LOBBY_GROUP = "lobby"
MAX_MOVE_BYTES = 2000
MAX_INVITED = 10
QUICK_CANDIDATES = 20  # open matches a quick game looks at before opening its own
_SEATS_CACHE = Seat._meta.get_field("match").remote_field.cache_name  # match.seats, prefetched


@dataclass(frozen=True)
class Played:
    match: Match
    seat: int
    events: list[dict[str, Any]]


# -- creating and joining ---------------------------------------------------------------------


def match_create(
    *,
    creator: User,
    variant: str,
    players: int,
    options: Mapping[str, Any] | None = None,
    computer_seats: Iterable[int] = (),
    invited: Iterable[User] = (),
    invite_only: bool = False,
    computer_level: str = "",
    rated: bool = True,
) -> Match:
    """A new match with the creator in the first seat the computer does not take.

    It starts at once when the computer fills every other seat. `computer_level` is one of the
    game's computer levels (blank: the game's default).
    """
    engine, cleaned = _checked_game(variant, players, options)
    if computer_level and computer_level not in computer_levels(engine):
        known = ", ".join(computer_levels(engine))
        raise ServiceError(
            _("the computer plays at %(levels)s") % {"levels": known}, field="computer_level"
        )
    computer_seats = list(computer_seats)
    if any(isinstance(s, bool) or not isinstance(s, int) for s in computer_seats):
        raise ServiceError(_("computer seats are seat numbers"), field="computer_seats")
    computers = sorted(set(computer_seats))
    if any(not 0 <= s < players for s in computers):
        raise ServiceError(
            _("seats run from 0 to %(last)d") % {"last": players - 1}, field="computer_seats"
        )
    if len(computers) >= players:
        raise ServiceError(_("leave at least one seat for a member"), field="computer_seats")
    invited = [u for u in dict.fromkeys(invited) if u != creator]
    if len(invited) > MAX_INVITED:
        raise ServiceError(
            _("invite at most %(count)d members") % {"count": MAX_INVITED}, field="invited"
        )
    if invite_only and not invited and len(computers) < players - 1:
        raise ServiceError(_("an invitation-only match needs someone invited"), field="invited")

    team_of = _teams(engine, players)
    creator_seat = next(s for s in range(players) if s not in computers)
    now = timezone.now()
    with transaction.atomic():
        match = _new_match(engine, players, cleaned, creator=creator, invite_only=invite_only)
        if not rated or computers:
            match.rated = False
            match.save(update_fields=["rated"])
        Seat.objects.bulk_create(
            Seat(
                match=match,
                index=index,
                team=team_of.get(index, index),
                is_computer=index in computers,
                level=computer_level if index in computers else "",
                user=creator if index == creator_seat else None,
                joined_at=now if index == creator_seat or index in computers else None,
            )
            for index in range(players)
        )
        if invited:
            match.invited.set(invited)
        if len(computers) == players - 1:
            _start(match)
        else:
            match.seq = 1
            match.save(update_fields=["seq", "updated_at"])
        _after_commit(match, lobby=True)
    return match


def match_create_seated(
    *,
    creator: User,
    players: list[User],
    variant: str,
    options: Mapping[str, Any] | None = None,
) -> Match:
    """A match with the given members already in the given seats (seat i: players[i]).

    It starts at once. Tournaments use it to set up a pairing's game online.
    """
    engine, cleaned = _checked_game(variant, len(players), options)
    if any(p is None for p in players) or len({p.pk for p in players}) != len(players):
        raise ServiceError(_("every seat needs a different member"), field="players")
    team_of = _teams(engine, len(players))
    now = timezone.now()
    with transaction.atomic():
        match = _new_match(engine, len(players), cleaned, creator=creator, invite_only=True)
        Seat.objects.bulk_create(
            Seat(match=match, index=i, team=team_of.get(i, i), user=member, joined_at=now)
            for i, member in enumerate(players)
        )
        _start(match)
        _after_commit(match, lobby=True)
    return match


def match_join(*, match_id: int, user: User) -> Match:
    """Take the first open seat; the match starts when the last seat is taken."""
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.WAITING:
            raise Conflict(_("this match is not waiting for players"))
        seats = list(match.seats.all())
        if any(seat.user_id == user.pk for seat in seats):
            raise Conflict(_("you already have a seat in this match"))
        if match.invite_only and not match.invited.filter(pk=user.pk).exists():
            raise Forbidden(_("this match is by invitation only"))
        open_seats = [seat for seat in seats if seat.is_open]
        if not open_seats:
            raise Conflict(_("every seat is taken"))
        seat = open_seats[0]
        seat.user = user
        seat.joined_at = timezone.now()
        seat.save(update_fields=["user", "joined_at"])
        if len(open_seats) == 1:
            _start(match)
        else:
            _bump(match)
        _after_commit(match, lobby=True)
    return match


def match_leave(*, match_id: int, user: User) -> Match:
    """Give up a seat in a match that has not started; the creator cancels instead."""
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.WAITING:
            raise Conflict(_("the match has started: resign instead"))
        seat = _seat_of(match, user)
        if match.created_by_id == user.pk:
            raise Conflict(_("you created this match: cancel it instead"))
        seat.user = None
        seat.joined_at = None
        seat.save(update_fields=["user", "joined_at"])
        _bump(match)
        _after_commit(match, lobby=True)
    return match


def match_cancel(*, match_id: int, user: User) -> Match:
    """The creator withdraws a match that is still waiting for players."""
    with transaction.atomic():
        match = _locked(match_id)
        if match.created_by_id != user.pk:
            raise Forbidden(_("only the member who created this match can cancel it"))
        if match.status != Match.Status.WAITING:
            raise Conflict(_("only a match that is still waiting can be cancelled"))
        _end(match, Match.Ending.CANCELLED, status=Match.Status.ABORTED)
        _after_commit(match, lobby=True)
    return match


def match_quick(*, user: User, variant: str, players: int = 2) -> tuple[Match, bool]:
    """One click to a game with people: join the oldest open match of `variant` for `players`
    with the game's standard options (not invitation-only, not the member's own), or open a new
    one like it that anyone may join. Returns the match and whether an existing one was joined.
    """
    _engine, standard = _checked_game(variant, players, {})
    waiting = (
        Match.objects.filter(
            status=Match.Status.WAITING, variant=variant, players=players, invite_only=False
        )
        .exclude(created_by=user)
        .exclude(seats__user=user)
        .order_by("created_at", "pk")
    )
    for candidate in waiting[:QUICK_CANDIDATES]:
        if candidate.options != standard:
            continue
        try:
            return match_join(match_id=candidate.pk, user=user), True
        except Conflict:
            continue  # taken meanwhile: try the next one
    return match_create(creator=user, variant=variant, players=players), False


def match_rematch(*, match_id: int, user: User) -> Match:
    """A new match like a finished one: the same game, options and seats (computer seats at
    the same levels), the offering member in their own seat, the other members invited.

    It starts at once when the computer takes every other seat. The finished match records the
    offer and its pages are told, so the other side sees it on its end panel. Once offered,
    the same call accepts it: another member of the finished match takes their own seat (the
    rematch starts with the last one), and the offering member gets the same rematch back (two
    clicks make one match). Locks the finished match, then the rematch.
    """
    with transaction.atomic():
        match = _locked(match_id)
        seat = _seat_of(match, user)
        if match.rematch_id is not None:
            return _rematch_accept(match.rematch_id, user, seat.index)
        if match.status != Match.Status.FINISHED:
            raise Conflict(_("a rematch can be offered once the match is finished"))
        engine, options = _checked_game(match.variant, match.players, match.options)
        old_seats = list(match.seats.select_related("user"))
        members = [s.user for s in old_seats if s.user_id is not None and s.index != seat.index]
        computers = [s for s in old_seats if s.is_computer and s.user_id is None]
        now = timezone.now()
        rematch = _new_match(engine, match.players, options, creator=user, invite_only=True)
        rematch.rated = match.rated
        rematch.save(update_fields=["rated"])
        Seat.objects.bulk_create(
            Seat(
                match=rematch,
                index=old.index,
                team=old.team,
                is_computer=old in computers,
                level=old.level if old in computers else "",
                user=user if old.index == seat.index else None,
                joined_at=now if old.index == seat.index or old in computers else None,
            )
            for old in old_seats
        )
        if members:
            rematch.invited.set(members)
        if len(computers) == match.players - 1:
            _start(rematch)
        else:
            rematch.seq = 1
            rematch.save(update_fields=["seq", "updated_at"])
        match.rematch = rematch
        match.seq += 1
        match.save(update_fields=["rematch", "seq", "updated_at"])
        _after_commit(rematch, lobby=True)
        _after_commit(match)
    return rematch


def _rematch_accept(rematch_id: int, user: User, index: int) -> Match:
    """The member takes their own seat of the rematch (already there: nothing changes); the
    rematch starts when it was the last open seat."""
    rematch = _locked(rematch_id)
    seats = list(rematch.seats.all())
    if any(s.user_id == user.pk for s in seats) or rematch.status != Match.Status.WAITING:
        return rematch
    seat = next((s for s in seats if s.index == index and s.is_open), None)
    if seat is None:
        raise Conflict(_("your seat in the rematch is taken"))
    seat.user = user
    seat.joined_at = timezone.now()
    seat.save(update_fields=["user", "joined_at"])
    if sum(1 for s in seats if s.is_open) == 0:
        _start(rematch)
    else:
        _bump(rematch)
    _after_commit(rematch, lobby=True)
    return rematch


def last_variant(*, user: User, among: Iterable[str]) -> str | None:
    """The game of the member's latest match among `among` (one small query, compiled once for
    each set of games: the home page and the lobby ask it on every visit), or None."""
    games = tuple(sorted(among))
    if not games:
        return None
    read = _LAST_VARIANT.get(games)
    if read is None:
        read = _LAST_VARIANT.setdefault(games, CompiledRead(partial(_latest_match_of, games)))
    latest = read(user.pk)
    return latest[0].variant if latest else None


def _latest_match_of(games: tuple[str, ...], user_id: int):
    return (
        Match.objects.filter(seats__user_id=user_id, variant__in=games)
        .order_by("-created_at", "-pk")
        .only("variant")[:1]
    )


_LAST_VARIANT: dict[tuple[str, ...], CompiledRead] = {}


# -- playing ----------------------------------------------------------------------------------


def match_play(*, match_id: int, user: User, seq: int, move: Any) -> Played:
    """Apply `user`'s move made on the board at `seq`. `move` may be a function that reads the
    move for the match's game (its key given), called once the match is found.

    Raises NotFound, Forbidden (no seat, not your turn), Conflict (not in play), Stale (the
    board has moved on: the same move submitted twice applies once) or Illegal (the rule).
    """
    with transaction.atomic():
        read_at = time.monotonic()
        match = _locked(match_id, seats=True)
        seat = _seat_of(match, user)
        if seat.is_computer:
            raise Forbidden(_("the computer plays this seat now"))
        if callable(move):
            move = move(match.variant)
        played = _apply(match, seat.index, seq, move, by_computer=False, read_at=read_at)
    return played


def match_play_computer(*, match_id: int, seq: int) -> Played | None:
    """Let the computer make one move, if one of its seats is to move on the board at `seq`.

    The computer thinks without holding the match's row lock: it reads the board, chooses,
    then applies its move in a short transaction that checks the board is still at `seq` (a
    member's move made meanwhile wins, and the computer's is dropped). Returns None when there
    is nothing to do (someone else moved first, the match ended).
    """
    match = Match.objects.filter(pk=match_id).prefetch_related("seats").first()
    if match is None or match.status != Match.Status.ACTIVE or match.seq != seq:
        return None
    seats = {s.index: s for s in match.seats.all() if s.is_computer and s.index in match.to_move}
    if not seats:
        return None
    seat = min(seats)
    engine = get_variant(match.variant)
    move = computer_move(engine, engine.load(match.snapshot), seat, seats[seat].level or None)
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.ACTIVE or match.seq != seq:
            return None  # the board moved on while the computer was thinking
        if not match.seats.filter(index=seat, is_computer=True).exists():
            return None  # a seat changed hands meanwhile
        return _apply(match, seat, seq, move, by_computer=True)


def match_preview(*, match_id: int, user: User, move: Any) -> dict[str, Any]:
    """What `user`'s move would do now, changing nothing (no lock, no write): the game's
    preview for that seat, or {"legal": False, "reason": ...}."""
    match = (
        Match.objects.filter(pk=match_id).prefetch_related("seats").first()
        if valid_id(match_id)
        else None
    )
    if match is None:
        raise NotFound(_("there is no such match"))
    seat = seat_for(match, user)
    if seat is None:
        raise Forbidden(_("you have no seat in this match"))
    if match.status != Match.Status.ACTIVE:
        raise Conflict(_("this match is not in play"))
    if not isinstance(move, dict) or len(json.dumps(move, default=str)) > MAX_MOVE_BYTES:
        raise ServiceError(_('a move is a small JSON object, such as {"type": "go"}'), field="move")
    engine = get_variant(match.variant)
    answer = preview(engine, engine.load(match.snapshot), seat.index, move)
    if "reason" in answer:  # in the reader's language
        template = answer.pop("reason_template", answer["reason"])
        answer["reason"] = engine_text(template, answer.pop("reason_params", None))
    return answer


def match_resign(*, match_id: int, user: User) -> Match:
    """The user's side gives up; every other side wins."""
    with transaction.atomic():
        match = _locked(match_id)
        seat = _seat_of(match, user)
        if match.status != Match.Status.ACTIVE:
            raise Conflict(_("only a match in play can be resigned"))
        losers = _side_seats(match, seat.index)
        _finish_early(match, losers, Match.Ending.RESIGNED, f"{{p{seat.index}}} resigned")
    return match


def match_abort(*, match_id: int, user: User) -> Match:
    """Call off a match nobody has moved in yet: it ends without a result."""
    with transaction.atomic():
        match = _locked(match_id)
        _seat_of(match, user)
        if match.status != Match.Status.ACTIVE:
            raise Conflict(_("only a match in play can be aborted"))
        if match.moves_played:
            raise Conflict(_("moves have been made: resign instead of aborting"))
        _end(match, Match.Ending.ABORTED, status=Match.Status.ABORTED)
        _after_commit(match, lobby=True)
    return match


def match_call_off(*, match_id: int, only_unplayed: bool = False) -> Match:
    """End a match without a result, for code acting for the club (the tournament director's
    services: a pairing changed, or its game was decided by forfeit), so no seat is needed.

    With `only_unplayed`, a match in which moves have been made is refused (Conflict).
    """
    with transaction.atomic():
        match = _locked(match_id)
        if match.is_over:
            return match
        if only_unplayed and match.moves_played:
            raise Conflict(_("moves have been made in this match, so it cannot be called off"))
        _end(match, Match.Ending.ABORTED, status=Match.Status.ABORTED)
        _after_commit(match, lobby=True)
    return match


def match_claim(*, match_id: int, user: User) -> Match:
    """Act on a seat whose member has been away longer than MATCH_AWAY_SECONDS.

    With two sides the claimant's side wins; with more, the computer takes the absent seat over
    so the others can finish, and the match is marked so.
    """
    with transaction.atomic():
        match = _locked(match_id)
        claimant = _seat_of(match, user)
        if match.status != Match.Status.ACTIVE:
            raise Conflict(_("only a match in play can be claimed"))
        absent = [s for s in absent_seats(match) if s.team != claimant.team]
        if not absent:
            raise Conflict(_("no opponent has been away long enough to claim"))
        sides = {seat.team for seat in match.seats.all()}
        if len(sides) == 2:
            losers = _side_seats(match, absent[0].index)
            reason = f"{{p{absent[0].index}}} left the table"
            _finish_early(match, losers, Match.Ending.ABANDONED, reason)
            return match
        for seat in absent:
            seat.is_computer = True
            seat.took_over = True
            seat.save(update_fields=["is_computer", "took_over"])
        _bump(match)
        _after_commit(match)
    return match


def absent_seats(match: Match, *, now=None) -> list[Seat]:
    """Member seats whose pages have all been gone for longer than the allowed time."""
    now = now or timezone.now()
    limit = timedelta(seconds=settings.MATCH_AWAY_SECONDS)
    return [
        seat
        for seat in match.seats.all()
        if not seat.is_computer
        and seat.user_id is not None
        and seat.connections == 0
        and seat.away_since is not None
        and now - seat.away_since >= limit
    ]


def seat_connected(*, match_id: int, user: User) -> None:
    """A page of the member's opened on the match (called by the socket consumer)."""
    _count_connection(match_id, user, +1)


def seat_disconnected(*, match_id: int, user: User) -> None:
    _count_connection(match_id, user, -1)


# -- reading helpers used by views, API and consumers -----------------------------------------


def seats_of(match: Match) -> Sequence[Seat]:
    """The match's seats in order: the list read with it (read_match, or a prefetch) when there
    is one, else read now. Readers look at a board's seats a dozen times a drawing, and each
    `match.seats.all()` makes a related manager first (about 1.6 microseconds, against 0.04)."""
    kept = getattr(match, "_prefetched_objects_cache", {}).get(_SEATS_CACHE)
    if kept is not None and kept._result_cache is not None:
        return kept._result_cache
    return list(match.seats.all())


def seat_for(match: Match, user: User | None) -> Seat | None:
    """The user's seat in the match, or None (a spectator). Uses prefetched seats if present."""
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in seats_of(match) if s.user_id == user.pk and not s.took_over), None)


def engine_view(match: Match, seat: int | None, *, table: bool = False) -> dict[str, Any] | None:
    """The engine's view of the current state for `seat` (None: spectator); table=True: as the
    table page draws it (legal moves perhaps only one of each kind, engine.table_view)."""
    if match.snapshot is None:
        return None
    engine = get_variant(match.variant)
    state = _state(match, engine)
    return table_view(engine, state, seat) if table else engine.view(state, seat)


def _state(match: Match, engine: Any) -> Any:
    """The engine's state of `match.snapshot`, loaded once per snapshot (states are immutable,
    so every view of one board, for each kind of viewer, shares it)."""
    loaded = match.__dict__.get("_loaded_state")
    if loaded is None or loaded[0] is not match.snapshot:
        loaded = (match.snapshot, engine.load(match.snapshot))
        match._loaded_state = loaded
    return loaded[1]


def variant_of(match_id: int) -> str:
    """The game a match is of (one small query); NotFound when there is no such match."""
    variant = (
        Match.objects.filter(pk=match_id).values_list("variant", flat=True).first()
        if valid_id(match_id)
        else None
    )
    if variant is None:
        raise NotFound(_("there is no such match"))
    return variant


def seat_names(match: Match) -> list[str]:
    """Each seat's name in the active language (a computer seat has a name of its own, "Max")."""
    return [seat_label(seat, variant=match.variant) for seat in seats_of(match)]


# The computer's names at the table, one per seat, so two computer seats are told apart.
COMPUTER_NAMES = (
    pgettext_lazy("a computer player's name", "Rosa"),
    pgettext_lazy("a computer player's name", "Max"),
    pgettext_lazy("a computer player's name", "Lola"),
    pgettext_lazy("a computer player's name", "Hugo"),
)


def seat_label(seat: Seat, *, variant: str | None = None) -> str:
    """`Seat.name` in the active language: the member's name, the computer's own name ("Max";
    `computer_tag` says what it is and how strong), or an open seat."""
    if seat.user_id is not None and not seat.took_over:
        return seat.user.name
    if seat.is_computer:
        if seat.user_id is not None:
            return _("Computer (for %(name)s)") % {"name": seat.user.name}
        return str(COMPUTER_NAMES[seat.index % len(COMPUTER_NAMES)])
    return _("Open seat")


def computer_tag(seat: Seat, *, variant: str | None = None) -> str:
    """What a computer seat is, beside its name: "computer · strong" (empty for a member)."""
    if not seat.is_computer:
        return ""
    engine = get_variant(variant or seat.match.variant)
    level = engine_text(seat.level or computer_default_level(engine))
    return _("computer · %(level)s") % {"level": level}


def replay(match: Match) -> list[tuple[Any, list[dict[str, Any]]]]:
    """Every state of the match from the seed, with the events each move produced.

    Raises ValueError when the log does not replay to the stored snapshot.
    """
    engine = get_variant(match.variant)
    state = engine.new_state(match.players, match.options, bytes.fromhex(match.seed))
    states = [(state, [])]
    for move in match.moves.order_by("seq"):
        state, events = engine.apply(state, move.seat, move.move)
        states.append((state, events))
    if match.snapshot is not None and engine.dump(state) != match.snapshot:
        raise ValueError("the move log does not replay to the stored state")
    return states


# -- internals --------------------------------------------------------------------------------


def _checked_game(variant: str, players: Any, options: Mapping[str, Any] | None):
    """The variant and its cleaned options, or a ServiceError naming the field at fault."""
    try:
        engine = get_variant(variant)
    except UnknownVariant as error:
        raise ServiceError(engine_text(error.template, error.params), field="variant") from None
    if isinstance(players, bool) or not isinstance(players, int):
        raise ServiceError(_("the number of players must be a whole number"), field="players")
    if players not in engine.player_counts:
        counts = ", ".join(str(n) for n in engine.player_counts)
        raise ServiceError(
            _("%(game)s is for %(counts)s players")
            % {"game": engine_text(engine.name), "counts": counts},
            field="players",
        )
    try:
        return engine, engine.clean_options(players, options or {})
    except BadOptions as error:
        raise ServiceError(
            _("%(option)s: %(reason)s")
            % {"option": error.option, "reason": engine_text(error.template, error.params)},
            field=f"options.{error.option}",
        ) from None


def _teams(engine, players: int) -> dict[int, int]:
    """Seat -> side number."""
    return {seat: t for t, seats in enumerate(engine.teams(players)) for seat in seats}


def _new_match(engine, players: int, options: dict, *, creator: User, invite_only: bool) -> Match:
    """The match row, with a fresh secret seed from `secrets` and its public hash."""
    seed = secrets.token_bytes(32)
    return Match.objects.create(
        variant=engine.key,
        players=players,
        options=options,
        invite_only=invite_only,
        created_by=creator,
        seed=seed.hex(),
        seed_sha256=hashlib.sha256(seed).hexdigest(),
    )


def _locked(match_id: int, *, seats: bool = False) -> Match:
    """The match, its row locked; with seats=True its seats, their members, its creator and its
    tournament game read with it (read_match), for a caller that will look at them more than
    once and hands the board on to the sockets."""
    if not valid_id(match_id):
        raise NotFound(_("there is no such match"))
    match = read_match(match_id, lock=True) if seats else None
    if match is not None:
        return match
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise NotFound(_("there is no such match")) from None


def read_match(match_id: int, *, lock: bool = False) -> Match | None:
    """The match with its seats and their members, its creator and its tournament game if any
    (which the Cribbage table asks for), in one query: its seats, each joined to the match. The
    seats are kept as `match.seats.all()` is when prefetched. With lock=True the match's row is
    locked (FOR UPDATE OF the match alone), for a caller inside a transaction. None when there
    is no such match, or it has no seats (a caller then reads it the usual way)."""
    if not valid_id(match_id):
        return None
    # Sorted here, not by the query: for a join this wide (86 columns) Django spends longer
    # compiling an ORDER BY than the database spends on the query. One query, not a prefetch
    # (Django's prefetching cost about 1 ms of CPU a move), and compiled once (games.queries).
    return _match_of((_LOCKED_READ if lock else _READ)(match_id))


def _match_of(seats: list[Seat]) -> Match | None:
    return seated(seats)[0] if seats else None


def match_rows(match_id: int) -> tuple[Any, Callable[[], Match | None]]:
    """read_match in two halves: the rows the database gives for the match now, and how to make
    the match of read_match from them. Equal rows make an equal match (every column of every row
    the same), so a caller that kept the match made from rows equal to these may hand it out
    again instead (presenters.load_match): making it is most of a read's cost."""
    db, compiled, rows = _READ.rows(match_id)
    if compiled is None:  # Django's objects already, never equal to an earlier read's rows
        return object(), lambda: _match_of(rows)
    return (db, rows), lambda: _match_of(_READ.objects(db, compiled, rows))


def seated(seats: Iterable[Seat]) -> list[Match]:
    """The matches of `seats` (each seat read joined to its match), each holding its seats in
    order as `match.seats.all()` does when prefetched; the matches in no particular order."""
    held: dict[int, list[Seat]] = {}
    for seat in sorted(seats, key=lambda seat: seat.index):
        group = held.setdefault(seat.match_id, [])
        if group:
            seat.match = group[0].match  # one match object, not one per row
        group.append(seat)
    matches = []
    for group in held.values():
        match = group[0].match
        kept = match.seats.all()
        kept._result_cache, kept._prefetch_done = group, True
        match._prefetched_objects_cache = {_SEATS_CACHE: kept}
        matches.append(match)
    return matches


# What a board shows of its members (the seats' and the creator's): who they are, not their
# password, mail, preferences or dates. The joined read leaves the rest of each member's row
# unread (about a third of a match read's cost on SQLite: fewer columns on each seat's row and
# fewer of them to convert). Reading one of the others from such a member costs a query of its
# own; tests/web/test_board_read.py holds the pages, sockets, API and lobby to none.
MEMBER_FIELDS = frozenset({"id", "username", "display_name", "is_active"})


def member_rest(path: str) -> list[str]:
    """The fields of the member at `path` (a select_related path) that a board leaves unread."""
    return [
        f"{path}__{field.name}"
        for field in User._meta.concrete_fields
        if field.name not in MEMBER_FIELDS
    ]


def _seats_joined(match_id: int):
    return (
        Seat.objects.filter(match_id=match_id)
        .select_related("user", "match__created_by", "match__tournament_game")
        .defer(*member_rest("user"), *member_rest("match__created_by"))
        .order_by()
    )


_READ = CompiledRead(_seats_joined, shared=("match",))
_LOCKED_READ = CompiledRead(
    lambda match_id: _seats_joined(match_id).select_for_update(of=("match",)), shared=("match",)
)


def valid_id(value: Any) -> bool:
    """A match id the database can hold (URLs accept any digits)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**63


def _seat_of(match: Match, user: User) -> Seat:
    """The member's own seat (from the seats already read, if they were)."""
    seats = [s for s in match.seats.all() if s.user_id == user.pk and not s.took_over]
    seat = min(seats, key=lambda s: s.index) if seats else None
    if seat is None:
        raise Forbidden(_("you have no seat in this match"))
    return seat


def _side_seats(match: Match, seat_index: int) -> set[int]:
    seats = list(match.seats.all())
    team = next(s.team for s in seats if s.index == seat_index)
    return {s.index for s in seats if s.team == team}


def _start(match: Match) -> None:
    engine = get_variant(match.variant)
    state = engine.new_state(match.players, match.options, bytes.fromhex(match.seed))
    now = timezone.now()
    match.status = Match.Status.ACTIVE
    match.started_at = now
    match.snapshot = engine.dump(state)
    match.to_move = sorted(engine.to_move(state))
    match.seq += 1
    match.save()
    # Members count as away until a page of theirs connects.
    match.seats.filter(is_computer=False, connections=0).update(away_since=now)


def _apply(
    match: Match,
    seat: int,
    seq: Any,
    move: Any,
    *,
    by_computer: bool,
    read_at: float | None = None,
) -> Played:
    """Apply a move to the locked `match`. With `read_at` (time.monotonic() before the match and
    its seats were read, members and all), the sockets of this process are handed the board as
    it now stands instead of reading it again (realtime.group_send)."""
    if match.status != Match.Status.ACTIVE:
        if match.status == Match.Status.WAITING:
            raise Conflict(_("the match has not started yet"))
        raise Conflict(_("this match is over"))
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise ServiceError(_("seq must be the whole number of the board you moved on"), field="seq")
    if not isinstance(move, dict) or len(json.dumps(move, default=str)) > MAX_MOVE_BYTES:
        raise ServiceError(_('a move is a small JSON object, such as {"type": "go"}'), field="move")
    if seq != match.seq and not _still_current(match, seat, seq):
        raise Stale(match.seq)
    if seat not in match.to_move:
        raise Forbidden(_("it is not your turn"))
    engine = get_variant(match.variant)
    if getattr(engine, "timed", lambda options: False)(match.options):  # the server's clock
        move = {**move, "at": int(timezone.now().timestamp())}
    state = engine.load(match.snapshot)
    before = list(match.to_move)
    try:
        state, events = engine.apply(state, seat, move)
    except IllegalMove as error:
        raise Illegal(engine_text(error.template, error.params), field="move") from None
    match.seq += 1
    match.moves_played += 1
    mover = [s for s in match.seats.all() if s.index == seat and s.connections == 0]
    if not by_computer and mover:
        # A member who moves is at the table, whether or not a page of theirs is open (API).
        mover[0].away_since = timezone.now()
        match.seats.filter(index=seat, connections=0).update(away_since=mover[0].away_since)
    insert_row(
        Move,
        match=match,
        seq=match.seq,
        seat=seat,
        move=move,
        by_computer=by_computer,
        to_move_before=before,
    )
    match.snapshot = engine.dump(state)
    match._loaded_state = (match.snapshot, state)
    match.to_move = sorted(engine.to_move(state))
    outcome = engine.outcome(state)
    if outcome is not None:
        match.outcome = outcome.to_json()
        _end(match, Match.Ending.PLAYED, status=Match.Status.FINISHED, bump=False)
    else:
        update_fields(match, ("seq", "moves_played", "snapshot", "to_move", "updated_at"))
    # The board as it stands is handed on while the match goes on (an ending also writes what
    # the listeners of match_ended add).
    board = (match, read_at) if read_at is not None and outcome is None else None
    _after_commit(match, lobby=outcome is not None, board=board)
    return Played(match=match, seat=seat, events=events)


def _still_current(match: Match, seat: int, seq: int) -> bool:
    """Whether a move made on the board at `seq` still means the same thing now.

    It does when everything since was other players' moves made while this seat, too, was
    choosing (a step where every seat acts at once, in any order). Any move of this seat's own
    since then (the same move sent twice), or a move made while this seat was not to act
    (a board it had not seen), makes the move stale.
    """
    if not 0 < seq < match.seq:
        return False
    since = list(match.moves.filter(seq__gt=seq).values_list("seat", "to_move_before"))
    if len(since) != match.seq - seq:
        return False  # something other than a move happened (a seat changed hands)
    return all(mover != seat and seat in could_act for mover, could_act in since)


def _finish_early(match: Match, losers: set[int], ending: str, reason: str) -> None:
    """End a match in play before the engine would: resignation or abandonment."""
    view = engine_view(match, None) or {}
    scores = {tuple(side["seats"]): side.get("score", 0) for side in view.get("sides", [])}
    teams: dict[int, list[int]] = {}
    for seat in match.seats.all():
        teams.setdefault(seat.team, []).append(seat.index)
    sides = [
        {"seats": seats, "score": scores.get(tuple(seats), 0), "skunk": 0, "skunk_name": "",
         "games_won": 0}
        for _, seats in sorted(teams.items())
    ]  # fmt: skip
    # Places: the sides that stay are placed by their scores; the side that gave up comes last.
    staying = [side for side in sides if not set(side["seats"]) <= losers]
    for side, place in zip(staying, places([side["score"] for side in staying]), strict=True):
        side["place"] = place
    for side in sides:
        side.setdefault("place", len(staying) + 1)
    winners = sorted(s.index for s in match.seats.all() if s.index not in losers)
    with translation.override("en"):  # the stored text is the engine's English
        names = seat_names(match)
    match.outcome = {
        "winners": winners,
        "sides": sides,
        "reason": reason,
        "text": fill_names(reason, names),
        "games": [],
    }
    _end(match, ending, status=Match.Status.FINISHED)
    _after_commit(match, lobby=True)


def _end(match: Match, ending: str, *, status: str, bump: bool = True) -> None:
    match.status = status
    match.ending = ending
    match.finished_at = timezone.now()
    match.to_move = []
    if bump:
        match.seq += 1
    match.save()
    signals.match_ended.send(sender=Match, match=match)


def _bump(match: Match) -> None:
    match.seq += 1
    match.save(update_fields=["seq", "updated_at"])


def _count_connection(match_id: int, user: User, delta: int) -> None:
    """Count a page of the member's in or out: one atomic UPDATE of the seat, no row lock on
    the match (a socket's connect must not wait behind moves), then tell the table."""
    if user is None or not user.is_authenticated or not valid_id(match_id):
        return
    now = timezone.now()
    left = Greatest(F("connections") + delta, Value(0))
    with transaction.atomic():
        seats = Seat.objects.filter(match_id=match_id, user_id=user.pk, took_over=False)
        changed = seats.update(
            connections=left,
            away_since=Case(When(connections__lte=-delta, then=Value(now)), default=None),
        )
        if changed:
            transaction.on_commit(
                lambda: realtime.group_send(group_for(match_id), {"type": "presence.changed"})
            )


def _after_commit(
    match: Match,
    *,
    lobby: bool = False,
    presence: bool = False,
    board: tuple[Match, float] | None = None,
) -> None:
    """After the commit: tell the match's sockets (handing them `board`, the match as read at
    a time.monotonic(), if given), maybe the lobby, and the listeners of `match_changed` (the
    computer player among them)."""
    match_id, seq = match.pk, match.seq
    computer_to_move = match.status == Match.Status.ACTIVE and any(
        s.is_computer and s.index in match.to_move for s in match.seats.all()
    )
    to_move = list(match.to_move)

    def notify() -> None:
        message = {"type": "presence.changed" if presence else "match.changed", "seq": seq}
        realtime.group_send(group_for(match_id), message, board=board)
        if lobby:
            realtime.group_send(LOBBY_GROUP, {"type": "lobby.changed"})
        if not presence:
            signals.match_changed.send(
                sender=Match,
                match_id=match_id,
                seq=seq,
                to_move=to_move,
                computer_to_move=computer_to_move,
            )

    transaction.on_commit(notify)
