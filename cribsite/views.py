"""Site-wide pages that belong to no single app: the home page, a health check, the icon."""

from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.http import require_GET

from accounts.presence import online_count
from games import presenters


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    context = {"online": online_count(), "games": presenters.home_games()}
    if request.user.is_authenticated:
        context.update(presenters.play_context(request.user))
    return render(request, "home.html", context)


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Pages that name no icon (the admin's, the API's docs) make browsers ask for /favicon.ico.
    The static name is looked up per request: with hashed static files it exists only after
    collectstatic, which must not be needed to import the URLs."""
    return HttpResponsePermanentRedirect(static("img/peg.svg"))
