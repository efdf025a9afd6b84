"""The site's header is drawn once per member, address and language and kept (cribsite/kept.py):
each request still gets its own CSRF token in its forms, and every member their own header."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.test import Client

from cribsite import kept
from tests.conftest import signed_in

pytestmark = pytest.mark.django_db

TOKEN_IN_FORM = r'name="csrfmiddlewaretoken" value="([^"]+)"'


def _header(html: str) -> str:
    return html[html.index('<header class="site-header">') : html.index("</header>")]


def _member_client(user) -> Client:
    return signed_in(user, enforce_csrf_checks=True)


def test_a_member_header_is_drawn_once_and_each_request_gets_its_own_token(alice):
    client = _member_client(alice)
    pages = [client.get("/").content.decode() for _ in range(3)]
    assert kept.drawn["header"] == 1
    tokens = []
    for html in pages:
        assert kept.CSRF_SLOT not in html
        in_header = set(re.findall(TOKEN_IN_FORM, _header(html)))
        htmx = re.findall(r'"X-CSRFToken": "([^"]+)"', html)
        assert len(in_header) == 1 and in_header == set(htmx)  # log-out and language forms
        tokens.append(in_header.pop())
    assert len(set(tokens)) == 3  # masked afresh for each request
    # the kept header is the one drawn, token apart
    unmasked = {re.sub(TOKEN_IN_FORM, "", _header(html)) for html in pages}
    assert len(unmasked) == 1
    # and its form works with the token it was given
    answer = client.post("/logout/", {"csrfmiddlewaretoken": tokens[-1]})
    assert answer.status_code == 302


def test_each_member_sees_their_own_header(alice, bob, dana):
    headers = {
        user.username: _header(_member_client(user).get("/").content.decode())
        for user in (alice, bob, dana)
    }
    assert 'href="/players/alice/"' in headers["alice"] and "Bob" not in headers["alice"]
    assert 'href="/players/bob/"' in headers["bob"] and "Alice" not in headers["bob"]
    assert "Admin" in headers["dana"] and "Admin" not in headers["alice"]
    anonymous = _header(Client().get("/").content.decode())
    assert "Log in" in anonymous and "Log out" not in anonymous
    assert kept.drawn["header"] == 4


def test_a_new_display_name_shows_at_once(alice):
    client = _member_client(alice)
    assert ">Alice</a>" in _header(client.get("/").content.decode())
    alice.display_name = "Alice the Bold"
    alice.save()
    assert ">Alice the Bold</a>" in _header(client.get("/").content.decode())


def test_the_page_being_read_is_marked_and_the_language_kept_apart(alice):
    client = _member_client(alice)
    home = _header(client.get("/").content.decode())
    lobby = _header(client.get("/play/").content.decode())
    assert re.search(r'href="/"\s+aria-current="page"', home)
    assert re.search(r'href="/play/"\s+aria-current="page"', lobby)
    assert not re.search(r'href="/"\s+aria-current', lobby)
    board = _header(client.get("/leaderboards/cribbage/").content.decode())
    assert re.search(r'href="/leaderboards/"\s+aria-current="page"', board)
    spanish = _header(client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode())
    english = _header(client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "Cerrar sesión" in spanish
    assert "Log out" in english and "Log out" not in spanish


def test_a_piece_drawn_without_a_token_is_never_kept():
    piece = Template("{% load kept %}{% kept form %}<form>{% csrf_token %}</form>{% endkept %}")
    assert piece.render(Context({})) == "<form></form>"
    assert kept.drawn == {}
    first = piece.render(Context({"csrf_token": "first-token"}))
    second = piece.render(Context({"csrf_token": "second-token"}))
    assert 'value="first-token"' in first and 'value="second-token"' in second
    assert kept.drawn == {"form": 1}


def test_a_piece_needs_a_name():
    from django.template import TemplateSyntaxError

    with pytest.raises(TemplateSyntaxError, match="needs a name"):
        Template("{% load kept %}{% kept %}x{% endkept %}")


def test_a_piece_without_a_form_leaves_the_token_alone():
    class Token:
        asked = 0

        def __str__(self):
            Token.asked += 1
            return "a-token"

    piece = Template("{% load kept %}{% kept plain %}<p>no form</p>{% endkept %}")
    assert piece.render(Context({"csrf_token": Token()})) == "<p>no form</p>"
    assert piece.render(Context({"csrf_token": Token()})) == "<p>no form</p>"
    assert Token.asked == 0  # a lazy token is not masked (nor its cookie set) for nothing


def test_the_head_s_links_are_drawn_once_for_every_page(alice):
    """Style sheets, icon and scripts: the same on every page in this process."""
    client = _member_client(alice)
    pages = [client.get(path).content.decode() for path in ("/", "/play/", "/play/", "/")]
    assert kept.drawn["head_links"] == 1 and kept.drawn["lobby_links"] == 1
    for html in pages:
        head = html[: html.index("</head>")]
        for asset in ("css/site.css", "css/live.css", "img/peg.svg", "django_htmx/", "js/live.js"):
            assert asset in head, asset
    assert all("js/lobby.js" in html for html in pages[1:3])
    assert not any("js/lobby.js" in html for html in (pages[0], pages[3]))


def test_a_kept_piece_s_nodes_are_not_walked_and_the_blocks_around_it_still_work():
    """Django walks a parent template's every node for its blocks at each `{% extends %}`
    render; a kept piece hides its own (it is drawn whole), and blocks beside it are found."""
    from django.template import engines
    from django.template.base import Node, VariableNode

    engine = engines["django"].engine
    parent = engine.from_string(
        "{% load kept %}<title>{% block title %}site{% endblock %}</title>"
        "{% kept walked user_name %}<nav>{{ user_name }}{{ user_name|upper }}</nav>{% endkept %}"
        "{% block content %}{% endblock %}"
    )
    nodes = parent.nodelist.get_nodes_by_type(Node)
    assert any(isinstance(node, kept.KeptNode) for node in nodes)
    assert not any(isinstance(node, VariableNode) for node in nodes)  # the piece's insides

    child = engine.from_string(
        "{% extends parent %}{% block title %}match{% endblock %}{% block content %}<p>"
        "{{ user_name }}</p>{% endblock %}"
    )
    html = child.render(Context({"parent": parent, "user_name": "ann", "csrf_token": "t"}))
    assert html == "<title>match</title><nav>annANN</nav><p>ann</p>"
