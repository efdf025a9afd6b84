"""The read side of a match: what one member (or spectator) is shown, as template context.

Views, the socket consumer and the replay all build their context here, so the page, an htmx
answer and a socket push render the same fragments from the same data. Nothing a seat may not
see is put into the context: the engine's view for that seat is the only source of cards.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db.models import Prefetch, Q
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django.utils.text import get_text_list
from django.utils.translation import gettext, ngettext

from accounts.models import User
from cribsite.kept import Kept
from games import carried, fragments, realtime, services, table_lines
from games.engine.core import default_level
from games.engine.core.events import event_key
from games.engine.core.variant import fill_names, get_variant
from games.models import Match, Seat
from games.players import players_html
from games.queries import CompiledRead
from games.texts import engine_text, event_text, join_words, outcome_text, prompt_text
from games.variants import WebGame, web_game, web_games

# Fragments of the match page, each with a stable element id. The common ones are the same for
# every game (templates/games/match.html); the game's table template
# (templates/games/<key>/table.html) defines "board" and "hand".
COMMON_REGIONS = ("status", "players", "events", "actions", "error")
VARIANT_REGIONS = ("board", "hand")
REGIONS = (*COMMON_REGIONS, *VARIANT_REGIONS)
PRESENCE_REGIONS = ("players", "actions")  # who is at the table, and what may be claimed
EVENTS_SHOWN = 12
LOBBY_LIMIT = 50
QUICK_GAME = "cribbage"  # the game of the one-click buttons, when the site plays it


@dataclass(frozen=True)
class Seating:
    index: int
    name: str
    username: str | None
    profile_url: str | None  # the member's profile page (None: a computer, an open seat)
    is_computer: bool
    computer_tag: str  # "computer · strong" beside a computer seat's name
    took_over: bool
    team: int
    connected: bool
    away_seconds: int | None  # seconds since the member's last page went away, or None
    is_you: bool
    is_partner: bool  # on the viewer's team, not the viewer


@lru_cache(maxsize=4096)
def profile_url(username: str) -> str:
    """A member's profile address, worked out once (reversing it cost about 0.1 ms a seat, every
    time a seat's line was drawn)."""
    return reverse("profile", args=[username])


def load_match(match_id: int, *, stamp: str | None = None) -> Match | None:
    """The match as the database has it now, with its seats and their members, its creator and
    its tournament game if any, in one query (services.read_match).

    The read's query runs every time, but when the rows it gives are those the board kept for
    the match was made from (every column of every row the same: nothing has changed since),
    that board is handed out again instead of being made anew, which is most of a read's cost
    (decoding the board's JSON, parsing dates, building the objects: about 0.1 ms of 0.15 on
    SQLite). A board made here is kept for the next reader (a page, a fragment, a socket: see
    below) and for sockets hearing the group message `stamp`. Kept boards are shared, across
    threads too: readers look at them and never change them (the writes of games.services work
    on locked reads of their own)."""
    if not services.valid_id(match_id):
        return None
    began = time.monotonic()
    rows, make = services.match_rows(match_id)
    with _boards_lock:
        found = _boards.get(match_id)
        if found is not None and found[3] == rows:
            _boards[match_id] = (stamp or found[0], max(began, found[1]), found[2], rows)
            _boards.move_to_end(match_id)
            return found[2]
    match = make()
    if match is None:  # a match always has seats; should one have none, read it the usual way
        return (
            Match.objects.filter(pk=match_id)
            .select_related("created_by", "tournament_game")
            .prefetch_related("seats")
            .first()
        )
    with _boards_lock:
        found = _boards.get(match_id)
        if found is None or found[1] <= began:  # unless a later read is kept already
            _let_go(_keep(match, stamp, began, rows))
    return match


# The board last read for each match by this process, with the rows it was made from (None for a
# board a move wrote, handed over by the service). When a group message reaches several sockets
# of one process, the first reads the match and the others take that read: it was made for the
# same message (its stamp, see games/realtime.py), or began after this socket heard its own
# message, so it shows everything that message announced (messages are sent after the commit).
BOARD_CACHE_SIZE = 4096
_boards: OrderedDict[int, tuple[str | None, float, Match, Any]] = OrderedDict()
_boards_lock = threading.Lock()
board_reads: Counter[int] = Counter()  # match -> reads made by shared_board, for tests


