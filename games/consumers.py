"""The match socket: pushes each viewer's own fragments of the table as the match changes.

Thin by design: authenticate, find the seat, and on every group message render that seat's
view into the page's fragments, sending only those that changed since the last push, always
with the seq marker. Group messages carry no cards; each socket renders for its own seat, so
hidden cards never travel to anyone else. A fresh connection gets every fragment, which heals
a page that missed messages while it was away. Each socket renders in its own reader's language
(the member's saved one, else the page's: see accounts.middleware.scope_language).

The consumers are asynchronous: waiting on the channel layer and writing to the socket happen on
the server's event loop. The sockets of one process share one read of the board per message
(`presenters.shared_board`; none at all for a member's move made through this process, which
hands over the board it wrote, nor through another, whose message carries it: games.carried)
and the drawing (`presenters.viewer_regions`, and within it
`games.fragments`: a region is drawn once for what it shows, whoever reads it, and not again
while a move leaves it alone), so a move costs at most one read and one drawing per kind of
viewer. A board already at hand is drawn right on the event loop; otherwise the event hops to one
of the sockets' database threads (cribsite.threads: a few a process, each keeping its
connection; channels' own `database_sync_to_async` has one thread for them all) to read the
board and draw it there. Only the regions that changed for this socket are sent (of a region
drawn in parts, fragments.Parted, only the parts that changed), and permessage-deflate
(cribsite/asgi.py) sends those as little more than their changes.
"""

from __future__ import annotations

import contextlib
import time
from urllib.parse import parse_qs

from autobahn.exception import Disconnected  # daphne's WebSocket layer
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.core.exceptions import SynchronousOnlyOperation
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.functional import LazyObject, empty

from accounts.middleware import scope_language
from cribsite.threads import socket_database
from games import fragments, presenters, services
from games.models import group_for

CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404
RESYNC = "resync"  # a page's only message: send every region whole next time


