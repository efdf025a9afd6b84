"""The JSON API for programs (django-ninja), served under /api/v1/.

Programs authenticate with a member's personal token (`Authorization: Bearer crib_...`); a
browser session does not count. Handlers parse, call one service, and serialise; every answer,
errors included, is JSON (`{"detail": ...}`). A match is shown to each caller through the
engine's view for the caller's seat (a spectator's view when they have none), nothing more.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any, Literal

from asgiref.sync import iscoroutinefunction, sync_to_async
from channels.layers import get_channel_layer
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import close_old_connections, connection
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponseNotAllowed, JsonResponse
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Query, Status
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser
from ninja.security import HttpBearer

from accounts.models import User
from accounts.tokens import user_for_token
from games import services
from games.api_schemas import (
    MOST_SEQ,
    MatchIn,
    MatchLog,
    MatchPage,
    MatchState,
    MoveIn,
    PreviewIn,
    Problem,
    StaleProblem,
    VariantOut,
    log_of,
    state_of,
    summary_of,
)
from games.engine.core import default_level, levels
from games.engine.core.variant import get_variant, variant_keys
from games.models import Match, Move, group_for
from games.variants import web_games

log = logging.getLogger(__name__)

WAIT_SECONDS = 30.0  # the longest a `wait_after_seq` request is held open
RECHECK_SECONDS = 5.0  # while waiting, re-read the match this often (group delivery may drop)
MAX_PAGE = 100

ListStatus = Literal["open", "waiting", "active", "finished", "aborted", "mine"]
ERRORS = {400: Problem, 401: Problem, 403: Problem, 404: Problem, 409: Problem, 422: Problem}


class TokenAuth(HttpBearer):
    """`Authorization: Bearer <token>`: the token's member becomes `request.auth`."""

    def authenticate(self, request: HttpRequest, token: str) -> User | None:
        return user_for_token(token.strip())


class ObjectParser(Parser):
    """Request bodies are JSON objects; anything else is refused as unparseable (400)."""

    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        data = super().parse_body(request)
        if not isinstance(data, dict):
            raise ValueError(_("the body is not a JSON object"))
        return data


class JsonNinjaAPI(NinjaAPI):
    """A NinjaAPI whose 405 and stray 404 answers (made outside the handlers) are JSON too."""

    @property
    def urls(self) -> tuple[list[Any], str, str]:
        patterns, app_name, namespace = super().urls
        patterns.sort(key=lambda p: "<path:rest>" in str(p.pattern))  # the catch-all goes last
        for pattern in patterns:
            pattern.callback = _json_fallbacks(pattern.callback)
        return patterns, app_name, namespace


api = JsonNinjaAPI(
    title="Cribbage Club API",
    version="1",
    urls_namespace="api",
    auth=TokenAuth(),
    parser=ObjectParser(),
    description="Play the club's games from a program. Create a token on your account page "
    "and send it as `Authorization: Bearer <token>`.",
)

api.add_router("", "accounts.api.router")  # players: ratings and statistics (accounts/api.py)

# -- matches ----------------------------------------------------------------------------------


@api.post("/matches", response={201: MatchState, **ERRORS}, tags=["matches"])
def create_match(request: HttpRequest, payload: MatchIn):
    """Start a match; you take the first seat the computer does not."""
    invited = _members(payload.invite)
    try:
        match = services.match_create(
            creator=request.auth,
            variant=payload.variant,
            players=payload.players,
            options=payload.options,
            computer_seats=payload.computer_seats,
            invited=invited,
            invite_only=payload.invite_only,
            computer_level=payload.computer_level,
            rated=payload.rated,
        )
    except services.ServiceError as error:
        if error.field == "invited":
            error.field = "invite"
        raise
    return Status(201, _state(match.pk, request.auth))