# Sockets read boards in several threads (cribsite.threads): those of one match take turns, so
# that the sockets of a process that hear the same message still share one read.
_reading = [threading.Lock() for _ in range(64)]


def shared_board(match_id: int, *, stamp: str | None, heard: float) -> Match | None:
    """The match for a socket that heard the group message `stamp` at `heard`
    (time.monotonic()): a read shared by the sockets of this process, or a fresh one."""
    match = kept_board(match_id, stamp=stamp, heard=heard)
    if match is not None:
        return match
    with _reading[match_id % len(_reading)]:
        match = kept_board(match_id, stamp=stamp, heard=heard)  # read meanwhile by another
        if match is not None:
            return match
        match = load_match(match_id, stamp=stamp)
        board_reads[match_id] += 1
        if match is None:
            with _boards_lock:
                _let_go([_boards.pop(match_id, None)])
    return match


def kept_board(match_id: int, *, stamp: str | None, heard: float) -> Match | None:
    """The board kept for the sockets of this process that fits the message `stamp` heard at
    `heard` (see shared_board), or None; never reads the database."""
    with _boards_lock:
        found = _boards.get(match_id)
    if found is not None:
        found_stamp, began, match, _ = found
        if (stamp is not None and found_stamp == stamp) or began >= heard:
            return match
    return None


def keep_board(match: Match, stamp: str, began: float) -> None:
    """Keep a board just written (read at `began`, its seats and their members with it) for the
    sockets that hear the message `stamp`, unless a later read is kept already."""
    with _boards_lock:
        found = _boards.get(match.pk)
        if found is not None and found[1] > began:
            return
        _let_go(_keep(match, stamp, began, None))


def carried_board(match_id: int, *, stamp: str | None, data: Any) -> Match | None:
    """The board the group message `stamp` carried (games.carried), made again with no query,
    or None when it carried none for this match. It is kept for this process's other sockets
    that hear the same message, by its stamp alone: it shows the match as of the move's commit,
    not as of now, so a socket that heard another message never takes it by the time rule of
    kept_board (nor does it push out a newer board)."""
    match = carried.unpack(data)
    if match is None or match.pk != match_id:
        return None
    with _boards_lock:
        found = _boards.get(match_id)
        if found is None or found[2].seq <= match.seq:
            _let_go(_keep(match, stamp, float("-inf"), None))
    return match


def _keep(match: Match, stamp: str | None, began: float, rows: Any) -> list:
    """Keep `match` as its board, made from `rows` (services.match_rows; None: written by a
    move), and the caller holds _boards_lock; the entries it pushed out."""
    dropped = [_boards.get(match.pk)]
    _boards[match.pk] = (stamp, began, match, rows)
    _boards.move_to_end(match.pk)
    while len(_boards) > BOARD_CACHE_SIZE:
        dropped.append(_boards.popitem(last=False)[1])
    return dropped


def _let_go(entries: list) -> None:
    """Break the reference cycles of boards no longer kept, so that they are freed at once (the
    caller holds _boards_lock).

    A board read with its seats is a knot of cycles (the match holds its seats, which point
    back to it, and a tournament game points back to its match), which only Python's cyclic
    garbage collector can free. A kept board lives until its match's next move, seconds later,
    long enough to be moved to the collector's older generations, so dropped boards piled up
    there: with 500 matches on two processes its middle generation took 150-240 ms at a time,
    boards most of what it freed, and a full collection 1.0-1.1 s, each pause a stall for every
    socket of the process. The match lets go of its seats (and its tournament game of it); a
    drawing still under way on a dropped board (rare: a board is dropped when the next move's
    is kept) reads them again from the database (on the event loop Django refuses, and the
    socket draws from the database thread instead, see games/consumers.py)."""
    for entry in entries:
        if entry is None:
            continue
        match = entry[2]
        kept = _boards.get(match.pk)
        if kept is not None and kept[2] is match:
            continue  # the same board kept again
        match.__dict__.pop("_prefetched_objects_cache", None)
        game = match._state.fields_cache.get("tournament_game")
        if game is not None:
            game._state.fields_cache.pop("match", None)


