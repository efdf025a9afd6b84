"""URL routes of the whole site."""

from django.contrib import admin
from django.urls import include, path

from cribsite import views
from games.api import api

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("", include("games.urls")),  # before the accounts': a move, a match page are found first
    path("", include("accounts.urls")),
    path("tournaments/", include("games.tournaments.urls")),
    path("api/v1/", api.urls),
    path("admin/", admin.site.urls),
    path("favicon.ico", views.favicon, name="favicon"),
]
