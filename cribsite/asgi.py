"""ASGI entry point: Django over HTTP, Channels consumers over WebSocket."""

import asyncio
import gc
import logging
import os
import weakref

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
django_asgi_app = get_asgi_application()  # set Django up before importing consumers

from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core import signals  # noqa: E402
from django.core.exceptions import RequestAborted  # noqa: E402
from django.core.handlers.asgi import ASGIHandler, get_script_prefix  # noqa: E402
from django.core.handlers.base import BaseHandler  # noqa: E402
from django.urls import set_script_prefix  # noqa: E402

from cribsite import layers  # noqa: E402
from cribsite.routing import websocket_urlpatterns  # noqa: E402
from cribsite.socket_auth import SocketAuthStack  # noqa: E402
from cribsite.threads import KeptThreads  # noqa: E402
from games import computer, realtime  # noqa: E402

# Python's cyclic garbage collector, tuned for a long-lived server (see _settle_heap).
GC_YOUNG_OBJECTS = 10_000  # new objects between young collections (Python's default: 700)
GC_OLDER_EVERY = 20  # young collections between older ones, and older between full (10, 10)
SERVICE_RESTART = 1012  # pages reconnect after this close code
SETTLE_SECONDS = 3.0  # the longest a stopping server waits for its applications to end
FLUSH_SECONDS = 0.2  # for the last frames to leave before the server drops its connections
LET_GO_SECONDS = 1.0  # the longest a stopping server waits for the channel layer to let go


def _close_sockets_on_shutdown() -> None:
    """When daphne stops, it closes every open socket with 1012 itself, so that each page
    reconnects (to another process, or to this one once it is back).

    daphne's own shutdown cancels every application and drops every connection as soon as the
    first of them has ended. A task cancelled before it first ran ends at once, and a busy
    server always has some, so the close frames an application sends on its way out were often
    never written (the pages saw 1006 and did not know to come back). Here the server writes a
    1012 close frame to each open socket first, whatever its application is doing, lets go of
    the channel layer (on Redis, cribsite.layers.PubSubLayer.let_go: its subscriptions go with
    its connection, where each socket's clean-up would otherwise unsubscribe on its own, hundreds
    queued on one lock and cancelled again when time ran out), then cancels the applications
    and waits for them (at most SETTLE_SECONDS) and for the frames to leave. A page request's
    own thread finishes its work (a move is committed whole, or not at all) before the process
    exits.

    autobahn lets an application close only with 1000 or 3000-4999; 1012 (service restart,
    registered for servers to send) goes out through its frame writer instead."""
    from daphne.server import Server
    from daphne.ws_protocol import WebSocketProtocol
    from twisted.internet import defer

    close = WebSocketProtocol.serverClose

    def server_close(self, code=None):
        if code == SERVICE_RESTART:
            self.sendCloseFrame(code=code, isReply=False)
        else:
            close(self, code)

    async def settle(instances) -> None:
        layer = get_channel_layer()
        if layer is not None:
            try:
                let_go = getattr(layer, "let_go", layer.flush)  # PubSubLayer's, on Redis
                await asyncio.wait_for(let_go(), LET_GO_SECONDS)
            except Exception:  # noqa: BLE001 - stopping all the same
                logging.getLogger("daphne.server").warning("The channel layer did not let go")
        for instance in instances:
            instance.cancel()
        if instances:
            await asyncio.wait(instances, timeout=SETTLE_SECONDS)
        await asyncio.sleep(FLUSH_SECONDS)

    def kill_all_applications(self):
        closed = _close_open_sockets(self)
        instances = [
            details["application_instance"]
            for details in self.connections.values()
            if details.get("application_instance") and not details["application_instance"].done()
        ]
        logging.getLogger("daphne.server").info(
            "Closed %d sockets with %d and cancelling %d applications",
            closed,
            SERVICE_RESTART,
            len(instances),
        )
        return defer.Deferred.fromFuture(asyncio.ensure_future(settle(instances)))

    build = Server.__init__

    def init(self, *args, **kwargs):
        build(self, *args, **kwargs)
        _servers.add(self)

    WebSocketProtocol.serverClose = server_close
    Server.kill_all_applications = kill_all_applications
    Server.__init__ = init


_servers: weakref.WeakSet = weakref.WeakSet()  # the daphne servers of this process (one)


def _close_open_sockets(server) -> int:
    """Close every open socket of `server` with 1012; how many there were."""
    from autobahn.websocket.protocol import WebSocketProtocol as Autobahn
    from daphne.ws_protocol import WebSocketProtocol

    closed = 0
    for protocol in list(server.connections):
        if isinstance(protocol, WebSocketProtocol) and protocol.state == Autobahn.STATE_OPEN:
            protocol.serverClose(code=SERVICE_RESTART)
            closed += 1
    return closed


def _reconnect_every_page() -> None:
    """After the channel layer's subscriptions came back from a cut (cribsite.layers), close
    every socket with 1012: each page reconnects and is handed the board as it now stands,
    whatever was published while this process could not hear it."""
    closed = sum(_close_open_sockets(server) for server in list(_servers))
    logging.getLogger("daphne.server").warning(
        "Closed %d sockets with %d after a cut from the channel layer", closed, SERVICE_RESTART
    )


_close_sockets_on_shutdown()
layers.after_reconnect.append(_reconnect_every_page)

