"""Sign-up, profile pages and profile editing. Log-in, log-out and passwords use Django's views."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordResetView
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from django.views.i18n import set_language as django_set_language

from accounts.forms import MemberPasswordResetForm, ProfileForm, SignUpForm
from accounts.models import User
from accounts.rating_views import profile_context


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="accounts.backends.MemberBackend")
        messages.success(request, _("Welcome to the club, %(name)s!") % {"name": user.name})
        return redirect("home")
    status = 400 if form.errors else 200
    return render(request, "registration/signup.html", {"form": form}, status=status)


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    from games.presenters import history_page
    from games.tournaments.presenters import profile_rows

    member = get_object_or_404(User, username=username, is_active=True)
    history = history_page(member, request.GET.get("page"))
    context = {"member": member, "history": history, "tournaments": profile_rows(member)}
    context.update(profile_context(member))
    return render(request, "accounts/profile.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def edit_profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your details are saved."))
        return redirect("profile", username=request.user.username)
    status = 400 if form.errors else 200
    return render(request, "accounts/edit_profile.html", {"form": form}, status=status)


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """What django-axes shows once log-ins are paused (settings.AXES_LOCKOUT_CALLABLE)."""
    minutes = max(1, int(settings.AXES_COOLOFF_TIME.total_seconds() // 60))
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "cooloff_minutes": minutes,
        "username": username[:150],
    }
    return render(request, "registration/locked_out.html", context, status=429)


@require_http_methods(["POST"])
def set_language(request: HttpRequest) -> HttpResponse:
    """The navigation's language switcher: a cookie for everyone, and the account for a member
    (so the choice follows them to every device). Goes back to `next` when it is on this site."""
    language = request.POST.get("language", "")
    if language not in dict(settings.LANGUAGES):
        choices = ", ".join(code for code, _name in settings.LANGUAGES)
        return HttpResponseBadRequest(
            _("language: choose one of %(choices)s.") % {"choices": choices},
            content_type="text/plain; charset=utf-8",
        )
    if request.user.is_authenticated and request.user.language != language:
        request.user.language = language
        request.user.save(update_fields=["language"])
    return django_set_language(request)


class MemberPasswordResetView(PasswordResetView):
    """Django's reset page, which says so when the mail could not be sent (503, the form kept)
    instead of claiming it is on its way."""

    form_class = MemberPasswordResetForm

    def form_valid(self, form: MemberPasswordResetForm) -> HttpResponse:
        response = super().form_valid(form)
        if not form.mail_failed:
            return response
        form.add_error(
            None,
            _(
                "We could not send the mail with your link just now. Try again in a few "
                "minutes; if it keeps failing, tell the club."
            ),
        )
        return self.render_to_response(self.get_context_data(form=form), status=503)
