"""Content-Security-Policy: every page says scripts come only from this site."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/", "/login/", "/tournaments/", "/api/v1/docs"])
def test_pages_send_a_policy_without_inline_script_or_eval(client, path):
    answer = client.get(path)
    policy = answer.headers.get("Content-Security-Policy", "")
    directives = dict(
        (part.split(" ", 1) + [""])[:2] for part in (p.strip() for p in policy.split(";")) if part
    )
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["object-src"] == "'none'"


@pytest.mark.parametrize("path", ["/", "/login/", "/signup/", "/tournaments/", "/leaderboards/"])
def test_pages_carry_no_inline_script(client, path):
    html = client.get(path).content.decode()
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag or 'type="application/json"' in tag, tag
    assert not re.search(r"\son[a-z]+=", html), "inline event handler attributes are blocked"


def _both(request_path="/", respond=None, use_nonce=False):
    """The headers the library's middleware and the site's give the same response."""
    from csp.middleware import CSPMiddleware
    from django.http import HttpResponse
    from django.test import RequestFactory

    from cribsite.security_policy import KeptPolicyMiddleware

    answers = []
    for middleware in (CSPMiddleware, KeptPolicyMiddleware):
        request = RequestFactory().get(request_path)

        def view(request):
            if use_nonce:
                str(request.csp_nonce)  # a template asking for the nonce
            response = HttpResponse("page")
            if respond:
                respond(response)
            return response

        response = middleware(view)(request)
        answers.append({h: v for h, v in response.headers.items() if "Security-Policy" in h})
    return answers


def _set(**attributes):
    return lambda response: [setattr(response, k, v) for k, v in attributes.items()]


@pytest.mark.parametrize(
    "respond, use_nonce",
    [
        (None, False),
        (None, True),  # the nonce goes into the header: the library's way
        (_set(_csp_exempt=True), False),
        (_set(_csp_update={"img-src": ["https://example.org"]}), False),
        (_set(_csp_replace={"script-src": None}), False),
        (_set(_csp_config={"default-src": ["'none'"]}), False),
        (lambda response: response.headers.__setitem__("Content-Security-Policy", "x"), False),
    ],
)
def test_the_kept_policy_is_the_librarys_for_every_response(respond, use_nonce):
    library, kept = _both(respond=respond, use_nonce=use_nonce)
    assert kept == library
    if respond is None:
        assert "script-src 'self'" in kept["Content-Security-Policy"]


def test_the_kept_policy_follows_the_settings():
    from django.test import override_settings

    before, _ = _both()
    changed = {"DIRECTIVES": {"default-src": ["'none'"]}, "EXCLUDE_URL_PREFIXES": ["/skip/"]}
    with override_settings(
        CONTENT_SECURITY_POLICY=changed,
        CONTENT_SECURITY_POLICY_REPORT_ONLY={"DIRECTIVES": {"img-src": ["'self'"]}},
    ):
        library, kept = _both()
        assert kept == library
        assert kept["Content-Security-Policy"] == "default-src 'none'"
        assert "img-src 'self'" in kept["Content-Security-Policy-Report-Only"]
        library, kept = _both("/skip/page")
        assert kept == library and "Content-Security-Policy" not in kept
    assert _both() == [before, before]


def test_a_nonce_asked_for_after_the_header_is_refused():
    from csp.exceptions import CSPNonceError
    from django.http import HttpResponse
    from django.test import RequestFactory

    from cribsite.security_policy import KeptPolicyMiddleware

    request = RequestFactory().get("/")
    KeptPolicyMiddleware(lambda request: HttpResponse("page"))(request)
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)