@api.get("/matches", response={200: MatchPage, **ERRORS}, tags=["matches"])
def list_matches(
    request: HttpRequest,
    status: ListStatus | None = None,
    limit: int = Query(20, ge=1, le=MAX_PAGE),
    offset: int = Query(0, ge=0, le=10**9),
):
    """Matches, newest first. `open`: waiting matches you could join; `mine`: yours."""
    user = request.auth
    matches = Match.objects.all()
    if status == "open":
        matches = matches.filter(status=Match.Status.WAITING).exclude(seats__user=user)
        matches = matches.filter(Q(invite_only=False) | Q(invited=user)).distinct()
    elif status == "mine":
        matches = matches.filter(seats__user=user).distinct()
    elif status is not None:
        matches = matches.filter(status=status)
    count = matches.count()
    page = matches.order_by("-created_at", "-pk").select_related("created_by")
    page = page.prefetch_related("seats__user")[offset : offset + limit]
    return {
        "count": count,
        "limit": limit,
        "offset": offset,
        "items": [summary_of(m, user) for m in page],
    }


@api.get("/matches/{int:match_id}", response={200: MatchState, **ERRORS}, tags=["matches"])
async def get_match(
    request: HttpRequest,
    match_id: int,
    wait_after_seq: int | None = Query(None, ge=0, le=MOST_SEQ),
):
    """The match as your seat sees it. With `wait_after_seq=N`, wait (up to 30 s) until the
    match's seq passes N, then answer; on time-out the current state comes back all the same."""
    if wait_after_seq is not None:
        await _wait_past(match_id, wait_after_seq)
    return await sync_to_async(_state)(match_id, request.auth)


@api.post(
    "/matches/{int:match_id}/moves",
    response={**ERRORS, 200: MatchState, 409: StaleProblem},
    tags=["play"],
)
def play_move(request: HttpRequest, match_id: int, payload: MoveIn):
    """Make a move: `seq` of the board you chose it on and one of your `legal_moves`."""
    _check_id(match_id)
    try:
        services.match_play(
            match_id=match_id, user=request.auth, seq=payload.seq, move=payload.move
        )
    except services.Stale as error:
        return Status(409, {"detail": error.message, "state": _state(match_id, request.auth)})
    return _state(match_id, request.auth)


@api.post(
    "/matches/{int:match_id}/preview", response={200: dict[str, Any], **ERRORS}, tags=["play"]
)
def preview_move(request: HttpRequest, match_id: int, payload: PreviewIn):
    """Whether a move would be accepted now, and (for games that can tell without giving
    anything away) what it would score; nothing changes."""
    _check_id(match_id)
    return services.match_preview(match_id=match_id, user=request.auth, move=payload.move)


@api.post("/matches/{int:match_id}/join", response={200: MatchState, **ERRORS}, tags=["matches"])
def join_match(request: HttpRequest, match_id: int):
    """Take the first open seat; the match starts when the last seat is taken."""
    return _act(services.match_join, match_id, request.auth)


@api.post("/matches/{int:match_id}/resign", response={200: MatchState, **ERRORS}, tags=["play"])
def resign_match(request: HttpRequest, match_id: int):
    """Your side gives up the match; every other side wins."""
    return _act(services.match_resign, match_id, request.auth)


@api.post("/matches/{int:match_id}/abort", response={200: MatchState, **ERRORS}, tags=["play"])
def abort_match(request: HttpRequest, match_id: int):
    """Call off a match in play before anyone has moved; it ends without a result."""
    return _act(services.match_abort, match_id, request.auth)


@api.post("/matches/{int:match_id}/cancel", response={200: MatchState, **ERRORS}, tags=["matches"])
def cancel_match(request: HttpRequest, match_id: int):
    """Withdraw a match you created that is still waiting for players."""
    return _act(services.match_cancel, match_id, request.auth)


@api.post("/matches/{int:match_id}/leave", response={200: MatchState, **ERRORS}, tags=["matches"])
def leave_match(request: HttpRequest, match_id: int):
    """Give up your seat in a match that has not started (its creator cancels instead)."""
    return _act(services.match_leave, match_id, request.auth)


@api.post("/matches/{int:match_id}/claim", response={200: MatchState, **ERRORS}, tags=["play"])
def claim_match(request: HttpRequest, match_id: int):
    """Act on an opponent who has been away too long: win, or let the computer take over."""
    return _act(services.match_claim, match_id, request.auth)


