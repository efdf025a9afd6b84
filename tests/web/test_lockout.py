"""Repeated failed log-ins pause log-in for that username and address, then lift by themselves."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def attempt(client, password):
    return client.post(reverse("login"), {"username": "alice", "password": password})


def test_it_locks_out_after_repeated_failures_with_a_clear_message(client, alice, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert attempt(client, "wrong").status_code == 200
    response = attempt(client, "wrong")
    assert response.status_code == 429
    text = response.content.decode()
    assert "Log-in paused" in text
    assert "15 minutes" in text
    # Even the right password is refused while the pause lasts.
    assert attempt(client, PASSWORD).status_code == 429


def test_the_lockout_expires_by_itself(client, alice, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, "wrong")
    assert attempt(client, PASSWORD).status_code == 429
    # Move the failures back in time past the cool-off.
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time
        - settings.AXES_COOLOFF_TIME
        - timedelta(seconds=1)
    )
    response = attempt(client, PASSWORD)
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"] == alice


def test_a_success_clears_earlier_failures(client, alice, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        attempt(client, "wrong")
    assert attempt(client, PASSWORD).status_code == 302
    client.post(reverse("logout"))
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert attempt(client, "wrong").status_code == 200


def test_other_members_are_not_locked_out(client, alice, bob, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, "wrong")
    response = client.post(reverse("login"), {"username": "bob", "password": PASSWORD})
    assert response.status_code == 302
