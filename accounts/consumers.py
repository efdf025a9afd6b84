"""The home page's live "members online" count, pushed as an htmx out-of-band fragment."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation

from accounts import presence
from accounts.middleware import scope_language


class PresenceConsumer(WebsocketConsumer):
    """Anyone may listen; only signed-in members are counted.

    The page sends a heartbeat now and then (any message), which keeps the member's row fresh.
    Every connect and disconnect tells the group, and each socket re-renders the count.
    """

    def connect(self) -> None:
        self.user = self.scope.get("user")
        self.language = scope_language(self.scope)
        async_to_sync(self.channel_layer.group_add)(presence.GROUP, self.channel_name)
        self.accept()
        if self.user is not None and self.user.is_authenticated:
            presence.connect(user=self.user, channel_name=self.channel_name)
            self._announce()
        else:
            self._send_count()

    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.user is not None and self.user.is_authenticated:
            presence.heartbeat(channel_name=self.channel_name)

    def disconnect(self, code: int) -> None:
        async_to_sync(self.channel_layer.group_discard)(presence.GROUP, self.channel_name)
        if self.user is not None and self.user.is_authenticated:
            presence.disconnect(channel_name=self.channel_name)
            self._announce()

    def presence_changed(self, event: dict) -> None:
        self._send_count()

    def _announce(self) -> None:
        async_to_sync(self.channel_layer.group_send)(presence.GROUP, {"type": "presence.changed"})

    def _send_count(self) -> None:
        with translation.override(self.language):
            html = render_to_string(
                "home.html#online", {"online": presence.online_count(), "oob": True}
            )
        self.send(text_data=html)
