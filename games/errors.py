"""The errors the match and tournament services raise. Imports nothing of the project, so views,
the API, consumers and other apps can all use them. `status` is the HTTP status to answer.
Messages are raised in the active language (the request's), already translated."""

from __future__ import annotations

from django.utils.translation import gettext


class ServiceError(Exception):
    """A request the service refuses. `status` is the HTTP status a view or API should answer."""

    status = 400

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class NotFound(ServiceError):
    status = 404


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    """The match is not in a state that allows this (over, not started, full)."""

    status = 409


class Stale(Conflict):
    """The move was made on an old board: `seq` is not the match's current one."""

    def __init__(self, seq: int) -> None:
        super().__init__(
            gettext("the board has moved on (now at move %(seq)s); look again and retry")
            % {"seq": seq}
        )
        self.seq = seq


class Illegal(ServiceError):
    """The engine refused the move; the message is the rule it breaks."""


__all__ = ["Conflict", "Forbidden", "Illegal", "NotFound", "ServiceError", "Stale"]
