"""A member's saved language wins over the browser's, on every device they sign in from."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation


class MemberLanguageMiddleware:
    """After LocaleMiddleware and authentication: switch to the member's `language` if set.

    LocaleMiddleware has already picked a language from the cookie or Accept-Language; a
    signed-in member who chose one in the switcher or on their account gets theirs instead.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        language = getattr(user, "language", "") if user is not None else ""
        if language and user.is_authenticated and language != request.LANGUAGE_CODE:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