@api.get("/matches/{int:match_id}/log", response={200: MatchLog, **ERRORS}, tags=["matches"])
def match_log(request: HttpRequest, match_id: int):
    """Every move in order. Until the match is over only the move's type is shown for other
    seats' moves, and the seed is withheld; afterwards both are there to replay the deals."""
    match = _match(match_id)
    return log_of(match, request.auth, Move.objects.filter(match=match).order_by("seq"))


@api.get("/variants", response={200: list[VariantOut], **ERRORS}, tags=["games"])
def list_variants(request: HttpRequest):
    """The games the club plays, with their player counts and match options."""
    return [
        {
            "key": engine.key,
            "name": engine.name,
            "player_counts": list(engine.player_counts),
            "options_schema": engine.options_schema,
            "levels": list(levels(engine)),
            "default_level": default_level(engine),
        }
        for engine in map(get_variant, variant_keys())
    ]


# A game's web folder may add its own routes (api.py, `add_routes(api, errors)`), before the
# catch-all route below: Cribbage's discard analysis, for one.
for _web in web_games():
    if (_routes := _web.extension("api")) is not None:
        _routes.add_routes(api, ERRORS)


@api.api_operation(
    ["GET", "POST", "PUT", "PATCH", "DELETE"], "/{path:rest}", include_in_schema=False
)
def unknown_route(request: HttpRequest, rest: str):
    raise Http404


# -- errors: always JSON ----------------------------------------------------------------------


@api.exception_handler(services.ServiceError)
def _service_error(request: HttpRequest, error: services.ServiceError):
    body = {"detail": _named(error.field, error.message), "field": error.field}
    return api.create_response(request, body, status=error.status)


@api.exception_handler(AuthenticationError)
def _unauthenticated(request: HttpRequest, error: AuthenticationError):
    detail = _("send a valid API token as 'Authorization: Bearer <token>' (see /account/tokens/)")
    response = api.create_response(request, {"detail": detail}, status=401)
    response["WWW-Authenticate"] = 'Bearer realm="api"'
    return response


@api.exception_handler(ValidationError)
def _invalid(request: HttpRequest, error: ValidationError):
    problems = [
        (_field_of(e.get("loc", ())), str(e.get("msg", _("is not valid")))) for e in error.errors
    ]
    detail = "; ".join(_named(field, message) for field, message in problems)
    field = problems[0][0] if problems else None
    return api.create_response(request, {"detail": detail, "field": field}, status=422)


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, error: HttpError):
    detail = str(error)
    if error.status_code == 400 and detail.startswith("Cannot parse request body"):
        detail = _("the request body must be a JSON object")
    return api.create_response(request, {"detail": detail}, status=error.status_code)


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, error: Http404):
    return api.create_response(request, {"detail": _("there is no such thing here")}, status=404)


@api.exception_handler(Exception)
def _unexpected(request: HttpRequest, error: Exception):
    if isinstance(error, RequestDataTooBig):
        return api.create_response(request, {"detail": _("the request is too large")}, status=413)
    if isinstance(error, SuspiciousOperation):
        return api.create_response(request, {"detail": _("bad request")}, status=400)
    log.exception("API error on %s %s", request.method, request.path)
    detail = _("something went wrong on our side; it has been logged")
    return api.create_response(request, {"detail": detail}, status=500)


# -- helpers ----------------------------------------------------------------------------------


def _state(match_id: int, user: User) -> dict[str, Any]:
    return state_of(_match(match_id), user)


def _act(service, match_id: int, user: User) -> dict[str, Any]:
    _check_id(match_id)
    service(match_id=match_id, user=user)
    return _state(match_id, user)


def _match(match_id: int) -> Match:
    _check_id(match_id)
    match = Match.objects.prefetch_related("seats__user").filter(pk=match_id).first()
    if match is None:
        raise services.NotFound(_("there is no such match"))
    return match


def _check_id(match_id: int) -> None:
    if not services.valid_id(match_id):  # ids the database cannot hold name no match
        raise services.NotFound(_("there is no such match"))


