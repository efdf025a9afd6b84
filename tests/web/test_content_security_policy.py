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