realtime.board_keeper = keep_board
realtime.board_packer = carried.pack


def page_context(match: Match) -> dict[str, Any]:
    """What the match page shows around its regions (the same for every viewer)."""
    return {
        "match": match,
        "web": web_game(match.variant),
        "variant_name": engine_text(get_variant(match.variant).name),
        "option_summary": option_summary(match.variant, match.options),
    }


def match_context(match: Match, user: User | None) -> dict[str, Any]:
    """Everything the match page's fragments need, for `user` (None or anonymous: spectator)."""
    seat = services.seat_for(match, user)
    seat_index = seat.index if seat is not None else None
    view = services.engine_view(match, seat_index, table=True)
    names = services.seat_names(match)
    now = timezone.now()
    seats = [
        Seating(
            index=s.index,
            name=services.seat_label(s, variant=match.variant),
            username=s.user.username if s.user_id else None,
            profile_url=profile_url(s.user.username) if s.user_id and not s.took_over else None,
            is_computer=s.is_computer,
            computer_tag=services.computer_tag(s, variant=match.variant),
            took_over=s.took_over,
            team=s.team,
            connected=s.is_computer or s.connections > 0,
            # the viewer is never shown away at their own table (the page they read is open)
            away_seconds=None
            if s.is_computer or s.away_since is None or s.connections or s.index == seat_index
            else int((now - s.away_since).total_seconds()),
            is_you=seat is not None and s.index == seat.index,
            is_partner=seat is not None and s.index != seat.index and s.team == seat.team,
        )
        for s in services.seats_of(match)
    ]
    web = web_game(match.variant)
    absent = [s for s in seats if s.away_seconds is not None]
    away_limit = settings.MATCH_AWAY_SECONDS
    your_team = seat.team if seat is not None else None
    return {
        # Not page_context: the game's name and options are drawn by the page around the
        # regions, never in them (about 0.05 ms a viewer at every push).
        "match": match,
        "web": web,
        "seat_tags": web.seat_tags(view) if view else {},
        "show_games_won": int(match.options.get("games", 1) or 1) > 1,
        "seat": seat_index,
        "seats": seats,
        "names": names,
        "view": view,
        "sides": (sides := side_labels(view, names) if view else []),
        "side_names": [side["name"] for side in sides],
        "events": _events(web, view, names) if view else [],
        "prompt": prompt_text(web, view, names) if view and view.get("prompt") else "",
        "your_turn": bool(view and seat_index is not None and seat_index in view["to_move"]),
        "to_move_names": [names[i] for i in (view or {}).get("to_move", [])],
        "outcome_text": _outcome_text(match, names, web, view),
        "can_resign": seat is not None and match.status == Match.Status.ACTIVE,
        "can_abort": seat is not None
        and match.status == Match.Status.ACTIVE
        and match.moves_played == 0,
        "claimable": [
            s
            for s in absent
            if seat is not None
            and s.team != your_team
            and s.away_seconds >= away_limit
            and match.status == Match.Status.ACTIVE
        ],
        "away_limit": away_limit,
        "absent": absent,
        "board_template": web.table_template,
        "is_player": seat is not None,
        "rematch": rematch_offer(match, seat),
        "is_creator": user is not None and match.created_by_id == getattr(user, "pk", None),
        "move_error": None,
    }


def rematch_offer(match: Match, seat: Seat | None) -> dict[str, Any] | None:
    """What a seated member's end panel says of a rematch: None when there is none to offer;
    else {"match": the rematch or None (not offered yet), "by": who offered it, "seated": the
    member has a seat in it, "can_join": the member may take their seat now}."""
    if seat is None or match.status != Match.Status.FINISHED:
        return None
    if match.rematch_id is None:
        others = [
            s.user.name for s in match.seats.all() if s.user_id is not None and s.pk != seat.pk
        ]
        return {"match": None, "others": join_words(others), "seated": False, "can_join": False}
    rematch = load_match(match.rematch_id)
    if rematch is None:
        return None
    seated = any(s.user_id == seat.user_id for s in rematch.seats.all())
    return {
        "match": rematch,
        "by": rematch.created_by.name if rematch.created_by_id else "",
        "seated": seated,
        "can_join": not seated
        and rematch.status == Match.Status.WAITING
        and any(s.is_open and s.index == seat.index for s in rematch.seats.all()),
    }