class _Consumer(AsyncWebsocketConsumer):
    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        """Send, unless the socket closed while this was on its way: daphne then refuses it
        (autobahn's Disconnected), and its websocket.disconnect follows, which this consumer
        must live to hear (so the seat is counted out and the group left). Left uncaught, the
        refusal ended the consumer with an error in the server's log (seen under load, when
        pages went away while their pushes were being drawn)."""
        with contextlib.suppress(Disconnected):
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def dispatch(self, message: dict) -> None:
        """Hand a message to its handler. Channels' own dispatch first hops to a worker thread to
        close stale database connections, for every message; these consumers touch the database
        only through socket_database, which does that itself in the thread it uses, so the
        extra hop (about 0.14 ms of CPU, three times a move) is left out."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class MatchConsumer(_Consumer):
    async def connect(self) -> None:
        self.user = _member(self.scope)
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.sent: dict[str, str] = {}
        self.seq: int | None = None  # of the board last sent
        self.seated = False
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.language = scope_language(self.scope)
        # Join before reading the board: a move made between the two is then heard, not lost.
        self.group = group_for(self.match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        # One hop to a database thread for all of it: read the board, count the member in, draw.
        text = await socket_database(self._arrive)()
        if text is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.accept()
        if text:
            await self.send(text_data=text)

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "group"):
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.seated:
            await socket_database(services.seat_disconnected)(
                match_id=self.match_id, user=self.user
            )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Moves go through HTTP, so that they are checked in one place; a page says only
        "resync" (static/js/match.js), when it took a board from elsewhere or passed over an older
        push: what it shows may then differ from what this socket sent, and the next push
        carries every region whole. Anything else is ignored."""
        if text_data == RESYNC:
            self.sent = {}

    async def match_changed(self, event: dict) -> None:
        await self._push(event, presenters.REGIONS)

    async def presence_changed(self, event: dict) -> None:
        await self._push(event, presenters.PRESENCE_REGIONS)  # only who is here, what to claim

    async def _push(self, event: dict, regions: tuple[str, ...]) -> None:
        heard, stamp = time.monotonic(), event.get("stamp")
        text = None
        kept = presenters.kept_board(self.match_id, stamp=stamp, heard=heard)
        if kept is None and "board" in event:  # a move made through another process
            kept = presenters.carried_board(self.match_id, stamp=stamp, data=event["board"])
        if kept is not None:
            # The board is at hand (a move made through this process or carried by its message,
            # or read by another of its sockets): drawn here on the event loop, without a hop
            # to the database thread and back. Should the drawing want the database after all,
            # Django refuses it here and the thread does it.
            try:
                text = self._from(kept, regions)
            except SynchronousOnlyOperation:
                text = None
        if text is None:
            text = await socket_database(self._changes)(stamp, heard, regions)
        if text:
            await self.send(text_data=text)

    # -- in the database thread ------------------------------------------------------------

    def _arrive(self) -> str | None:
        """Count the member in, and draw the whole table (less what the page already shows);
        None if there is no such match."""
        match = presenters.load_match(self.match_id)
        if match is None:
            return None
        self.seated = services.seat_for(match, self.user) is not None
        if self.seated:
            services.seat_connected(match_id=self.match_id, user=self.user)
        if _page_seq(self.scope) == match.seq:
            # The page was rendered from this very board: remember its fragments instead of
            # sending them again, so a half-made choice on the page is not wiped out.
            with translation.override(self.language):
                self.sent = dict(presenters.viewer_regions(match, self.user))
        return self._diff(match, presenters.REGIONS)

    def _changes(self, stamp: str | None, heard: float, regions: tuple[str, ...]) -> str:
        return self._from(presenters.shared_board(self.match_id, stamp=stamp, heard=heard), regions)

    def _from(self, match, regions: tuple[str, ...]) -> str:
        if match is None or (self.seq is not None and match.seq < self.seq):
            return ""  # an older board than the page's (the page would drop it)
        return self._diff(match, regions)

    def _diff(self, match, regions: tuple[str, ...]) -> str:
        if match.seq != self.seq:
            # A newer board than the page shows: every region that changed goes with its seq,
            # whatever the message was about (a presence change may be first to read a move).
            regions = presenters.REGIONS
        with translation.override(self.language):
            rendered = presenters.viewer_regions(match, self.user, regions)
        # Only once it is all drawn does the socket take it as sent (a drawing cut short, see
        # _push, leaves the socket as it was).
        self.seq = match.seq
        sent = self.sent
        changed = [
            fragments.changes(sent.get(region), html)
            for region, html in rendered.items()
            if sent.get(region) != html
        ]
        sent.update(rendered)
        return "".join(changed) + presenters.seq_marker(match)


def _member(scope):
    """The socket's user itself, not channels' lazy stand-in for it (resolved by the time a
    consumer connects): each push looks at it a few dozen times, and every look through the
    stand-in costs a proxy call."""
    user = scope.get("user")
    wrapped = getattr(user, "_wrapped", None) if isinstance(user, LazyObject) else None
    return user if wrapped is None or wrapped is empty else wrapped


def _page_seq(scope) -> int | None:
    """The seq of the board the page was rendered from (?seq=N on the socket's address)."""
    values = parse_qs(scope.get("query_string", b"").decode()).get("seq", [])
    try:
        return int(values[0]) if values else None
    except ValueError:
        return None


class LobbyConsumer(_Consumer):
    """The lobby's lists of open matches and the member's own, re-rendered when they change. A
    fresh connection gets the lists as they stand, which heals a page that missed changes while
    its socket was away (a server restarting, or cut off from Redis: cribsite/layers.py)."""

    async def connect(self) -> None:
        self.user = _member(self.scope)
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.language = scope_language(self.scope)
        await self.channel_layer.group_add(services.LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self.send(text_data=await socket_database(self._lists)())

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(services.LOBBY_GROUP, self.channel_name)

    async def lobby_changed(self, event: dict) -> None:
        await self.send(text_data=await socket_database(self._lists)())

    def _lists(self) -> str:
        with translation.override(self.language):
            context = {**presenters.lobby_context(self.user), "oob": True}
            return render_to_string("games/lobby.html#lists", context)
