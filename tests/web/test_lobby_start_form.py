"""The lobby's blank start form is drawn once per language and shared; a form with errors is
drawn for its request; the CSRF token stays the request's own."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import views

pytestmark = pytest.mark.django_db


def test_it_draws_the_blank_form_once_per_language_and_keeps_each_token(client, alice, monkeypatch):
    drawn = []
    draw = views.render_to_string
    monkeypatch.setattr(views, "_blank_forms", {})
    monkeypatch.setattr(
        views, "render_to_string", lambda *args, **kw: drawn.append(args[0]) or draw(*args, **kw)
    )
    client.force_login(alice)
    pages = [
        client.get(reverse("lobby"), HTTP_ACCEPT_LANGUAGE=lang) for lang in ["en", "en", "es", "es"]
    ]
    assert all(page.status_code == 200 for page in pages)
    assert drawn == ["games/lobby.html#start_fields"] * 2  # English once, Spanish once
    html = [page.content.decode() for page in pages]
    assert "Start the match" in html[0] and "Empezar el encuentro" in html[2]
    assert 'name="cribbage__target"' in html[1] and 'name="cribbage__target"' in html[3]
    form_tokens = [
        re.search(r'action="/play/new/"[^>]*>\s*<input type="hidden" name="csrfmiddlewaretoken" '
                  r'value="([^"]+)"', page)
        for page in html
    ]  # fmt: skip
    assert all(form_tokens) and len({t.group(1) for t in form_tokens}) == 4


def test_a_form_with_errors_is_drawn_for_its_request(client, alice):
    client.force_login(alice)
    client.get(reverse("lobby"))  # the blank form is kept
    answer = client.post(reverse("match_create"), {"variant": "cribbage", "players": "9"})
    assert answer.status_code == 400
    assert "field-errors" in answer.content.decode()
    again = client.get(reverse("lobby")).content.decode()
    assert "field-errors" not in again
