"""How a member is signed in and found again on each request.

Every page, move and socket of a signed-in member reads the member by the id in the session.
Django's ModelBackend compiles that query's SQL anew each time (about 0.3 ms, five times what the
database spends running it); `MemberBackend` compiles it once (games.queries) and is otherwise
ModelBackend. Sessions begun before it was there name ModelBackend, which stays listed after it
(cribsite/settings.py) so that no member is signed out by the change.
"""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from accounts.models import User
from games.queries import CompiledRead

_member_by_id = CompiledRead(lambda pk: User._default_manager.filter(pk=pk))


class MemberBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        """ModelBackend's check; a wrong username or password is final, so that the ModelBackend
        listed after this one (for older sessions) does not hash the same password again."""
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None and password is not None:
            raise PermissionDenied  # Django then reports the failure (axes counts it) as usual
        return user

    def get_user(self, user_id):
        try:
            found = _member_by_id(int(user_id))
        except (TypeError, ValueError):
            return None
        return found[0] if found and self.user_can_authenticate(found[0]) else None
