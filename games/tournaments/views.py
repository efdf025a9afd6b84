"""Tournament pages. Thin: parse the request, call a service, render the shared fragments.

A refused request re-renders its page with the reason and the service's 4xx status.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.tournaments import exports, presenters, services
from games.tournaments.forms import EntrantForm, LateEntryForm, ScoreForm, TournamentForm
from games.tournaments.models import Game, Tournament
from games.tournaments.texts import local_points


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    events = Tournament.objects.order_by("-date", "-pk")
    return render(
        request,
        "tournaments/list.html",
        {
            "running": [t for t in events if t.stage != Tournament.Stage.FINISHED],
            "finished": [t for t in events if t.stage == Tournament.Stage.FINISHED][:30],
            "is_director": services.can_direct(request.user),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    if not services.can_direct(request.user):
        raise PermissionDenied(_("Only the tournament director can set up a tournament."))
    form = TournamentForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                event = services.tournament_create(director=request.user, **form.service_kwargs())
            except services.ServiceError as error:
                form.add_error(_form_field(form, error), error.message)
                status = error.status
            else:
                messages.success(
                    request, _("%(name)s is set up. Add the entrants next.") % {"name": event.name}
                )
                return redirect("tournament_direct", tournament_id=event.pk)
        else:
            status = 400
    return render(request, "tournaments/new.html", {"form": form}, status=status)


@require_GET
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    event = _event(tournament_id)
    context = presenters.tournament_context(event, request.user)
    return render(request, "tournaments/detail.html", {**context, "score_form": ScoreForm()})


@require_GET
def tournament_screen(request: HttpRequest, tournament_id: int) -> HttpResponse:
    event = _event(tournament_id)
    context = presenters.tournament_context(event, None)
    return render(request, "tournaments/screen.html", context)


@require_GET
def tournament_print(request: HttpRequest, tournament_id: int) -> HttpResponse:
    event = _event(tournament_id)
    context = presenters.tournament_context(event, None)
    return render(request, "tournaments/print.html", context)


@require_GET
def tournament_export(request: HttpRequest, tournament_id: int, kind: str) -> HttpResponse:
    event = _event(tournament_id)
    writer = exports.WRITERS.get(kind)
    if writer is None:
        raise Http404(_("There is no such export."))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = f"tournament-{event.pk}-{kind}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    writer(event, response)
    return response


@login_required
@require_GET
def tournament_direct(request: HttpRequest, tournament_id: int) -> HttpResponse:
    event = _event(tournament_id)
    _require_director(request)
    return _direct_page(request, event)


@login_required
@require_POST
def tournament_action(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    """One of the director's buttons: one service call each."""
    event = _event(tournament_id)
    _require_director(request)
    handler = ACTIONS.get(action)
    if handler is None:
        raise Http404(_("There is no such action."))
    forms: dict = {}
    try:
        done = handler(request, event, forms)
    except services.ServiceError as error:
        for form in forms.values():
            if error.field and _form_field(form, error):
                form.add_error(_form_field(form, error), error.message)
        return _direct_page(request, event, error=error.message, status=error.status, forms=forms)
    if done is None:  # a form did not validate
        return _direct_page(request, event, status=400, forms=forms, error=_("Check the form."))
    messages.success(request, done)
    return redirect("tournament_direct", tournament_id=event.pk)


@login_required
@require_POST
def game_result(request: HttpRequest, game_id: int) -> HttpResponse:
    """A player (or the director) enters the two scores of their game."""
    game = _game(game_id)
    form = ScoreForm(request.POST)
    event = game.pairing.round.tournament
    try:
        if not form.is_valid():
            raise _score_error(form)
        services.result_enter(game_id=game.pk, by=request.user, **form.scores())
    except services.ServiceError as error:
        return _detail_with_error(request, event, error)
    game.refresh_from_db()
    if game.status == Game.Status.PENDING:
        messages.success(request, _("Result entered. It stands once your opponent confirms it."))
    elif game.status == Game.Status.DISPUTED:
        messages.warning(
            request, _("That differs from your opponent's entry; the director decides.")
        )
    else:
        messages.success(request, _("Result recorded."))
    return redirect(event)


