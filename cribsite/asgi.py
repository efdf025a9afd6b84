"""ASGI entry point: Django over HTTP, Channels consumers over WebSocket."""

import asyncio
import contextlib
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
django_asgi_app = get_asgi_application()  # set Django up before importing consumers

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from cribsite.routing import websocket_urlpatterns  # noqa: E402
from games import computer, realtime  # noqa: E402

SERVICE_RESTART = 1012  # pages reconnect after this close code
FLUSH_SECONDS = 0.2  # for the close frames to leave before the server drops its connections


class CloseOnShutdown:
    """When the server stops, close each socket with 1012 so that its page reconnects.

    daphne cancels every connection's application when it stops, then drops the connections:
    the close frame only leaves if the event loop turns once more after it was written (Twisted
    writes on the loop's next turn), so the cancelled application waits a moment before ending.
    """

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        try:
            return await self.app(scope, receive, send)
        except asyncio.CancelledError:
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


class StartComputer:
    """Note the server's event loop and start the computer player's sweeper on it."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        realtime.remember_server_loop()
        computer.ensure_sweeper()
        return await self.app(scope, receive, send)


application = StartComputer(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": CloseOnShutdown(
                AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
            ),
        }
    )
)
