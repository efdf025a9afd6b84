"""The live tournament page: re-renders its fragments whenever the tournament changes.

The group message says only "changed"; each socket renders for its own viewer (the "your game"
panel is per member), and sends only fragments that differ from what it sent last. A fresh
connection gets every fragment, which heals a page that missed messages. Anyone may watch.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from games.tournaments import presenters

CLOSE_NOT_FOUND = 4404


class TournamentConsumer(WebsocketConsumer):
    def connect(self) -> None:
        self.user = self.scope.get("user")
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.regions = ("live",) if query.get("view") == ["live"] else ("mine", "live")
        self.sent: dict[str, str] = {}
        self.language = scope_language(self.scope)
        tournament = presenters.load(self.tournament_id)
        if tournament is None:
            self.close(code=CLOSE_NOT_FOUND)
            return
        self.group = tournament.group_name
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()
        self.push(tournament)

    def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)

    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Pages only listen; results go through HTTP so that they are checked in one place."""

    def tournament_changed(self, event: dict) -> None:
        self.push()

    def push(self, tournament=None) -> None:
        tournament = tournament or presenters.load(self.tournament_id)
        if tournament is None:
            return
        user = self.user if self.user is not None and self.user.is_authenticated else None
        with translation.override(self.language):
            context = {**presenters.tournament_context(tournament, user), "oob": True}
        changed = []
        for region in self.regions:
            with translation.override(self.language):
                html = render_to_string(f"tournaments/_parts.html#{region}", context)
            if self.sent.get(region) != html:
                self.sent[region] = html
                changed.append(html)
        if changed:
            self.send(text_data="".join(changed))


def scope_language(scope) -> str:
    """The language the page was rendered in, as the HTTP middlewares chose it: the member's
    saved language, else the switcher's cookie, else the browser's Accept-Language."""
    user = scope.get("user")
    choices = [getattr(user, "language", "") if user is not None and user.is_authenticated else ""]
    choices.append((scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME, ""))
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    choices += [code for code, _quality in parse_accept_lang_header(accept) if code != "*"]
    for code in choices:
        if not code:
            continue
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
