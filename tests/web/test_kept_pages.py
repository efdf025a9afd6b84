"""The lobby and the match page are kept whole (cribsite.kept.kept_page) while what they show
stays the same: drawn once for the member, the address, the language and the page's own key,
then handed out again with each request's own CSRF token. Anything the page shows that changes
(the lists, the board, the member's name or settings, a waiting message) draws it afresh."""

from __future__ import annotations

import re

import pytest

from cribsite import kept
from games import presenters, services
from games.models import Match
from tests.conftest import signed_in
from tests.web.random_states import play_moves

pytestmark = pytest.mark.django_db

TOKEN = r'"X-CSRFToken": "([^"]+)"'
FORM_TOKEN = r'name="csrfmiddlewaretoken" value="([^"]+)"'
LOBBY, TABLE = "page games/lobby.html", "page games/match.html"


def _without_tokens(html: str) -> str:
    return re.sub(FORM_TOKEN, "", re.sub(TOKEN, "", html))


def test_the_lobby_is_drawn_once_and_each_request_gets_its_own_working_token(alice, bob):
    open_match = services.match_create(creator=bob, variant="cribbage", players=2)
    client = signed_in(alice, enforce_csrf_checks=True)
    pages = [client.get("/play/").content.decode() for _ in range(3)]
    assert kept.drawn[LOBBY] == 1
    tokens = [re.findall(TOKEN, html)[0] for html in pages]
    assert len(set(tokens)) == 3  # each masked afresh
    for html, token in zip(pages, tokens, strict=True):
        assert kept.CSRF_SLOT not in html
        assert set(re.findall(FORM_TOKEN, html)) == {token}  # every form, the join one too
    assert len({_without_tokens(html) for html in pages}) == 1
    joined = client.post(f"/matches/{open_match.pk}/join/", {"csrfmiddlewaretoken": tokens[0]})
    assert joined.status_code == 302


def test_the_lobby_is_drawn_again_when_its_lists_change(alice, bob):
    client = signed_in(alice)
    assert "No open matches" in client.get("/play/").content.decode()
    match = services.match_create(creator=bob, variant="cribbage", players=2)
    shown = client.get("/play/").content.decode()
    assert f'id="open-match-{match.pk}"' in shown
    services.match_join(match_id=match.pk, user=alice)  # now in play: the other list
    shown = client.get("/play/").content.decode()
    assert f'id="open-match-{match.pk}"' not in shown
    assert "None right now." not in shown and match.get_absolute_url() in shown
    assert kept.drawn[LOBBY] == 3


def test_each_member_language_and_setting_gets_its_own_page(alice, bob):
    lobby = {member.username: signed_in(member).get("/play/").content.decode()
             for member in (alice, bob)}  # fmt: skip
    assert ">Alice</a>" in lobby["alice"] and ">Bob</a>" not in lobby["alice"]
    assert ">Bob</a>" in lobby["bob"]
    client = signed_in(alice)
    assert (
        "Empezar el encuentro" in client.get("/play/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    )
    alice.display_name, alice.motion = "Alice the Bold", False
    alice.save()
    shown = client.get("/play/").content.decode()
    assert ">Alice the Bold</a>" in shown and 'data-motion="off"' in shown
    shown = client.get("/play/?from=mail").content.decode()  # the address, in the header's form
    assert 'name="next" value="/play/?from=mail"' in shown
    assert kept.drawn[LOBBY] == 5


def test_a_waiting_message_is_shown_once_on_a_page_drawn_for_it(alice, bob):
    match = services.match_create_seated(creator=alice, players=[alice, bob], variant="cribbage")
    client = signed_in(alice)
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'class="messages"' not in page
    # a move from a page without htmx that cannot be read: told on the page it is sent back to
    answer = client.post(f"/matches/{match.pk}/move/", {"seq": "abc", "move": "{}"})
    assert answer.status_code == 302
    told = client.get(match.get_absolute_url()).content.decode()
    assert 'class="messages"' in told
    again = client.get(match.get_absolute_url()).content.decode()
    assert 'class="messages"' not in again and again == page.replace(
        re.findall(TOKEN, page)[0], re.findall(TOKEN, again)[0]
    )


def test_the_table_is_kept_for_each_viewer_and_board(alice, bob, charlie):
    match = services.match_create_seated(creator=alice, players=[alice, bob], variant="cribbage")
    viewers = {"alice": signed_in(alice), "bob": signed_in(bob), "spectator": signed_in(charlie)}
    pages = {name: client.get(match.get_absolute_url()).content.decode()
             for name, client in viewers.items()}  # fmt: skip
    again = {name: client.get(match.get_absolute_url()).content.decode()
             for name, client in viewers.items()}  # fmt: skip
    assert kept.drawn[TABLE] == 3  # one a viewer: each seat's own hand, the spectator's none
    assert len({_without_tokens(html) for html in pages.values()}) == 3
    for name, html in again.items():
        assert _without_tokens(html) == _without_tokens(pages[name])
    play_moves(match.pk, {0: alice, 1: bob}, 2, seed=5)
    seq = Match.objects.get(pk=match.pk).seq
    moved = viewers["alice"].get(match.get_absolute_url()).content.decode()
    assert f'data-seq="{seq}"' in moved and kept.drawn[TABLE] == 4


def test_the_kept_table_s_token_works_for_a_move(alice, bob):
    match = services.match_create_seated(creator=alice, players=[alice, bob], variant="cribbage")
    client = signed_in(alice, enforce_csrf_checks=True)
    client.get(match.get_absolute_url())
    html = client.get(match.get_absolute_url()).content.decode()
    assert kept.drawn[TABLE] == 1
    token = re.findall(TOKEN, html)[0]
    answer = client.post(
        f"/matches/{match.pk}/move/",
        {"seq": str(Match.objects.get(pk=match.pk).seq), "move": "{}"},
        HTTP_X_CSRFTOKEN=token,
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 400  # past the CSRF check: refused by the game, not with 403


def test_the_table_is_not_kept_past_its_regions_drawing(alice, bob, monkeypatch):
    """The away clocks are drawn into the page: it is drawn again once its regions are."""
    monkeypatch.setattr(presenters, "RENDER_CACHE_SECONDS", 0)
    match = services.match_create_seated(creator=alice, players=[alice, bob], variant="cribbage")
    client = signed_in(alice)
    for _ in range(2):
        client.get(match.get_absolute_url())
    assert kept.drawn[TABLE] == 2


def test_pages_kept_are_bounded(alice, monkeypatch):
    monkeypatch.setattr(kept._pages, "size", 2)
    client = signed_in(alice)
    for query in ("a", "b", "c"):
        client.get(f"/play/?{query}")
    assert len(kept._pages) == 2 and kept.drawn[LOBBY] == 3
    client.get("/play/?a")  # the oldest was let go, and is drawn again
    assert kept.drawn[LOBBY] == 4
