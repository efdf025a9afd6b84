"""ASGI entry point: Django over HTTP, Channels consumers over WebSocket."""

import asyncio
import contextlib
import os
from concurrent.futures import ThreadPoolExecutor

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
django_asgi_app = get_asgi_application()  # set Django up before importing consumers

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core import signals  # noqa: E402
from django.core.exceptions import RequestAborted  # noqa: E402
from django.core.handlers.asgi import ASGIHandler, get_script_prefix  # noqa: E402
from django.core.handlers.base import BaseHandler  # noqa: E402
from django.urls import set_script_prefix  # noqa: E402

from cribsite.routing import websocket_urlpatterns  # noqa: E402
from games import computer, realtime  # noqa: E402

SERVICE_RESTART = 1012  # pages reconnect after this close code
FLUSH_SECONDS = 0.2  # for the close frames to leave before the server drops its connections


class CloseOnShutdown:
    """When the server stops, close each socket with 1012 so that its page reconnects.

    daphne cancels every connection's application when it stops, waits for the first of them
    to end, then drops every connection. A close frame only leaves once the event loop has
    turned after it was written, so every cancelled application (socket or page) ends a moment
    later, not at once: by then the frames are out. A page request's own thread finishes its
    work (a move is committed whole, or not at all) before the process exits.
    """

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        try:
            return await self.app(scope, receive, send)
        except asyncio.CancelledError:
            if scope["type"] == "websocket":
                with contextlib.suppress(Exception):
                    await send({"type": "websocket.close", "code": SERVICE_RESTART})
            await asyncio.sleep(FLUSH_SECONDS)
            raise


def _allow_service_restart_close() -> None:
    """daphne closes sockets through autobahn's `sendClose`, which lets an application send
    only 1000 or 3000-4999; 1012 (service restart, registered for servers to send) goes out
    through autobahn's frame writer instead."""
    from daphne.ws_protocol import WebSocketProtocol

    close = WebSocketProtocol.serverClose

    def server_close(self, code=None):
        if code == SERVICE_RESTART:
            self.sendCloseFrame(code=code, isReply=False)
        else:
            close(self, code)

    WebSocketProtocol.serverClose = server_close


_allow_service_restart_close()


class PooledHandler(ASGIHandler):
    """Django's pages the way a WSGI server runs them: each request's middleware, view and
    signals run start to end in one thread of a small pool, one hop from the event loop.

    Django's own ASGI handler gives every request a thread of its own (a new thread, and so a
    new database connection, per request) and hops between the loop and that thread around each
    middleware that is async-capable: most of what a small page costs. Here the pool's threads,
    and their database connections (CONN_MAX_AGE, health-checked at each request's start), are
    kept, and no request's thread ever waits on the event loop, so a stopping server never
    hangs on one. Streaming answers are left to Django's handler, as are async views (the
    API's long poll, see `application`)."""

    def __init__(self, threads: int) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="http")

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django serves HTTP here, not {scope['type']}")
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


application = StartComputer(
    CloseOnShutdown(
        ProtocolTypeRouter(
            {
                "http": _http(PooledHandler(settings.HTTP_THREADS), django_asgi_app),
                "websocket": AllowedHostsOriginValidator(
                    AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
                ),
            }
        )
    )
)
