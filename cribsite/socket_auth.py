"""Who holds a socket: channels' session and auth middleware, the member read in one of the
sockets' database threads (cribsite.threads) instead of channels' single one.

Channels resolves every socket's member (its session, then the user and the session's hash) in
the one thread it keeps for a process's database work, so a process's handshakes wait for one
another there. When one of two processes stopped with 700 matches playing and its pages all came
to the other, that thread was busy with session reads all the while, handshakes took longer than
daphne waits for one (5 s), were dropped, tried again, and some never got through in six tries.
With this, the sockets' other work at a handshake in the same one hop (games.consumers) and the
Redis connections shared (cribsite/redis_cache.py), all 700 came back. The member is found as
Django finds it for a page (django.contrib.auth.get_user: the session's backend, the user, the
session's hash, checked against SECRET_KEY_FALLBACKS too).
"""

from __future__ import annotations

from types import SimpleNamespace

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.contrib import auth

from cribsite.threads import socket_database


def _member(scope):
    return auth.get_user(SimpleNamespace(session=scope["session"]))


class SocketAuthMiddleware(AuthMiddleware):
    async def resolve_scope(self, scope) -> None:
        scope["user"]._wrapped = await socket_database(_member)(scope)


def SocketAuthStack(inner):  # noqa: N802 - named as channels' AuthMiddlewareStack
    return CookieMiddleware(SessionMiddleware(SocketAuthMiddleware(inner)))
