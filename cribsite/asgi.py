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


class CloseOnShutdown:
    """When the server stops, close each socket with 1012 so that its page reconnects."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        try:
            return await self.app(scope, receive, send)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": SERVICE_RESTART})
            raise


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
