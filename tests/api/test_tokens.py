"""Personal API tokens: the account page that makes and revokes them, and the command."""

from __future__ import annotations

import hashlib
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts.models import ApiToken
from accounts.tokens import MAX_TOKENS, token_create
from tests.api.conftest import ApiClient

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'id="new-token"[^>]*value="(crib_[A-Za-z0-9_-]+)"')


def create(client, name: str):
    return client.post(reverse("api_tokens"), {"name": name})


def test_it_needs_a_login(client):
    response = client.get(reverse("api_tokens"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert client.post(reverse("api_token_revoke", args=[1])).status_code == 302


def test_it_links_from_the_account_page(client, alice):
    client.force_login(alice)
    assert reverse("api_tokens").encode() in client.get(reverse("edit_profile")).content


def test_it_creates_a_token_and_shows_it_once(client, alice):
    client.force_login(alice)
    page = client.get(reverse("api_tokens"))
    assert page.status_code == 200
    assert b"You have no tokens yet" in page.content
    assert b"css/tokens.css" in page.content

    response = create(client, "my bot")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    raw = TOKEN.search(response.content.decode()).group(1)
    row = ApiToken.objects.get(user=alice)
    assert row.name == "my bot"
    assert row.key_hash == hashlib.sha256(raw.encode()).hexdigest()
    assert raw not in str(ApiToken.objects.values_list())  # only the hash is stored
    assert row.hint == raw[:10]
    assert b"will not be shown again" in response.content

    again = client.get(reverse("api_tokens")).content.decode()
    assert raw not in again
    assert "my bot" in again and f"{row.hint}…" in again and "never" in again
    assert ApiClient(raw).get("/variants").status_code == 200
    assert "never" not in client.get(reverse("api_tokens")).content.decode()


@pytest.mark.parametrize(
    ("name", "message"),
    [("", "This field is required."), ("   ", "This field is required."),
     ("x" * 61, "at most 60 characters")],
)  # fmt: skip
def test_it_refuses_a_bad_name(client, alice, name, message):
    client.force_login(alice)
    response = create(client, name)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert 'id="new-token"' not in response.content.decode()
    assert not ApiToken.objects.exists()


def test_it_refuses_too_many_tokens(client, alice):
    for n in range(MAX_TOKENS):
        token_create(user=alice, name=f"bot {n}")
    client.force_login(alice)
    response = create(client, "one more")
    assert response.status_code == 400
    assert f"you have {MAX_TOKENS} tokens already" in response.content.decode()
    assert ApiToken.objects.filter(user=alice).count() == MAX_TOKENS


def test_it_revokes_a_token(client, alice):
    row, raw = token_create(user=alice, name="old bot")
    client.force_login(alice)
    page = client.get(reverse("api_tokens")).content.decode()
    assert reverse("api_token_revoke", args=[row.pk]) in page
    assert "return confirm(" in page
    response = client.post(reverse("api_token_revoke", args=[row.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("api_tokens")
    assert "is revoked" in response.content.decode()
    assert not ApiToken.objects.exists()
    assert ApiClient(raw).get("/variants").status_code == 401
    assert client.get(reverse("api_token_revoke", args=[row.pk])).status_code == 405


def test_another_members_token_is_404(client, alice, bob):
    row, raw = token_create(user=bob, name="bob's bot")
    client.force_login(alice)
    assert "bob&#x27;s bot" not in client.get(reverse("api_tokens")).content.decode()
    assert client.post(reverse("api_token_revoke", args=[row.pk])).status_code == 404
    assert client.post(reverse("api_token_revoke", args=[row.pk + 99])).status_code == 404
    assert ApiToken.objects.filter(pk=row.pk).exists()


def test_the_command_prints_only_the_token(alice):
    out, err = StringIO(), StringIO()
    call_command("api_token", "alice", "--name", "cron", stdout=out, stderr=err)
    raw = out.getvalue().strip()
    assert re.fullmatch(r"crib_[A-Za-z0-9_-]+", raw)
    row = ApiToken.objects.get(user=alice)
    assert row.name == "cron" and row.key_hash == hashlib.sha256(raw.encode()).hexdigest()
    assert ApiClient(raw).get("/variants").status_code == 200
    call_command("api_token", "alice", stdout=StringIO(), stderr=StringIO())
    assert ApiToken.objects.filter(user=alice, name="command line").exists()


def test_the_command_refuses_an_unknown_member(alice):
    with pytest.raises(CommandError, match="no member called 'zed'"):
        call_command("api_token", "zed", stdout=StringIO(), stderr=StringIO())
    with pytest.raises(CommandError, match="at most 60 characters"):
        call_command("api_token", "alice", "--name", "x" * 61, stdout=StringIO())
