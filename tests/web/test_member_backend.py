"""Signing in through accounts.backends.MemberBackend: the member read on every request compiled
once, a session begun under Django's ModelBackend still signed in, a password hashed once a try."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.hashers import get_hasher
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.backends import MemberBackend
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def log_in(client, password):
    return client.post(reverse("login"), {"username": "alice", "password": password})


def test_a_log_in_is_kept_under_the_member_backend(client, alice):
    assert log_in(client, PASSWORD).status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == "accounts.backends.MemberBackend"
    assert client.get(reverse("home")).context["user"] == alice


def test_a_sign_up_is_kept_under_the_member_backend(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.org",
            "display_name": "Newcomer",
            "password1": "a-long-pass-121-phrase",
            "password2": "a-long-pass-121-phrase",
        },
    )
    assert response.status_code == 302, response.content.decode()[:500]
    assert client.session[BACKEND_SESSION_KEY] == "accounts.backends.MemberBackend"


def test_a_session_begun_under_model_backend_stays_signed_in(client, alice):
    session = SessionStore()
    session[SESSION_KEY] = str(alice.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = alice.get_session_auth_hash()
    session.create()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    assert client.get(reverse("home")).context["user"] == alice


def test_the_member_is_read_by_one_query_with_the_same_fields_as_django_reads(alice):
    backend = MemberBackend()
    with CaptureQueriesContext(connection) as queries:
        found = backend.get_user(alice.pk)
    assert len(queries) == 1
    expected = type(alice).objects.get(pk=alice.pk)
    assert found is not None
    assert {f.attname: getattr(found, f.attname) for f in found._meta.concrete_fields} == {
        f.attname: getattr(expected, f.attname) for f in expected._meta.concrete_fields
    }
    assert found._state.db == expected._state.db and not found._state.adding


def test_no_member_for_an_unknown_or_bad_id_or_an_inactive_member(alice):
    backend = MemberBackend()
    assert backend.get_user(alice.pk + 1000) is None
    assert backend.get_user("not a number") is None
    assert backend.get_user(None) is None
    alice.is_active = False
    alice.save()
    assert backend.get_user(alice.pk) is None


def test_a_wrong_password_is_hashed_once_and_counted_once(client, alice, monkeypatch):
    hasher = get_hasher()
    calls = []
    real = type(hasher).verify

    def counted(self, password, encoded):
        calls.append(password)
        return real(self, password, encoded)

    monkeypatch.setattr(type(hasher), "verify", counted)
    assert log_in(client, "wrong").status_code == 200
    assert calls == ["wrong"]  # not a second time by ModelBackend, listed after MemberBackend
    assert AccessAttempt.objects.get().failures_since_start == 1
    calls.clear()
    assert log_in(client, PASSWORD).status_code == 302
    assert calls == [PASSWORD]