@login_required
@require_POST
def game_confirm(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(game_id)
    event = game.pairing.round.tournament
    try:
        services.result_confirm(game_id=game.pk, by=request.user)
    except services.ServiceError as error:
        return _detail_with_error(request, event, error)
    messages.success(request, _("Result confirmed."))
    return redirect(event)


# -- the director's actions -----------------------------------------------------------------


def _add(request, event, forms):
    form = forms["entrant_form"] = EntrantForm(request.POST)
    if not form.is_valid():
        return None
    d = form.cleaned_data
    entrant = services.entrant_add(
        tournament_id=event.pk, by=request.user, user=d["member"], guest_name=d["guest_name"],
        partner=d["partner"], partner_guest_name=d["partner_guest_name"],
        checked_in=d["checked_in"],
    )  # fmt: skip
    return _("%(name)s is entered.") % {"name": entrant.name}


def _late(request, event, forms):
    form = forms["late_form"] = LateEntryForm(request.POST)
    if not form.is_valid():
        return None
    d = form.cleaned_data
    entrant = services.entrant_late_entry(
        tournament_id=event.pk, by=request.user, user=d["member"], guest_name=d["guest_name"],
        partner=d["partner"], partner_guest_name=d["partner_guest_name"], games=d["games"],
        wins=d["wins"], game_points=d["game_points"], spread=d["spread"],
    )  # fmt: skip
    card = f"{local_points(d['game_points'])}/{d['wins']}"
    return _("%(name)s joins late with %(card)s.") % {"name": entrant.name, "card": card}


def _check_in(request, event, forms):
    present = request.POST.get("present", "1") == "1"
    entrant = services.entrant_check_in(
        entrant_id=_number(request, "entrant"), by=request.user, checked_in=present
    )
    if present:
        return _("%(name)s is checked in.") % {"name": entrant.name}
    return _("%(name)s is marked absent.") % {"name": entrant.name}


def _withdraw(request, event, forms):
    entrant = services.entrant_withdraw(entrant_id=_number(request, "entrant"), by=request.user)
    return _("%(name)s has withdrawn; their games stand.") % {"name": entrant.name}


def _next_round(request, event, forms):
    round_ = services.round_generate(tournament_id=event.pk, by=request.user)
    return _("%(round)s is drawn.") % {"round": round_.title}


def _playoffs(request, event, forms):
    services.playoffs_start(tournament_id=event.pk, by=request.user)
    return _("The playoff bracket is drawn.")


def _result(request, event, forms):
    scores = _scores(request)
    game = services.result_enter(game_id=_number(request, "game"), by=request.user, **scores)
    return _("Result %(score)s recorded.") % {"score": game.score_text}


def _forfeit(request, event, forms):  # absent: the no-show's seat letter
    services.game_forfeit(
        game_id=_number(request, "game"), by=request.user, absent=request.POST.get("absent", "")
    )
    return _("The game is forfeited.")


def _resolve(request, event, forms):
    services.dispute_resolve(
        dispute_id=_number(request, "dispute"), by=request.user, note=request.POST.get("note", ""),
        **_scores(request),
    )  # fmt: skip
    return _("The dispute is settled.")


def _correct(request, event, forms):
    services.result_correct(
        game_id=_number(request, "game"), by=request.user, reason=request.POST.get("reason", ""),
        **_scores(request),
    )  # fmt: skip
    return _("The result is corrected and the standings recomputed.")


def _swap(request, event, forms):
    services.pairing_swap(
        round_id=_number(request, "round"), entrant_id=_number(request, "entrant"),
        other_entrant_id=_number(request, "other_entrant"), by=request.user,
    )  # fmt: skip
    return _("The two entrants have swapped places.")


def _recompute(request, event, forms):
    services.standings_recompute(tournament_id=event.pk, by=request.user)
    return _("Standings recomputed.")


ACTIONS: dict[str, Callable] = {
    "add": _add,
    "late": _late,
    "check-in": _check_in,
    "withdraw": _withdraw,
    "next-round": _next_round,
    "playoffs": _playoffs,
    "result": _result,
    "forfeit": _forfeit,
    "resolve": _resolve,
    "correct": _correct,
    "swap": _swap,
    "recompute": _recompute,
}


# -- helpers --------------------------------------------------------------------------------


def _event(tournament_id: int) -> Tournament:
    event = presenters.load(tournament_id)
    if event is None:
        raise Http404(_("There is no such tournament."))
    return event


def _game(game_id: int) -> Game:
    game = Game.objects.select_related("pairing__round__tournament").filter(pk=game_id).first()
    if game is None:
        raise Http404(_("There is no such game."))
    return game


def _require_director(request: HttpRequest) -> None:
    if not services.can_direct(request.user):
        raise PermissionDenied(_("Only the tournament director can do that."))


def _number(request: HttpRequest, name: str) -> int:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        raise services.ServiceError(
            _("choose the %(what)s") % {"what": _field_name(name)}, field=name
        ) from None


def _score_error(form: ScoreForm) -> services.ServiceError:
    """The score form's first error as it says it ("First named: at most 999."), naming the
    field; the general rule when the form gives none."""
    for name, errors in form.errors.items():
        return services.ServiceError(str(errors[0]), field=name)
    return services.ServiceError(_("enter every score as a whole number"), field="score")


def _scores(request: HttpRequest) -> dict:
    form = ScoreForm(request.POST)
    if not form.is_valid():
        raise _score_error(form)
    return form.scores()


def _field_name(name: str) -> str:
    names = {
        "entrant": pgettext("what to choose", "entrant"),
        "other_entrant": pgettext("what to choose", "other entrant"),
        "game": pgettext("what to choose", "game"),
        "round": pgettext("what to choose", "round"),
        "dispute": pgettext("what to choose", "dispute"),
    }
    return names.get(name, name.replace("_", " "))


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _direct_page(request, event, *, error=None, status=200, forms=None) -> HttpResponse:
    forms = forms or {}
    context = {
        **presenters.tournament_context(event, request.user),
        **presenters.director_context(event),
        "entrant_form": forms.get("entrant_form") or EntrantForm(),
        "late_form": forms.get("late_form") or LateEntryForm(),
        "error": _sentence(error) if error else None,
        "posted": request.POST if error else {},
    }
    return render(request, "tournaments/direct.html", context, status=status)


def _detail_with_error(request, event, error: services.ServiceError) -> HttpResponse:
    context = presenters.tournament_context(event, request.user)
    context.update(score_form=ScoreForm(request.POST), error=_sentence(error.message))
    return render(request, "tournaments/detail.html", context, status=error.status)


def _form_field(form, error: services.ServiceError) -> str | None:
    name = (error.field or "").split(".")[-1]
    aliases = {"user": "member", "game points": "game_points", "score": None}
    name = aliases.get(name, name)
    return name if name in form.fields else None
