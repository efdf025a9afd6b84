"""Match pages: the lobby, a match's table, its moves (htmx) and its replay. Thin: parse the
request, call a service, render the shared fragments."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from cribsite.kept import CSRF_SLOT, kept_page
from games import presenters, services
from games.engine.core.variant import get_variant
from games.forms import NewMatchForm
from games.texts import engine_text, event_text
from games.variants import web_game, web_games


@login_required
@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby, kept whole while the member's lists and one-click buttons stay the same (the
    rest of it is the same for every member in a language: cribsite.kept.kept_page)."""
    context = {
        **presenters.lobby_context(request.user),
        **presenters.play_context(request.user),
        "start_fields": start_fields(None),
        "oob": False,  # the lists drawn in place (the lobby's socket sends them out of band)
    }
    serial, quick = context["lists_serial"], context["quick_game"]
    key = None
    if serial is not None:  # lists made for this request alone are not kept
        key = (serial, context["game_keys"], tuple(quick.items()) if quick else None)
    return kept_page(request, "games/lobby.html", context, key)


_blank_forms: dict[str, str] = {}  # language -> the blank start form's fields, drawn


def start_fields(form: NewMatchForm | None) -> str:
    """The lobby's start form without its CSRF token. Blank (None) it is the same for every
    member (the games and their options are fixed while the process runs): drawn once a
    language."""
    language = get_language()
    if form is None and language in _blank_forms:
        return _blank_forms[language]
    html = render_to_string("games/lobby.html#start_fields", {"form": form or NewMatchForm()})
    if form is None:
        _blank_forms[language] = html
    return html


@login_required
@require_POST
def create(request: HttpRequest) -> HttpResponse:
    form = NewMatchForm(request.POST)
    if not form.is_valid():
        return _lobby_with_errors(request, form)
    variant = form.cleaned_data["variant"]
    players = form.cleaned_data["players"]
    try:
        match = services.match_create(
            creator=request.user,
            variant=variant,
            players=players,
            options=form.options_for(variant),
            computer_seats=form.computer_seat_list(players),
            invited=form.cleaned_data["invite"],
            invite_only=form.cleaned_data["opponents"] == "invite",
            computer_level=form.cleaned_data["level"],
            rated=form.cleaned_data["rated"],
        )
    except services.ServiceError as error:
        field = (error.field or "").split(".")[-1]
        field = "level" if field == "computer_level" else field
        form_field = f"{variant}__{field}" if f"{variant}__{field}" in form.fields else None
        if form_field is None and field in form.fields:
            form_field = field
        message = error.message
        if form_field is not None and message.startswith(f"{field}: "):
            message = message[len(field) + 2 :]  # the field says which option it is
        form.add_error(form_field, message)
        return _lobby_with_errors(request, form)
    return redirect(match)


@login_required
@require_POST
def play_computer(request: HttpRequest) -> HttpResponse:
    """One click: a two-seat match against the computer at its default level, starting now."""
    variant = request.POST.get("variant") or _one_click_game(request)["computer_variant"]
    if variant not in {web.key for web in web_games()}:
        messages.error(request, _("Game: there is no such game."))
        return redirect("lobby")
    try:
        match = services.match_create(
            creator=request.user, variant=variant, players=2, computer_seats=[1]
        )
    except services.ServiceError as error:
        _flash_error(request, error)
        return redirect("lobby")
    return redirect(match)


@login_required
@require_POST
def quick_game(request: HttpRequest) -> HttpResponse:
    """One click: join the oldest open standard game for two, or open one."""
    variant = _one_click_game(request)["variant"]
    match, joined = services.match_quick(user=request.user, variant=variant)
    if not joined:
        messages.info(request, _("Your game is open: it starts as soon as another member joins."))
    return redirect(match)


@login_required
@require_POST
def rematch(request: HttpRequest, match_id: int) -> HttpResponse:
    """Offer a rematch from a finished match's end panel (twice: the same rematch)."""
    try:
        new = services.match_rematch(match_id=match_id, user=request.user)
    except services.NotFound:
        raise Http404(_("There is no such match.")) from None
    except services.ServiceError as error:
        _flash_error(request, error)
        target = reverse("match", args=[match_id])
    else:
        target = new.get_absolute_url()
    return HttpResponseClientRedirect(target) if request.htmx else redirect(target)


@login_required
@require_POST
def lifecycle(request: HttpRequest, match_id: int, action: str) -> HttpResponse:
    """join, leave, cancel, resign, abort, claim: one service call each."""
    service = {
        "join": services.match_join,
        "leave": services.match_leave,
        "cancel": services.match_cancel,
        "resign": services.match_resign,
        "abort": services.match_abort,
        "claim": services.match_claim,
    }[action]
    try:
        service(match_id=match_id, user=request.user)
    except services.NotFound:
        raise Http404(_("There is no such match.")) from None
    except services.ServiceError as error:
        if request.htmx:
            return _regions_response(request, match_id, error=error.message, status=error.status)
        messages.error(request, error.message[:1].upper() + error.message[1:] + ".")
        return redirect("match", match_id=match_id)
    leaving = action in {"cancel", "leave"}
    target = reverse("lobby") if leaving else reverse("match", args=[match_id])
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


