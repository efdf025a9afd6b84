"""Live notices to one member, on whatever page of the site they are on: an invitation to a
match, a rematch offered to them.

Every page of a signed-in member opens /ws/notices/ (templates/base.html); its consumer joins
the member's own group, `member-<id>`, and draws each notice in the member's language. The match
layer knows nothing of this: `on_match_changed` listens to games.signals.match_changed
(connected in AccountsConfig.ready) and tells the members invited to a match that has just
opened. A match opens at seq 1 (created, or offered as a rematch, and waiting for its seats);
every later change has a higher seq, so each invitation is told once and a move costs no query.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation

from accounts.middleware import scope_language
from cribsite.threads import socket_database
from games import realtime
from games.models import Match
from games.texts import engine_text
from games.variants import web_game

CLOSE_UNAUTHENTICATED = 4401
OPENING_SEQ = 1  # the seq of a match that has just been created and waits for its seats


def group_name(user_id: int) -> str:
    """The channel-layer group of one member's pages."""
    return f"member-{user_id}"


def on_match_changed(sender: Any, match_id: int, seq: int, **kwargs: Any) -> None:
    """Tell each member invited to a match that has just opened (or a rematch just offered)."""
    if seq != OPENING_SEQ:
        return
    match = Match.objects.filter(pk=match_id, status=Match.Status.WAITING).first()
    if match is None:
        return
    seated = match.seats.exclude(user=None).values("user_id")
    for user_id in match.invited.exclude(pk__in=seated).values_list("pk", flat=True):
        realtime.group_send(group_name(user_id), {"type": "notice.invited", "match_id": match_id})


def invitation_context(match: Match) -> dict[str, Any]:
    """What a notice of an invitation to `match` says (in the active language)."""
    return {
        "match": match,
        "host": match.created_by.name if match.created_by else "",
        "game": engine_text(web_game(match.variant).name),
        "rematch_of": Match.objects.filter(rematch=match).first(),
    }


class NoticeConsumer(AsyncWebsocketConsumer):
    """A member's page listening for notices; pages only listen. Asynchronous like the match
    socket: a page that hears nothing costs no thread, and a notice hops once to the database
    thread to be read and drawn."""

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.language = scope_language(self.scope)
        self.group = group_name(self.user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Pages only listen."""

    async def notice_invited(self, event: dict[str, Any]) -> None:
        html = await socket_database(self._invitation)(event.get("match_id"))
        if html:
            await self.send(text_data=html)

    def _invitation(self, match_id: Any) -> str:
        match = (
            Match.objects.select_related("created_by")
            .filter(pk=match_id, status=Match.Status.WAITING)
            .first()
        )
        if match is None:  # already started, or cancelled: nothing left to accept
            return ""
        with translation.override(self.language):
            return render_to_string("accounts/notice.html", invitation_context(match))
