"""The match socket: pushes each viewer's own fragments of the table as the match changes.

Thin by design: authenticate, find the seat, and on every group message render that seat's
view into the page's fragments, sending only those that changed since the last push, always
with the seq marker. Group messages carry no cards; each socket renders for its own seat, so
hidden cards never travel to anyone else. A fresh connection gets every fragment, which heals
a page that missed messages while it was away. Each socket renders in its own reader's language
(the member's saved one, else the page's: see accounts.middleware.scope_language).
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.utils import translation

from accounts.middleware import scope_language
from games import presenters, services

CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404


class MatchConsumer(WebsocketConsumer):
    def connect(self) -> None:
        self.user = self.scope.get("user")
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.sent: dict[str, str] = {}
        if self.user is None or not self.user.is_authenticated:
            self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.language = scope_language(self.scope)
        match = presenters.load_match(self.match_id)
        if match is None:
            self.close(code=CLOSE_NOT_FOUND)
            return
        self.group = match.group_name
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()
        self.seated = services.seat_for(match, self.user) is not None
        if self.seated:
            services.seat_connected(match_id=self.match_id, user=self.user)
        if _page_seq(self.scope) == match.seq:
            # The page was rendered from this very board: remember its fragments instead of
            # sending them again, so a half-made choice on the page is not wiped out.
            with translation.override(self.language):
                self.sent = dict(presenters.viewer_regions(match, self.user))
        self.push(match)

    def disconnect(self, code: int) -> None:
        if not hasattr(self, "group"):
            return
        async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)
        if self.seated:
            services.seat_disconnected(match_id=self.match_id, user=self.user)

    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Pages only listen; moves go through HTTP so that they are checked in one place."""

    def match_changed(self, event: dict) -> None:
        self.push()

    def presence_changed(self, event: dict) -> None:
        self.push(regions=presenters.PRESENCE_REGIONS)  # only who is here, and what to claim

    def push(self, match=None, regions=presenters.REGIONS) -> None:
        match = match or presenters.load_match(self.match_id)
        if match is None:
            return
        with translation.override(self.language):
            rendered = presenters.viewer_regions(match, self.user, regions)
        changed = [html for region, html in rendered.items() if self.sent.get(region) != html]
        self.sent.update(rendered)
        self.send(text_data="".join(changed) + presenters.seq_marker(match))


def _page_seq(scope) -> int | None:
    """The seq of the board the page was rendered from (?seq=N on the socket's address)."""
    from urllib.parse import parse_qs

    values = parse_qs(scope.get("query_string", b"").decode()).get("seq", [])
    try:
        return int(values[0]) if values else None
    except ValueError:
        return None


class LobbyConsumer(WebsocketConsumer):
    """The lobby's lists of open matches and the member's own, re-rendered when they change."""

    def connect(self) -> None:
        self.user = self.scope.get("user")
        if self.user is None or not self.user.is_authenticated:
            self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.language = scope_language(self.scope)
        async_to_sync(self.channel_layer.group_add)(services.LOBBY_GROUP, self.channel_name)
        self.accept()

    def disconnect(self, code: int) -> None:
        async_to_sync(self.channel_layer.group_discard)(services.LOBBY_GROUP, self.channel_name)

    def lobby_changed(self, event: dict) -> None:
        from django.template.loader import render_to_string

        from games.presenters import lobby_context

        with translation.override(self.language):
            context = {**lobby_context(self.user), "oob": True}
            html = render_to_string("games/lobby.html#lists", context)
        self.send(text_data=html)