def play_context(user) -> dict[str, Any]:
    """The one-click buttons of the home page and the lobby: which game "Play the computer"
    starts (the member's last game that seats two, else classic Cribbage), at which level."""
    two_seat = [web.key for web in web_games() if 2 in get_variant(web.key).player_counts]
    if not two_seat:
        return {"quick_game": None}
    standard = QUICK_GAME if QUICK_GAME in two_seat else two_seat[0]
    last = services.last_variant(user=user, among=two_seat) if user.is_authenticated else None
    computer_game = get_variant(last or standard)
    return {
        "quick_game": {
            "computer_variant": computer_game.key,
            "computer_name": engine_text(computer_game.name),
            "computer_level": engine_text(default_level(computer_game)),
            "variant": standard,
            "name": engine_text(get_variant(standard).name),
        }
    }


def home_games() -> list[dict[str, Any]]:
    """The games the site plays (the web registry), with their rules and player counts."""
    games = []
    for web in web_games():
        variant = get_variant(web.key)
        games.append(
            {
                "key": web.key,
                "name": engine_text(variant.name),
                "description": engine_text(web.description) if web.description else "",
                "player_counts": variant.player_counts,
                "players_text": players_text(variant.player_counts),
            }
        )
    return games


def players_text(counts: tuple[int, ...]) -> str:
    """ "2 players", "2, 3 or 4 players" in the active language."""
    words = get_text_list([str(n) for n in counts], gettext("or"))
    return ngettext("%(counts)s player", "%(counts)s players", max(counts, default=2)) % {
        "counts": words
    }


def lobby_context(user) -> dict[str, Any]:
    """Open matches anyone (or this member, when invited) may join, and the member's own.

    Both lists are read every time; when the database gives the very rows the member's lists
    were last made from (in this language), those lists are handed out again instead of being
    built anew (most of their cost, as for a match's board: see load_match). They are shared:
    readers look, never change them. "lists_serial" tells lists apart: the same number, the
    same lists (None: lists made for this request alone, as when the reads could not be
    compared)."""
    reads = (_WAITING_SEATS.rows(user.pk), _MY_SEATS.rows(user.pk))
    rows = tuple(found for _, _, found in reads)
    key = (user.pk, translation.get_language())
    games = [get_variant(web.key) for web in web_games()]
    # game_keys names the kept "how to play" line
    context = {"games": games, "game_keys": " ".join(game.key for game in games)}
    comparable = all(compiled is not None for _, compiled, _ in reads)
    if comparable:
        kept = _lobby_lists.get(key)
        if kept is not None and kept[0] == rows:
            return {**context, **kept[1]}
    waiting, mine = (
        services.seated(found if compiled is None else read.objects(db, compiled, found))
        for read, (db, compiled, found) in zip((_WAITING_SEATS, _MY_SEATS), reads, strict=True)
    )
    waiting.sort(key=lambda match: (match.created_at, match.pk), reverse=True)
    mine.sort(key=lambda match: (match.updated_at, match.pk), reverse=True)
    lists = {
        "waiting": [_lobby_row(m, user) for m in waiting],
        "mine": [_lobby_row(m, user) for m in mine],
        "lists_serial": next(_lobby_serials) if comparable else None,
    }
    if comparable:
        _lobby_lists.put(key, (rows, lists))
    return {**context, **lists}


LOBBY_LISTS_KEPT = 1024  # members' lists, the least recently used dropped first
_lobby_lists = Kept(LOBBY_LISTS_KEPT)  # (member, language) -> (the rows, the lists)
_lobby_serials = itertools.count(1)  # next() on a count is atomic


