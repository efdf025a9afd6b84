"""Which language a visitor gets: the browser's first, then the switcher's, then the account's."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_browser_preference_picks_the_language_on_a_first_visit(client):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9,en;q=0.5")
    assert page["Content-Language"] == "es"
    assert '<html lang="es">' in page.content.decode()
    english = client.get("/", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
    assert english["Content-Language"] == "en"


def test_the_switcher_works_signed_out_and_goes_back_to_the_page(client):
    answer = client.post("/language/", {"language": "es", "next": "/tournaments/"})
    assert answer.status_code == 302 and answer["Location"] == "/tournaments/"
    assert client.get("/")["Content-Language"] == "es"
    # Only the other language is offered, in its own words.
    assert 'lang="en"' in client.get("/").content.decode()


def test_the_switcher_does_not_follow_a_next_to_another_site(client):
    answer = client.post("/language/", {"language": "es", "next": "https://evil.example/"})
    assert answer.status_code == 302 and answer["Location"] == "/"


def test_an_unknown_language_is_refused_with_the_field_named(client):
    answer = client.post("/language/", {"language": "xx"})
    assert answer.status_code == 400
    assert "language" in answer.content.decode()


def test_a_members_choice_is_saved_and_followed_on_another_device(client, alice):
    from django.test import Client

    client.force_login(alice)
    client.post("/language/", {"language": "es"}, HTTP_ACCEPT_LANGUAGE="en")
    alice.refresh_from_db()
    assert alice.language == "es"
    other_device = Client(HTTP_ACCEPT_LANGUAGE="en-US,en")
    other_device.force_login(alice)
    assert other_device.get("/")["Content-Language"] == "es"


def test_a_member_without_a_choice_gets_the_browsers_language(client, alice):
    client.force_login(alice)
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="es")["Content-Language"] == "es"


def test_after_the_language_is_chosen_the_request_holds_the_member_itself(rf, alice):
    """Reading the member's language reads the member; from then on `request.user` is the
    member, not Django's lazy stand-in (whose every attribute read raises and catches)."""
    from django.contrib.auth import get_user
    from django.http import HttpResponse
    from django.utils.functional import SimpleLazyObject

    from accounts.middleware import MemberLanguageMiddleware

    seen = {}

    def view(request):
        seen["user"] = request.user
        return HttpResponse("ok")

    request = rf.get("/")
    request.LANGUAGE_CODE = "en"
    request.user = SimpleLazyObject(lambda: alice)
    MemberLanguageMiddleware(view)(request)
    assert type(seen["user"]) is type(alice) and seen["user"].pk == alice.pk

    request = rf.get("/")  # no one signed in: the anonymous user, likewise unwrapped
    request.LANGUAGE_CODE = "en"
    request.session = {}
    request.user = SimpleLazyObject(lambda: get_user(request))
    MemberLanguageMiddleware(view)(request)
    assert not isinstance(seen["user"], SimpleLazyObject)
    assert not seen["user"].is_authenticated
