"""Sign-up, log-in, log-out, passwords and profiles, including every kind of bad input."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

GOOD = {
    "username": "newbie",
    "display_name": "New Bie",
    "email": "newbie@example.org",
    "password1": "pegging-to-121!",
    "password2": "pegging-to-121!",
}


def signup(client, **changes):
    return client.post(reverse("signup"), {**GOOD, **changes})


def test_it_signs_up_and_logs_in(client):
    response = signup(client)
    assert response.status_code == 302
    assert response.url == reverse("home")
    user = User.objects.get(username="newbie")
    assert user.display_name == "New Bie"
    assert user.name == "New Bie"
    home = client.get(reverse("home"))
    assert home.context["user"] == user
    assert b"Welcome to the club, New Bie!" in home.content
    assert b"Log out" in home.content


def test_it_refuses_a_duplicate_username(client, alice):
    response = signup(client, username="alice")
    assert response.status_code == 400
    assert "username" in response.context["form"].errors
    assert b"already exists" in response.content


def test_it_refuses_a_duplicate_email_whatever_its_case(client, alice):
    response = signup(client, email="ALICE@example.org")
    assert response.status_code == 400
    assert response.context["form"].errors["email"] == [
        "Another member already uses this email address."
    ]


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("short1", "too short"),
        ("password123", "too common"),
        ("8237461928374", "entirely numeric"),
        ("newbie1234", "too similar"),
    ],
)
def test_it_refuses_a_weak_password(client, password, message):
    response = signup(client, password1=password, password2=password)
    assert response.status_code == 400
    assert message in " ".join(response.context["form"].errors["password2"])
    assert not User.objects.filter(username="newbie").exists()


def test_it_refuses_mismatched_passwords(client):
    response = signup(client, password2="something-else-entirely")
    assert response.status_code == 400
    assert "didn’t match" in " ".join(response.context["form"].errors["password2"])


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("username", "u" * 151),
        ("display_name", "d" * 51),
        ("email", "e" * 250 + "@example.org"),
        ("username", "has spaces!"),
        ("email", "not-an-email"),
        ("username", ""),
    ],
)
def test_it_names_the_field_of_bad_input(client, field, value):
    response = signup(client, **{field: value})
    assert response.status_code == 400
    assert field in response.context["form"].errors
    assert b'class="field-errors"' in response.content


def test_it_rejects_a_post_without_csrf_token(alice):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    response = strict.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 403
    response = strict.post(reverse("signup"), GOOD)
    assert response.status_code == 403
    assert not User.objects.filter(username="newbie").exists()


def test_it_logs_in_and_out(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"] == alice
    assert client.get(reverse("logout")).status_code == 405  # logging out is a POST
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_it_says_when_the_password_is_wrong(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "correct username and password" in response.context["form"].non_field_errors()[0]
    assert not response.context["user"].is_authenticated


def test_it_sends_a_member_who_is_logged_in_away_from_the_forms(client, alice):
    client.force_login(alice)
    assert client.get(reverse("login")).status_code == 302
    assert client.get(reverse("signup")).status_code == 302


def test_it_changes_the_password(client, alice):
    client.force_login(alice)
    url = reverse("password_change")
    response = client.post(
        url,
        {
            "old_password": "wrong",
            "new_password1": "a-new-pass-99",
            "new_password2": "a-new-pass-99",
        },
    )
    assert response.status_code == 200
    assert "old_password" in response.context["form"].errors
    response = client.post(
        url,
        {
            "old_password": PASSWORD,
            "new_password1": "a-new-pass-99",
            "new_password2": "x-new-pass-99",
        },
    )
    assert "new_password2" in response.context["form"].errors
    response = client.post(
        url,
        {
            "old_password": PASSWORD,
            "new_password1": "a-new-pass-99",
            "new_password2": "a-new-pass-99",
        },
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("a-new-pass-99")


def test_password_change_needs_a_member(client):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_it_resets_a_password_by_email(client, alice):
    response = client.post(reverse("password_reset"), {"email": "alice@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.org"]
    assert "alice" in message.body
    link = re.search(r"https?://[^/]+(/password-reset/\S+/)", message.body).group(1)
    form_page = client.get(link, follow=True)
    assert form_page.context["validlink"]
    response = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "reset-pass-4321", "new_password2": "reset-pass-4321"},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("reset-pass-4321")


def test_password_reset_does_not_tell_who_is_a_member(client):
    response = client.post(reverse("password_reset"), {"email": "stranger@example.org"})
    assert response.status_code == 302
    assert mail.outbox == []


def test_the_profile_page_is_public(client, alice):
    response = client.get(reverse("profile", args=["alice"]))
    assert response.status_code == 200
    assert b"Alice" in response.content
    assert b"@alice" in response.content
    assert b"alice@example.org" not in response.content  # emails stay private
    assert b"Match history" in response.content


def test_an_unknown_or_inactive_profile_is_404(client, make_member):
    assert client.get(reverse("profile", args=["nobody"])).status_code == 404
    make_member("gone", is_active=False)
    assert client.get(reverse("profile", args=["gone"])).status_code == 404


def test_a_member_edits_their_details(client, alice, bob):
    client.force_login(alice)
    response = client.post(
        reverse("edit_profile"), {"display_name": "Al", "email": "bob@example.org"}
    )
    assert response.status_code == 400
    assert "email" in response.context["form"].errors
    response = client.post(reverse("edit_profile"), {"display_name": "Al", "email": "al@ex.org"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert (alice.name, alice.email) == ("Al", "al@ex.org")


def test_the_home_page_shows_sign_in_state(client, alice):
    page = client.get(reverse("home")).content.decode()
    assert "Log in" in page and "Join the club" in page
    client.force_login(alice)
    page = client.get(reverse("home")).content.decode()
    assert "Log out" in page and 'href="/players/alice/"' in page


def test_every_page_carries_the_csrf_token_for_htmx(client):
    page = client.get(reverse("home")).content.decode()
    assert re.search(r'<body hx-headers=\'\{"X-CSRFToken": "[^"]+"\}\'>', page)
    assert "django_htmx/htmx-2.min.js" in page
    assert "django_htmx/ext/hx-ws-2.min.js" in page


@pytest.mark.parametrize("debug", [False, True])
def test_no_page_carries_django_htmx_debug_script(client, alice, settings, debug):
    """Under DEBUG (make run), django-htmx's debug script replaced the whole document with any
    400 answer to an htmx request: a refused move, whose 400 carries the message to show, left
    an unstyled page of bare fragments."""
    settings.DEBUG = debug
    client.force_login(alice)
    for name in ("home", "lobby"):
        page = client.get(reverse(name)).content.decode()
        assert "django_htmx/htmx-2.min.js" in page
        assert "django-htmx.js" not in page


def test_the_admin_lists_and_searches_members(client, dana, alice, bob):
    client.force_login(dana)
    response = client.get(reverse("admin:accounts_user_changelist"), {"q": "ali"})
    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == [alice]


def test_a_member_cannot_open_the_admin(client, alice):
    client.force_login(alice)
    response = client.get(reverse("admin:accounts_user_changelist"))
    assert response.status_code == 302