# The lobby's rows never show a match's board: its snapshot (the whole game state, JSON) is
# left unread, which was an eighth of the lobby's reading on SQLite; nor do they show more of a
# member than a board does (services.MEMBER_FIELDS).
LOBBY_UNREAD = ("match__snapshot", *services.member_rest("user"))


def _waiting_seats(user_id: int):
    """The seats of the newest open matches the member may join: anyone's, theirs, or those
    they are invited to. (Seats joined to their matches: two queries and their compiling
    cost more than the page's drawing did.)"""
    invited = Match.invited.through.objects.filter(user_id=user_id).values("match_id")
    matches = (
        Match.objects.filter(status=Match.Status.WAITING)
        .filter(Q(invite_only=False) | Q(created_by_id=user_id) | Q(pk__in=invited))
        .order_by("-created_at", "-pk")
        .values("pk")[:LOBBY_LIMIT]
    )
    return (
        Seat.objects.filter(match__in=matches)
        .select_related("user", "match__created_by")
        .defer(*LOBBY_UNREAD, *services.member_rest("match__created_by"))
    )


def _my_seats(user_id: int):
    """The seats of the member's latest matches in play."""
    matches = (
        Match.objects.filter(status=Match.Status.ACTIVE, seats__user_id=user_id)
        .order_by("-updated_at", "-pk")
        .values("pk")[:LOBBY_LIMIT]
    )
    return (
        Seat.objects.filter(match__in=matches).select_related("user", "match").defer(*LOBBY_UNREAD)
    )


_WAITING_SEATS = CompiledRead(_waiting_seats, shared=("match",))
_MY_SEATS = CompiledRead(_my_seats, shared=("match",))


def _lobby_row(match: Match, user) -> dict[str, Any]:
    seats = list(match.seats.all())
    return {
        "match": match,
        "variant": engine_text(get_variant(match.variant).name),
        "seats": seats,
        "seat_names": [services.seat_label(s, variant=match.variant) for s in seats],
        "open": sum(1 for s in seats if s.is_open),
        "is_mine": match.created_by_id == user.pk,
        "seated": any(s.user_id == user.pk for s in seats),
        "options": option_summary(match.variant, match.options),
    }


def option_summary(variant_key: str, options: dict[str, Any]) -> list[str]:
    """The match's options in a few words, from the game's own schema: each option's "summary"
    text ("game to {}") or its label; on/off options only when on, whole numbers
    only when not at their default. In the active language (the schema's texts are marked
    for the catalogue by each game)."""
    schema = get_variant(variant_key).options_schema
    words = []
    for name, spec in schema.items():
        value = options.get(name, spec.get("default"))
        shown = engine_text(value) if isinstance(value, str) else value
        if spec["type"] == "bool":
            if value:
                words.append(_summary(spec, name).format(shown))
            continue
        if spec["type"] == "int" and value == spec.get("default"):
            continue
        if spec["type"] == "choice" and value in spec.get("choice_labels", {}):
            label = engine_text(spec.get("label", name))
            choice = engine_text(spec["choice_labels"][value])
            words.append(gettext("%(label)s: %(value)s") % {"label": label, "value": choice})
        elif value == 1 and "summary_one" in spec:
            words.append(engine_text(spec["summary_one"]).format(shown))
        elif "summary" in spec:
            words.append(engine_text(spec["summary"]).format(shown))
        else:
            label = engine_text(spec.get("label", name))
            words.append(gettext("%(label)s: %(value)s") % {"label": label, "value": shown})
    return words


def _summary(spec: dict[str, Any], name: str) -> str:
    return engine_text(spec.get("summary", spec.get("label", name)))


# The common regions drawn in Python rather than by games/match.html's partials (and the
# players region, presenters.players_region).
DRAWN_IN_PYTHON = {"status": table_lines.status_html, "events": table_lines.events_html}


