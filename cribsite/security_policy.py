"""The Content-Security-Policy header, its text built once per process.

django-csp's middleware builds the policy's text afresh for every response, and the report-only
one too (through dataclasses.asdict and a copy of every directive): about a fifth of what a
trivial page cost the server, and 0.1 ms of every move's POST. The site's policy is the same for
every response unless a view changes it (django-csp's decorators) or a template asks for a
nonce, so here the text is built once from the settings (again when a test changes them), and a
response that has a policy of its own still goes the library's way.
"""

from __future__ import annotations

import http.client
from functools import lru_cache

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

# What a view sets on its response to change the policy (django-csp's decorators).
OWN_POLICY = (
    "_csp_config", "_csp_update", "_csp_replace",
    "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro",
)  # fmt: skip
DEBUG_PAGES = (http.client.INTERNAL_SERVER_ERROR, http.client.NOT_FOUND)  # left alone in DEBUG
POLICY_SETTINGS = {"CONTENT_SECURITY_POLICY", "CONTENT_SECURITY_POLICY_REPORT_ONLY"}


class KeptPolicyMiddleware(CSPMiddleware):
    """django-csp's CSPMiddleware, with the settings' policies built once."""

    def process_response(self, request, response):
        debug_page = settings.DEBUG and response.status_code in DEBUG_PAGES
        nonce = getattr(request, "_csp_nonce", None) is not None
        if debug_page or nonce or any(getattr(response, n, None) is not None for n in OWN_POLICY):
            return super().process_response(request, response)
        for header, text, exempt, excluded in _policies():
            if (
                text
                and getattr(response, exempt, False) is False
                and header not in response
                and not request.path_info.startswith(excluded)
            ):
                response[header] = text
        # As the library does: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response


@lru_cache(maxsize=1)
def _policies() -> tuple[tuple[str, str, str, tuple[str, ...]], ...]:
    """(header, its text, the response's exemption flag, the path prefixes left out), for the
    policy and the report-only policy, as the library builds them from the settings."""
    found = []
    for header, setting, exempt, report_only in (
        (HEADER, "CONTENT_SECURITY_POLICY", "_csp_exempt", False),
        (HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY", "_csp_exempt_ro", True),
    ):
        policy = getattr(settings, setting, None) or {}
        excluded = tuple(policy.get("EXCLUDE_URL_PREFIXES", None) or ())
        found.append((header, build_policy(report_only=report_only), exempt, excluded))
    return tuple(found)


@receiver(setting_changed)
def _forget_policies(*, setting: str, **kwargs) -> None:
    if setting in POLICY_SETTINGS:
        _policies.cache_clear()
