"""Who is online: members with at least one page holding a live socket."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from accounts.models import Presence, User

GROUP = "presence"


def connect(*, user: User, channel_name: str) -> None:
    Presence.objects.update_or_create(
        channel_name=channel_name, defaults={"user": user, "seen": timezone.now()}
    )


def heartbeat(*, channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).update(seen=timezone.now())


def disconnect(*, channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).delete()


def online_count() -> int:
    """Members with a socket seen recently; sockets of a crashed server age out by themselves."""
    since = timezone.now() - timedelta(seconds=settings.PRESENCE_STALE_SECONDS)
    return Presence.objects.filter(seen__gte=since).values("user").distinct().count()


def prune() -> int:
    since = timezone.now() - timedelta(seconds=settings.PRESENCE_STALE_SECONDS)
    deleted, _ = Presence.objects.filter(seen__lt=since).delete()
    return deleted