def render_regions(
    context: dict[str, Any], regions=REGIONS, *, oob: bool = True, language: str | None = None
) -> dict:
    """Each region's HTML, rendered from the shared fragments (out-of-band for htmx, else for
    the page, its forms holding fragments.CSRF_SLOT where the request's CSRF token goes), in
    `language`: the active one, when the caller has read it already."""
    ctx = {**context, "oob": oob}
    if not oob:
        ctx["csrf_token"] = fragments.CSRF_SLOT
    language = language or translation.get_language()  # read once for every region
    out = {}
    for region in regions:
        if region == "players":
            out[region] = players_region(ctx, language)
            continue
        drawer = DRAWN_IN_PYTHON.get(region)
        if drawer is not None:  # kept under the name of the partial it replaced
            out[region] = fragments.region(
                f"games/match.html#{region}",
                region,
                ctx,
                fragments.tight,
                draw=drawer,
                language=language,
            )
            continue
        if region in COMMON_REGIONS:
            template = f"games/match.html#{region}"
        elif context.get("view"):
            drawer = context["web"].region_drawer(region)
            if drawer is not None:  # drawn in Python by the game (WebGame.regions)
                out[region] = fragments.tight(drawer(ctx))
                continue
            template = f"{context['board_template']}#{region}"
        else:  # a match with no board (waiting, cancelled): the game's regions stay empty
            template = f"games/match.html#{region}_empty"
        out[region] = fragments.region(template, region, ctx, fragments.tight, language=language)
    return out


def players_region(context: dict[str, Any], language: str | None = None) -> str:
    """Who is at the table, drawn once for everyone who looks at the same board (the seats
    without the viewer's marks, so every viewer's key is the same), then each seat's slot filled
    with this viewer's "you" or "partner" tag."""
    seats = context["seats"]
    unmarked = [
        replace(s, is_you=False, is_partner=False) if s.is_you or s.is_partner else s for s in seats
    ]
    language = language or translation.get_language()
    html = fragments.region(
        "games/players.py",
        "players",
        {**context, "seats": unmarked},
        fragments.tight,
        draw=players_html,
        language=language,
    )
    for s in seats:
        slot = fragments.seat_tag_slot(s.index)
        if s.is_you or s.is_partner:
            name = "you_tag" if s.is_you else "partner_tag"
            tag = fragments.region(f"games/match.html#{name}", name, context, language=language)
            html = html.replace(slot, tag, 1)
        else:  # the slot's line goes, as tightening would take it once empty
            html = html.replace(slot + "\n", "", 1).replace(slot, "", 1)
    return fragments.Tight(html)


# Rendered regions shared by every socket of this process: one render per move for each kind of
# viewer (a seat, or all spectators), not one per socket. An entry is keyed by everything the
# fragments are drawn from (the board's seq and status, who sits where and who is connected, and
# the viewer's seat), and lives a moment only, so that the "away" clocks drawn into it stay true.
RENDER_CACHE_SECONDS = 5.0
RENDER_CACHE_SIZE = 4096
_render_cache = Kept(RENDER_CACHE_SIZE)
renders: Counter[tuple] = Counter()  # (match, seq, seat, regions) -> times drawn, for tests


def viewer_key(match: Match, user: User | None) -> tuple:
    """Everything the regions `user` is shown are drawn from, in the language: the board's
    seq and status, who sits where and who is connected, and the viewer's seat (None for every
    spectator), so that a seat's drawing is only ever handed to that same seat."""
    seat = services.seat_for(match, user)
    return (
        match.pk,
        match.seq,
        match.status,
        match.updated_at,
        tuple(
            (s.index, s.name, s.user_id, s.is_computer, s.took_over)
            + (s.connections > 0, s.away_since)
            for s in services.seats_of(match)
        ),
        seat.index if seat is not None else None,
        user is not None and match.created_by_id == getattr(user, "pk", None),
    )


def viewer_regions(
    match: Match, user: User | None, regions=REGIONS, *, oob: bool = True
) -> dict[str, str]:
    """The out-of-band regions `user` is shown (oob=False: as the page holds them, see
    page_regions), drawn at most once per viewer kind and board.

    The key holds the viewer's seat (None for every spectator), so a seat's entry is built only
    from that seat's view and is only ever handed to that same seat.
    """
    language = translation.get_language()
    key = (*viewer_key(match, user), tuple(regions), language, oob)
    found = _render_cache.get(key, seconds=RENDER_CACHE_SECONDS)
    if found is not None:
        return found
    rendered = render_regions(match_context(match, user), regions, oob=oob, language=language)
    renders[(match.pk, match.seq, key[5], key[7]) + (() if oob else ("page",))] += 1
    _render_cache.put(key, rendered)
    return rendered


