"""Leaderboards per game and head-to-head records. The profile's part is `profile_context`."""

from __future__ import annotations

from django import forms
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from accounts import charts, stats
from accounts.models import User
from games.texts import engine_text


def profile_context(member: User) -> dict:
    """The statistics and rating charts of a member's profile (a handful of queries)."""
    per_game = stats.member_stats(member)
    series = stats.rating_series(member)
    for entry in per_game:
        for rating in entry.ratings:
            rating["chart"] = charts.rating_chart(series.get((entry.game, rating["players"]), []))
            rating["label"] = ngettext(
                "%(game)s, %(count)d player", "%(game)s, %(count)d players", rating["players"]
            ) % {"game": engine_text(entry.name), "count": rating["players"]}
            rating["id"] = f"{entry.game}-{rating['players']}"
    return {"per_game": per_game}


@require_GET
def leaderboards(request: HttpRequest) -> HttpResponse:
    return redirect("leaderboard", game=stats.game_keys()[0])


@require_GET
def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    """The top rated members of a game at one player count, and the most active this month."""
    if game not in stats.game_keys():
        raise Http404(gettext("There is no such game."))
    counts = stats.player_counts(game)
    players = _choice(request.GET.get("players"), counts, counts[0])
    lines, total = stats.top_rated(game, players, page=_page(request.GET.get("page")))
    pages = Paginator(range(total), stats.LEADERBOARD_PAGE)
    page = pages.get_page(request.GET.get("page"))
    since = stats.month_start()
    context = {
        "games": [(key, engine_text(stats.game_name(key))) for key in stats.game_keys()],
        "game": game,
        "game_name": engine_text(stats.game_name(game)),
        "counts": counts,
        "players": players,
        "lines": lines,
        "total": total,
        "page": page,
        "min_games": stats.LEADERBOARD_MIN_GAMES,
        "active": stats.most_active(game, since),
        "since": since,
        "form": HeadToHeadForm(),
    }
    return render(request, "accounts/leaderboard.html", context)


class HeadToHeadForm(forms.Form):
    first = forms.CharField(label=_("Member"), max_length=150, help_text=_("A username."))
    second = forms.CharField(label=_("Against"), max_length=150, help_text=_("Another username."))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.widget.attrs.update(autocomplete="off", autocapitalize="none", spellcheck="false")

    def clean_first(self) -> User:
        return _member(self.cleaned_data["first"])

    def clean_second(self) -> User:
        return _member(self.cleaned_data["second"])

    def clean(self) -> dict:
        data = super().clean()
        if data.get("first") and data.get("first") == data.get("second"):
            self.add_error("second", gettext("Choose two different members."))
        return data


@require_GET
def head_to_head(request: HttpRequest) -> HttpResponse:
    """Two members' record against each other, per game (from a GET form, so it can be linked)."""
    form = HeadToHeadForm(request.GET or None)
    records = None
    if form.is_valid():
        records = stats.head_to_head(form.cleaned_data["first"], form.cleaned_data["second"])
    status = 400 if form.errors else 200
    context = {"form": form, "records": records, "data": form.cleaned_data if records else {}}
    return render(request, "accounts/head_to_head.html", context, status=status)


def _member(username: str) -> User:
    member = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
    if member is None:
        raise forms.ValidationError(gettext("No member has this username."))
    return member


def _choice(value: str | None, allowed: tuple[int, ...], default: int) -> int:
    try:
        number = int(value or default)
    except ValueError:
        return default
    return number if number in allowed else default


def _page(value: str | None) -> int:
    try:
        return max(1, min(int(value or 1), 10**6))
    except ValueError:
        return 1
