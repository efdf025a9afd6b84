"""Tournament pages, under /tournaments/."""

from django.urls import path

from games.tournaments import views

urlpatterns = [
    path("", views.tournament_list, name="tournaments"),
    path("new/", views.tournament_new, name="tournament_new"),
    path("<int:tournament_id>/", views.tournament_detail, name="tournament"),
    path("<int:tournament_id>/screen/", views.tournament_screen, name="tournament_screen"),
    path("<int:tournament_id>/print/", views.tournament_print, name="tournament_print"),
    path("<int:tournament_id>/<slug:kind>.csv", views.tournament_export, name="tournament_export"),
    path("<int:tournament_id>/direct/", views.tournament_direct, name="tournament_direct"),
    path(
        "<int:tournament_id>/direct/<slug:action>/",
        views.tournament_action,
        name="tournament_action",
    ),
    path("games/<int:game_id>/result/", views.game_result, name="tournament_game_result"),
    path("games/<int:game_id>/confirm/", views.game_confirm, name="tournament_game_confirm"),
]
