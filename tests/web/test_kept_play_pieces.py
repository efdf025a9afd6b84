"""The lobby's and the home page's one-click buttons and the lobby's "how to play" line are drawn
once for what they show and kept (cribsite/kept.py): each member still gets their own last game,
each request its own CSRF token in the forms, each language its own words, and a game added to
the site its own link."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from cribsite import kept
from games import services
from games.variants import web_games
from tests.web.test_kept_header import TOKEN_IN_FORM
from tests.web.test_kept_header import _member_client as _client

pytestmark = pytest.mark.django_db


def _buttons(html: str) -> str:
    return html[html.index('<div class="play-now"') : html.index("</div>", html.index("play-now"))]


def _how_to_play(html: str) -> str:
    start = html.index("New to a game?") if "New to a game?" in html else html.index("¿Nuevo")
    return html[start : html.index("</p>", start)]


def test_the_buttons_are_drawn_once_and_each_request_gets_its_own_token(alice):
    client = _client(alice)
    pages = [client.get(url).content.decode() for url in ("/play/", "/play/", "/play/")]
    assert kept.drawn["play_buttons"] == 1
    tokens = [re.findall(TOKEN_IN_FORM, _buttons(html)) for html in pages]
    assert all(len(set(found)) == 1 and len(found) == 2 for found in tokens)  # both forms
    assert len({found[0] for found in tokens}) == 3  # masked afresh for each request
    assert kept.CSRF_SLOT not in pages[-1]
    answer = client.post(reverse("play_computer"), {"csrfmiddlewaretoken": tokens[-1][0]})
    assert answer.status_code == 302


def test_the_home_page_links_its_buttons_to_the_lobby_the_lobby_to_its_own_form(alice):
    client = _client(alice)
    home, lobby = client.get("/").content.decode(), client.get("/play/").content.decode()
    assert 'href="/play/#new-title"' in _buttons(home)
    assert 'href="#new-title"' in _buttons(lobby)
    assert kept.drawn["play_buttons"] == 2


def test_each_member_is_offered_their_own_last_game(alice, bob):
    services.match_create(creator=alice, variant="testgame", players=2, computer_seats=[1])
    alices, bobs = (_buttons(_client(m).get("/play/").content.decode()) for m in (alice, bob))
    assert 'name="variant" value="testgame"' in alices
    assert 'name="variant" value="cribbage"' in bobs
    assert kept.drawn["play_buttons"] == 2
    services.match_create(creator=bob, variant="testgame", players=2, computer_seats=[1])
    assert 'value="testgame"' in _buttons(_client(bob).get("/play/").content.decode())
    assert kept.drawn["play_buttons"] == 2  # Bob's buttons are now Alice's, kept


def test_the_how_to_play_line_is_drawn_once_a_language_with_every_game(alice, bob):
    english = [_how_to_play(_client(m).get("/play/").content.decode()) for m in (alice, bob)]
    spanish = _how_to_play(_client(alice).get("/play/", HTTP_ACCEPT_LANGUAGE="es").content.decode())
    assert english[0] == english[1]
    assert kept.drawn["how_to_play"] == 2
    for web in web_games():
        assert f'href="{reverse("rules", args=[web.key])}"' in english[0]
        assert f'href="{reverse("rules", args=[web.key])}"' in spanish
    assert "How to play" in english[0] and "How to play" not in spanish


def test_a_game_added_to_the_site_gets_its_link(alice, monkeypatch):
    from games import variants

    client = _client(alice)
    before = _how_to_play(client.get("/play/").content.decode())
    kinds = dict(variants._WEB)
    gone = kinds.pop("testgame")
    monkeypatch.setattr(variants, "_WEB", kinds)
    fewer = _how_to_play(client.get("/play/").content.decode())
    monkeypatch.setattr(variants, "_WEB", {**kinds, "testgame": gone})
    again = _how_to_play(client.get("/play/").content.decode())
    link = f'href="{reverse("rules", args=["testgame"])}"'
    assert link in before and link not in fewer and again == before