def forget_kept() -> None:
    """Drop every board and drawing this process keeps for its sockets, and the counts of them
    (for tests: each is keyed by match id, which a new database gives out again)."""
    with _boards_lock:
        _boards.clear()
    _lobby_lists.clear()
    _render_cache.clear()
    board_reads.clear()
    renders.clear()


def page_regions(match: Match, user: User | None, token: str) -> dict[str, str]:
    """The regions of the match page: the drawing the sockets share for this viewer and board,
    with the request's CSRF token (`token`, from get_token) put into its forms."""
    return {
        region: mark_safe(html.replace(fragments.CSRF_SLOT, token))  # noqa: S308 (drawn escaped)
        for region, html in viewer_regions(match, user, oob=False).items()
    }


def mover_answer(match: Match):
    """The answer to an accepted move from a page whose socket is open: the socket brings the
    new board to every page (the mover's too), so the answer only clears the error line and
    says which seq to expect (X-Match-Seq), letting the page fetch the board if no push comes."""
    context = {"match": match, "oob": True, "move_error": None}
    html = fragments.region("games/match.html#error", "error", context)
    return HttpResponse(html, headers={"X-Match-Seq": str(match.seq)})


def seq_marker(match: Match) -> str:
    """The element that tells the page which board it shows; always sent."""
    return fragments.region("games/match.html#seq", "seq", {"match": match, "oob": True})


