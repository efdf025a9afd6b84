"""Personal API tokens: create, revoke, and look up the member a bearer token belongs to."""

from __future__ import annotations

import hashlib
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import ApiToken, User

MAX_TOKENS = 10


class TokenError(ValueError):
    pass


def token_create(*, user: User, name: str) -> tuple[ApiToken, str]:
    """A new token for `user`; returns the row and the token text, which is never stored."""
    name = (name or "").strip()
    if not name:
        raise TokenError(gettext("give the token a name, such as 'my bot'"))
    if len(name) > 60:
        raise TokenError(gettext("a token name has at most 60 characters"))
    with transaction.atomic():
        if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS:
            raise TokenError(
                gettext("you have %(count)d tokens already: revoke one first")
                % {"count": MAX_TOKENS}
            )
        raw = ApiToken.PREFIX + secrets.token_urlsafe(32)
        token = ApiToken.objects.create(user=user, name=name, key_hash=_hash(raw), hint=raw[:10])
    return token, raw


def token_revoke(*, user: User, token_id: int) -> bool:
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def user_for_token(raw: str) -> User | None:
    """The active member a bearer token belongs to, or None."""
    if not raw or not raw.startswith(ApiToken.PREFIX) or len(raw) > 100:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(key_hash=_hash(raw), user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user


def _hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()