# The compressor's window: 8 KB holds the push before (a push repeats much of the last one, so
# it leaves at ~0.3 KB; at 4 KB it would be ~1.5 KB), in about 64 KB of memory a socket.
DEFLATE_WINDOW_BITS = 13
DEFLATE_MEM_LEVEL = 6


def _offer_compression() -> None:
    """Accept a browser's permessage-deflate offer on every socket daphne opens (daphne leaves
    autobahn's default, which declines every offer)."""
    from autobahn.websocket.compress import PerMessageDeflateOffer, PerMessageDeflateOfferAccept
    from daphne.ws_protocol import WebSocketFactory

    def accept(offers):
        for offer in offers:
            if isinstance(offer, PerMessageDeflateOffer):
                bits = DEFLATE_WINDOW_BITS
                if offer.request_max_window_bits:
                    bits = min(bits, offer.request_max_window_bits)
                return PerMessageDeflateOfferAccept(
                    offer, window_bits=bits, mem_level=DEFLATE_MEM_LEVEL
                )
        return None

    build = WebSocketFactory.__init__

    def init(self, *args, **kwargs):
        build(self, *args, **kwargs)
        self.setProtocolOptions(perMessageCompressionAccept=accept)

    WebSocketFactory.__init__ = init


if settings.WS_COMPRESSION:
    _offer_compression()


def _leave_request_bodies_to_django() -> None:
    """daphne hands a request's body to Django untouched, but twisted, beneath it, first parsed
    every form POST's body on its own (its Content-Type through the email package, then the
    fields), for arguments nobody reads: about 4% of the server's CPU while matches play, every
    move being a form POST, and a second copy in memory of every multipart upload. Twisted's
    own switch (parsePOSTFormSubmission) turns that off; the query string is still parsed."""
    from daphne.http_protocol import WebRequest

    build = WebRequest.__init__

    def init(self, *args, **kwargs):
        kwargs.setdefault("parsePOSTFormSubmission", False)
        build(self, *args, **kwargs)

    WebRequest.__init__ = init


_leave_request_bodies_to_django()


class PooledHandler(KeptThreads, ASGIHandler):
    """Django's pages the way a WSGI server runs them: each request's middleware, view and
    signals run start to end in one thread of a small pool, one hop from the event loop.

    Django's own ASGI handler gives every request a thread of its own (a new thread, and so a
    new database connection, per request) and hops between the loop and that thread around each
    middleware that is async-capable: most of what a small page costs. Here the pool's threads,
    and their database connections (CONN_MAX_AGE, health-checked at each request's start), are
    kept, and no request's thread ever waits on the event loop, so a stopping server never
    hangs on one. Streaming answers are left to Django's handler, as are async views (the
    API's long poll, see `application`). close_connections and in_every_thread are
    KeptThreads'."""

    def __init__(self, threads: int) -> None:
        BaseHandler.__init__(self)
        KeptThreads.__init__(self, threads, "http")
        self.load_middleware(is_async=False)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django serves HTTP here, not {scope['type']}")
        self.served = True
        try:
            body = await self.read_body(receive)
        except RequestAborted:
            return
        loop = asyncio.get_running_loop()
        response = await loop.run_in_executor(self.pool, self._respond, scope, body)
        try:
            await self.send_response(response, send)
        finally:
            if response.streaming:
                await loop.run_in_executor(self.pool, response.close)

    def _respond(self, scope, body):
        """In a pool thread: the whole request, closed here unless it streams."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
        if not response.streaming:
            response.close()  # request_finished: old or broken connections are closed here
        body.close()
        return response


def _http(pooled, standard):
    """The API (whose long poll is an async view) through Django's handler, the rest pooled."""

    async def route(scope, receive, send):
        handler = standard if scope["path"].startswith("/api/") else pooled
        return await handler(scope, receive, send)

    return route


class StartComputer:
    """Note the server's event loop and start the computer player's sweeper on it."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        realtime.remember_server_loop()
        computer.ensure_sweeper()
        return await self.app(scope, receive, send)


pages = PooledHandler(settings.HTTP_THREADS)
application = StartComputer(
    ProtocolTypeRouter(
        {
            "http": _http(pages, django_asgi_app),
            "websocket": AllowedHostsOriginValidator(
                SocketAuthStack(URLRouter(websocket_urlpatterns))
            ),
        }
    )
)


def _settle_heap() -> None:
    """Keep the garbage collector off what the process holds for good.

    Everything loaded to serve (Django, the URLs and every view, channels, twisted, the
    translations) stays for the life of the process, yet each full collection walked all of it
    again: 100 ms or more at a time, every few hundred moves. Frozen once loaded (gc.freeze),
    it is never looked at again; new objects are still collected. Young collections come after
    10,000 new objects instead of 700: a move's short-lived objects then mostly die before one
    comes, so fewer live on into the older generations only to be walked there again. In
    process, 500 moves drawn for 2 seats and a spectator spent 430 ms collecting with Python's
    defaults, 150 ms with these."""
    from django.urls import get_resolver
    from django.utils import translation

    get_resolver().url_patterns  # noqa: B018 - import every view now, to be frozen with the rest
    for code, _ in settings.LANGUAGES:
        with translation.override(code):  # activating a language loads its catalogue
            pass
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_OBJECTS, GC_OLDER_EVERY, GC_OLDER_EVERY)


_settle_heap()
