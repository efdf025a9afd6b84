"""A password-reset mail that cannot be sent says so (and is logged), instead of claiming the
link is on its way; a mail server that is down answers alike for members and strangers."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.urls import reverse

pytestmark = pytest.mark.django_db

FAILURE = "could not send the mail"


class ServerDownBackend(BaseEmailBackend):
    """A mail server that cannot be reached (as SMTP's connection refused)."""

    def open(self):
        raise ConnectionRefusedError(111, "Connection refused")

    def send_messages(self, messages):
        self.open()


class RefusingBackend(BaseEmailBackend):
    """A server that answers, then fails while sending."""

    def send_messages(self, messages):
        raise OSError("the server hung up")


DOWN = "tests.web.test_password_reset_mail.ServerDownBackend"
REFUSING = "tests.web.test_password_reset_mail.RefusingBackend"


def test_it_tells_the_member_when_the_mail_cannot_be_sent(client, alice, settings, caplog):
    settings.EMAIL_BACKEND = REFUSING
    response = client.post(reverse("password_reset"), {"email": "alice@example.org"})
    assert response.status_code == 503
    page = response.content.decode()
    assert FAILURE in page and 'role="alert"' in page
    assert 'value="alice@example.org"' in page  # the form is kept for another try
    assert "could not be sent" in caplog.text


@pytest.mark.parametrize("email", ["alice@example.org", "stranger@example.org"])
def test_a_server_that_is_down_answers_alike_for_members_and_strangers(
    client, alice, settings, caplog, email
):
    settings.EMAIL_BACKEND = DOWN
    response = client.post(reverse("password_reset"), {"email": email})
    assert response.status_code == 503
    assert FAILURE in response.content.decode()
    assert "cannot be reached" in caplog.text


def test_the_message_is_in_spanish_for_a_spanish_page(client, alice, settings):
    settings.EMAIL_BACKEND = DOWN
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    response = client.post(reverse("password_reset"), {"email": "alice@example.org"})
    assert response.status_code == 503
    assert "No hemos podido enviar" in response.content.decode()


def test_a_mail_that_goes_still_leads_to_the_sent_page(client, alice, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = client.post(reverse("password_reset"), {"email": "alice@example.org"})
    assert response.status_code == 302 and response.url == reverse("password_reset_done")
    assert len(mail.outbox) == 1 and "alice" in mail.outbox[0].body
