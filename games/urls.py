from django.urls import include, path

from games import views
from games.variants import web_games

ACTIONS = ("join", "leave", "cancel", "resign", "abort", "claim")

urlpatterns = [
    path("play/", views.lobby, name="lobby"),
    path("play/new/", views.create, name="match_create"),
    path("play/computer/", views.play_computer, name="play_computer"),
    path("play/quick/", views.quick_game, name="quick_game"),
    path("rules/<slug:variant>/", views.rules, name="rules"),
    path("matches/<int:match_id>/", views.match_page, name="match"),
    path("matches/<int:match_id>/board/", views.board, name="match_board"),
    path("matches/<int:match_id>/move/", views.move, name="match_move"),
    path("matches/<int:match_id>/replay/", views.replay, name="match_replay"),
    path("matches/<int:match_id>/rematch/", views.rematch, name="match_rematch"),
    # a game's web folder may add its own pages (urls.py), under play/<key>/
    *(
        path(f"play/{w.key}/", include(w.extension("urls")))
        for w in web_games() if w.extension("urls") is not None
    ),
    *(
        path(f"matches/<int:match_id>/{action}/", views.lifecycle, {"action": action},
             name=f"match_{action}")
        for action in ACTIONS
    ),
]  # fmt: skip
