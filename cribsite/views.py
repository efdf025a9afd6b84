"""Site-wide pages that belong to no single app: the home page and a health check."""

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.presence import online_count
from games.variants import web_games


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"online": online_count(), "games": web_games()})


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})
