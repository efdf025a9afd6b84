"""WebSocket routes."""

from django.urls import path

from accounts.consumers import PresenceConsumer
from games.consumers import LobbyConsumer, MatchConsumer

websocket_urlpatterns = [
    path("ws/presence/", PresenceConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/matches/<int:match_id>/", MatchConsumer.as_asgi()),
]
