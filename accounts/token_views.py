"""A member's personal API tokens: list them, create one (shown once), revoke one."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import ApiToken
from accounts.tokens import MAX_TOKENS, TokenError, token_create, token_revoke


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=ApiToken._meta.get_field("name").max_length,
        label=gettext_lazy("Name"),
        help_text=gettext_lazy(
            "What the token is for, so you can tell your tokens apart (e.g. 'my bot')."
        ),
    )


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    """The member's tokens; a POST creates one and shows it on this response only."""
    form = TokenForm(request.POST or None)
    new_token = None
    if request.method == "POST" and form.is_valid():
        try:
            row, new_token = token_create(user=request.user, name=form.cleaned_data["name"])
        except TokenError as error:
            form.add_error("name", str(error))
        else:
            form = TokenForm()
    context = {
        "form": form,
        "tokens": ApiToken.objects.filter(user=request.user),
        "new_token": new_token,
        "max_tokens": MAX_TOKENS,
    }
    status = 400 if form.errors else 200
    return render(request, "accounts/tokens.html", context, status=status)


@login_required
@require_POST
def revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    token = ApiToken.objects.filter(user=request.user, pk=token_id).first()
    if token is None or not token_revoke(user=request.user, token_id=token_id):
        raise Http404(_("You have no such token."))
    messages.success(
        request,
        _("The token “%(name)s” is revoked; programs using it stop working.")
        % {"name": token.name},
    )
    return redirect("api_tokens")