def _seq_of(match_id: int) -> int:
    _check_id(match_id)
    seq = Match.objects.filter(pk=match_id).values_list("seq", flat=True).first()
    if seq is None:
        raise services.NotFound(_("there is no such match"))
    return seq


def _seq_letting_go(match_id: int) -> int:
    """The match's seq; then the connection goes back, so no waiter sits on one for long."""
    try:
        return _seq_of(match_id)
    finally:
        if not connection.in_atomic_block:  # (a test's transaction stays open)
            close_old_connections()


async def _wait_past(match_id: int, seq: int) -> None:
    """Return once match `match_id` is past `seq`, or after WAIT_SECONDS.

    Listens on the match's channel-layer group (the services announce every commit there), so
    the handler itself holds no thread and no database connection while it waits. The seq is
    read again after subscribing, so a change made in between is not missed, and every
    RECHECK_SECONDS besides, as group delivery may drop messages.
    """
    read_seq = sync_to_async(_seq_letting_go)
    if await read_seq(match_id) > seq:
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_SECONDS
    layer = get_channel_layer()
    if layer is None:
        while loop.time() < deadline and await read_seq(match_id) <= seq:
            await asyncio.sleep(min(RECHECK_SECONDS, max(0.0, deadline - loop.time())))
        return
    group = group_for(match_id)
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    try:
        recheck = True
        while True:
            if recheck and await read_seq(match_id) > seq:
                return
            remaining = deadline - loop.time()
            if remaining <= 0:
                return
            try:
                message = await asyncio.wait_for(
                    layer.receive(channel), min(remaining, RECHECK_SECONDS)
                )
            except TimeoutError:
                recheck = True
                continue
            if message.get("type") == "match.changed" and message.get("seq", 0) > seq:
                return
            recheck = False
    finally:
        await layer.group_discard(group, channel)


def _members(usernames: list[str]) -> list[User]:
    """The invited members by username; an unknown name is a 400 naming `invite`."""
    names = list(dict.fromkeys(name.strip() for name in usernames))
    if len(names) > services.MAX_INVITED:
        raise services.ServiceError(
            _("invite at most %(count)d members") % {"count": services.MAX_INVITED},
            field="invite",
        )
    found = {u.username: u for u in User.objects.filter(username__in=names, is_active=True)}
    missing = [name for name in names if name not in found]
    if missing:
        raise services.ServiceError(
            _("no member is called %(name)s") % {"name": repr(missing[0])}, field="invite"
        )
    return [found[name] for name in names]


def _field_of(loc: Any) -> str | None:
    parts = [str(part) for part in loc]
    if parts and parts[0] in {"body", "query", "path", "header", "cookie"}:
        parts = parts[1:]
        if parts and parts[0] == "payload":
            parts = parts[1:] or ["body"]
    return ".".join(parts) or None


def _named(field: str | None, message: str) -> str:
    """`field: message` (a message that starts with the field's last name gets the full name)."""
    if not field:
        return message
    own = f"{field.rsplit('.', 1)[-1]}: "
    if message.startswith(own):
        message = message[len(own) :]
    return f"{field}: {message}"


def _json_fallbacks(view):
    """Turn the HTML 405 and 404 answers Ninja and Django make around the handlers into JSON."""

    def fix(response):
        if isinstance(response, HttpResponseNotAllowed):
            allowed = response["Allow"]
            body = {
                "detail": _("method not allowed here (allowed: %(allowed)s)") % {"allowed": allowed}
            }
            fixed = JsonResponse(body, status=405)
            fixed["Allow"] = allowed
            return fixed
        return response

    missing = {"detail": _("there is no such thing here")}

    if iscoroutinefunction(view):

        @functools.wraps(view)
        async def wrapped_async(request, *args, **kwargs):
            try:
                return fix(await view(request, *args, **kwargs))
            except Http404:
                return JsonResponse(missing, status=404)

        return wrapped_async

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            return fix(view(request, *args, **kwargs))
        except Http404:
            return JsonResponse(missing, status=404)

    return wrapped