@login_required
@require_GET
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """The table, kept whole for this member while what it shows stays the same (the regions'
    key: presenters.viewer_key), and at most as long as a drawing of its regions is kept."""
    match = presenters.load_match(match_id)
    if match is None:
        raise Http404(_("There is no such match."))

    def context() -> dict[str, Any]:
        # kept_page puts the request's token where the regions' forms hold CSRF_SLOT. "oob": the
        # page's inline partial (seq) drawn in place, not out of band. Named, since a name
        # missing from a template's context costs it a chain of exceptions.
        regions = presenters.page_regions(match, request.user, CSRF_SLOT)
        return {**presenters.page_context(match), "regions": regions, "oob": False}

    key = presenters.viewer_key(match, request.user)
    return kept_page(
        request, "games/match.html", context, key, seconds=presenters.RENDER_CACHE_SECONDS
    )


@login_required
@require_GET
def board(request: HttpRequest, match_id: int) -> HttpResponse:
    """Every fragment of the table at once: the page asks for it when it finds a gap."""
    return _regions_response(request, match_id)


@login_required
@require_POST
def move(request: HttpRequest, match_id: int) -> HttpResponse:
    """A move from the table's forms. Answers with the changed fragments (htmx) or redirects."""
    error = None
    status = 200
    try:
        seq = _seq(request.POST.get("seq", ""))
        played = services.match_play(
            match_id=match_id,
            user=request.user,
            seq=seq,
            move=lambda variant: web_game(variant).parse_move(request.POST),
        )
    except ValueError as bad:
        error, status = engine_text(str(bad)) or _("that move could not be read"), 400
    except services.NotFound:
        raise Http404(_("There is no such match.")) from None
    except services.ServiceError as refused:
        error, status = refused.message, refused.status
    if not request.htmx:
        if error:
            messages.error(request, error[:1].upper() + error[1:] + ".")
        return redirect("match", match_id=match_id)
    if error is None and request.headers.get("X-Match-Socket") == "open":
        return presenters.mover_answer(played.match)
    return _regions_response(request, match_id, error=error, status=status)


@login_required
@require_GET
def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    """One step of a finished match, every hand face up. The step's links work as plain links;
    with htmx they fetch only the step (`games/replay.html#step`) and swap it in place."""
    match = presenters.load_match(match_id)
    if match is None:
        raise Http404(_("There is no such match."))
    if match.snapshot is None:
        raise Http404(_("This match never started, so there is nothing to replay."))
    if not match.is_over:  # the seats' hands stay private while the match is on
        return render(
            request,
            "games/replay.html",
            {"match": match, "not_over": True},
            status=403,
        )
    states = services.replay(match)
    try:
        step = int(request.GET.get("step", len(states) - 1))
    except ValueError:
        step = len(states) - 1
    step = max(0, min(step, len(states) - 1))
    engine = get_variant(match.variant)
    names = services.seat_names(match)
    state, events = states[step]
    spectator = engine.view(state, None)
    move = match.moves.order_by("seq")[step - 1] if step else None
    context = {
        "match": match,
        "web": (web := web_game(match.variant)),
        "step": step,
        "last": len(states) - 1,
        "views": [(name, engine.view(state, s)) for s, name in enumerate(names)],
        "spectator": spectator,
        "move": move,
        "mover": names[move.seat] if move else None,
        "events": [event_text(web, e, names) for e in events],
        "names": names,
        "sides": (sides := presenters.side_labels(spectator, names)),
        "side_names": [side["name"] for side in sides],
    }
    context["fragment"] = bool(request.htmx) and not request.htmx.history_restore_request
    template = "games/replay.html#step" if context["fragment"] else "games/replay.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _one_click_game(request: HttpRequest) -> dict[str, Any]:
    """The games of the one-click buttons (presenters.play_context); 404 when none can."""
    defaults = presenters.play_context(request.user)["quick_game"]
    if defaults is None:
        raise Http404(_("There is no such game."))
    return defaults


def _flash_error(request: HttpRequest, error: services.ServiceError) -> None:
    """A service's refusal as a message on the next page, as a sentence."""
    messages.error(request, error.message[:1].upper() + error.message[1:] + ".")


def _seq(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValueError(_("that move could not be read: reload the page and try again")) from None


@require_GET
def rules(request: HttpRequest, variant: str) -> HttpResponse:
    """How to play a game, in the club's own words."""
    try:
        web = web_game(variant)
    except KeyError:
        raise Http404(_("There is no such game.")) from None
    return render(request, web.rules_templates(get_language() or "en"), {"web": web})


# What a game's web adapter (games/variants) says of a form it cannot read, in the catalogue.
MOVE_FORM_ERRORS = (
    gettext_noop("that move could not be read"),
    gettext_noop("choose a move first"),
)


def _regions_response(
    request: HttpRequest, match_id: int, *, error: str | None = None, status: int = 200
) -> HttpResponse:
    match = presenters.load_match(match_id)
    if match is None:
        raise Http404(_("There is no such match."))
    context = presenters.match_context(match, request.user)
    context["move_error"] = error
    html = "".join(presenters.render_regions(context).values()) + presenters.seq_marker(match)
    return HttpResponse(html, status=status)


def _lobby_with_errors(request: HttpRequest, form: NewMatchForm) -> HttpResponse:
    context = {
        **presenters.lobby_context(request.user),
        **presenters.play_context(request.user),
        "form": form,
        "start_fields": start_fields(form),
    }
    return render(request, "games/lobby.html", context, status=400)