def side_labels(view: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    sides = []
    for side in view.get("sides", []):
        label = " & ".join(names[s] for s in side["seats"])
        sides.append({**side, "name": label})
    return sides


def _events(web: WebGame, view: dict[str, Any], names: list[str]) -> list[str]:
    """The last lines of the log. Each line is worded once for its game, players and language:
    every viewer of a move reads the same lines (events are public), and a line stays in the
    log for the next dozen moves."""
    language, who = translation.get_language(), tuple(names)
    lines = []
    for event in view.get("events", [])[-EVENTS_SHOWN:]:
        key = (web.key, language, who, event_key(event))
        line = _event_lines.get(key)
        if line is None:
            line = event_text(web, event, names)
            if len(_event_lines) >= EVENT_LINES_KEPT:
                _event_lines.clear()  # simpler than an LRU, and as good for a log that moves on
            _event_lines[key] = line
        lines.append(line)
    return lines


EVENT_LINES_KEPT = 20_000
_event_lines: dict[tuple, str] = {}  # get, set and clear are each atomic: no lock needed


# How a match ended, for the history's "Result" column (games/models.py's labels are English).
ENDING_TEXTS = {
    Match.Ending.PLAYED: translation.gettext_lazy("played out"),
    Match.Ending.RESIGNED: translation.gettext_lazy("resigned"),
    Match.Ending.ABANDONED: translation.gettext_lazy("abandoned"),
    Match.Ending.ABORTED: translation.gettext_lazy("called off"),
    Match.Ending.CANCELLED: translation.gettext_lazy("cancelled"),
}


def _outcome_text(
    match: Match, names: list[str], web: WebGame | None = None, view: dict | None = None
) -> str:
    """Who won and how, in the active language.

    In English the engine's own words ("{p0} wins 121 to 87 (skunk)"). In another language the
    game's `texts.outcome(outcome, names, view)` when it has one, else words built here from the
    outcome's figures: the winners, the scores, skunks, games won, resignation or a player
    who left.
    """
    if match.status == Match.Status.ABORTED:
        if match.ending == Match.Ending.CANCELLED:
            return gettext("This match was cancelled before it began.")
        return gettext("This match was called off before anyone moved.")
    if not match.outcome:
        return ""
    outcome = match.outcome
    if (translation.get_language() or "en").startswith("en"):
        return fill_names(outcome.get("reason", ""), names)
    text = outcome_text(web, outcome, names, view) if web is not None else None
    return text if text is not None else outcome_words(match.ending, outcome, names)


def outcome_words(ending: str, outcome: dict[str, Any], names: list[str]) -> str:
    """A match's result in words of the active language, from its figures alone."""
    winners = list(outcome.get("winners", []))
    sides = outcome.get("sides", [])
    losers = [s for side in sides for s in side["seats"] if s not in winners]

    def who(seats) -> str:
        return join_words([names[s] if 0 <= s < len(names) else "?" for s in seats])

    if ending == Match.Ending.RESIGNED and losers:
        return ngettext("%(names)s resigned", "%(names)s resigned", len(losers)) % {
            "names": who(losers)
        }
    if ending == Match.Ending.ABANDONED and losers:
        return ngettext("%(names)s left the table", "%(names)s left the table", len(losers)) % {
            "names": who(losers)
        }
    won = [side for side in sides if side["seats"] and side["seats"][0] in winners]
    lost = [side for side in sides if not (side["seats"] and side["seats"][0] in winners)]
    if not won:
        return ""
    score = won[0].get("score", 0)
    if not lost:
        return gettext("%(names)s share the result on %(score)s") % {
            "names": who(winners),
            "score": score,
        }
    if len(outcome.get("games", [])) > 1:
        return ngettext(
            "%(names)s wins the match, %(games)s games to %(others)s",
            "%(names)s win the match, %(games)s games to %(others)s",
            len(winners),
        ) % {
            "names": who(winners),
            "games": won[0].get("games_won", 0),
            "others": join_words([str(side.get("games_won", 0)) for side in lost]),
        }
    others = []
    for side in lost:
        figure = str(side.get("score", 0))
        skunk = skunk_text(side)
        notes = [who(side["seats"])] if len(lost) > 1 else []
        notes += [skunk] if skunk else []
        others.append(f"{figure} ({', '.join(notes)})" if notes else figure)
    return ngettext(
        "%(names)s wins %(score)s to %(others)s",
        "%(names)s win %(score)s to %(others)s",
        len(winners),
    ) % {"names": who(winners), "score": score, "others": join_words(others)}


def skunk_text(side: dict[str, Any]) -> str:
    """ "skunk", "double skunk" or "" for a side of an outcome, in the active language."""
    level = side.get("skunk", 0)
    if level == 1:
        return gettext("skunk")
    if level == 2:
        return gettext("double skunk")
    return engine_text(side["skunk_name"]) if side.get("skunk_name") else ""


HISTORY_PAGE_SIZE = 20


def history_page(member: User, page_number: Any):
    """A page of the member's finished matches, newest first, as rows for the profile page."""
    from django.core.paginator import Paginator

    seats = (
        Seat.objects.filter(user=member, match__status=Match.Status.FINISHED)
        .select_related("match")
        .prefetch_related(Prefetch("match__seats", queryset=Seat.objects.select_related("user")))
        .order_by("-match__finished_at", "-match_id")
    )
    page = Paginator(seats, HISTORY_PAGE_SIZE).get_page(page_number)
    page.rows = [_history_row(seat) for seat in page.object_list]
    return page


def _history_row(seat: Seat) -> dict[str, Any]:
    match = seat.match
    outcome = match.outcome or {}
    others = [s for s in match.seats.all() if s.team != seat.team]
    partners = [s for s in match.seats.all() if s.team == seat.team and s.pk != seat.pk]
    side_score = {tuple(side["seats"]): side["score"] for side in outcome.get("sides", [])}
    mine = next((v for k, v in side_score.items() if seat.index in k), None)
    theirs = [v for k, v in side_score.items() if seat.index not in k]
    length = None
    if match.started_at and match.finished_at:
        length = match.finished_at - match.started_at
    return {
        "match": match,
        "variant": engine_text(get_variant(match.variant).name),
        "opponents": others,
        "partners": partners,
        "won": seat.index in outcome.get("winners", []),
        "score": mine,
        "other_scores": theirs,
        "ending": match.ending,
        "ending_text": ENDING_TEXTS.get(match.ending, match.ending),
        "length": length,
        "moves": match.moves_played,
    }
