"""URL routes of the whole site."""

from django.contrib import admin
from django.urls import include, path

from cribsite import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("", include("accounts.urls")),
    path("admin/", admin.site.urls),
]
