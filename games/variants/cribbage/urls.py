"""Classic Cribbage's own pages, under play/cribbage/: the discard analysis of a match and the
standalone analyser."""

from django.urls import path

from games.variants.cribbage import analysis

urlpatterns = [
    path(
        "matches/<int:match_id>/discards/",
        analysis.match_analysis,
        name="cribbage_match_discards",
    ),
    path("discard/", analysis.analyser, name="cribbage_analyser"),
]
