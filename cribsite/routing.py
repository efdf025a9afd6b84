"""WebSocket routes."""

from django.urls import path

from accounts.consumers import PresenceConsumer
from accounts.notices import NoticeConsumer
from cribsite.consumers import PingConsumer
from games.consumers import LobbyConsumer, MatchConsumer
from games.tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/presence/", PresenceConsumer.as_asgi()),
    path("ws/notices/", NoticeConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/matches/<int:match_id>/", MatchConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]
