"""The Kings Cribbage table's own address: the live preview of a tentative lay."""

from django.urls import path

from games.variants.kings import views

urlpatterns = [
    path("matches/<int:match_id>/preview/", views.preview, name="kings_preview"),
]
