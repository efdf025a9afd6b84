"""URL routes of the whole site."""

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from cribsite import views
from games.api import api

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("tournaments/", include("games.tournaments.urls")),
    path("api/v1/", api.urls),
    path("admin/", admin.site.urls),
    # Pages that name no icon (the admin's, the API's docs): browsers ask for /favicon.ico.
    path("favicon.ico", RedirectView.as_view(url=static("img/peg.svg"), permanent=True)),
]
