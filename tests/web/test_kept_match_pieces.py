"""The match page's pieces that stay the same all match long are kept (cribsite/kept.py): the
game's style sheets and scripts, the words the page's scripts use, and the heading. What moves
with the board (the seq the socket is opened from, the regions) is drawn for every page."""

from __future__ import annotations

import pytest
from django.test import Client

from cribsite import kept
from games import services
from games.models import Match
from tests.web.random_states import play_moves

pytestmark = pytest.mark.django_db


def _page(member, match, language="en") -> str:
    client = Client()
    client.force_login(member)
    return client.get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language).content.decode()


def _heading(html: str) -> str:
    start = html.index('<header class="match-head">')
    return html[start : html.index("</header>", start)]


def test_the_pieces_are_drawn_once_a_match_and_language_and_the_seq_is_the_board_s(alice, bob):
    match = services.match_create_seated(
        creator=alice, players=[alice, bob], variant="cribbage", options={"target": 61}
    )
    first = _page(alice, match)
    play_moves(match.pk, {0: alice, 1: bob}, 6, seed=3)
    match = Match.objects.get(pk=match.pk)
    later = [_page(member, match) for member in (alice, bob, alice)]
    assert {name: kept.drawn[name] for name in ("match_links", "match_texts", "match_heading")} == {
        "match_links": 1,
        "match_texts": 1,
        "match_heading": 1,
    }
    for html in later:
        assert f'ws-connect="/ws/matches/{match.pk}/?seq={match.seq}"' in html
        assert f'data-seq="{match.seq}"' in html
        assert _heading(html) == _heading(first)
    assert f"?seq={match.seq}" not in first  # the first page was drawn from an older board
    assert 'data-text-live="Live"' in later[0] and "css/table.css" in later[0]
    spanish = _page(alice, match, "es")
    assert 'data-text-live="En directo"' in spanish and "cómo se juega" in _heading(spanish)
    assert kept.drawn["match_heading"] == 2


def test_each_match_and_game_gets_its_own_heading_and_scripts(alice, bob):
    cribbage = services.match_create_seated(
        creator=alice, players=[alice, bob], variant="cribbage", options={"target": 61}
    )
    kings = services.match_create_seated(creator=alice, players=[alice, bob], variant="kings")
    pages = {m.variant: _page(alice, m) for m in (cribbage, kings)}
    assert f"match {cribbage.pk}" in _heading(pages["cribbage"])
    assert f"match {kings.pk}" in _heading(pages["kings"])
    assert "game to 61" in _heading(pages["cribbage"])
    for variant, html in pages.items():  # each game's own style sheets and scripts, in the head
        head = html[: html.index("</head>")]
        other = "kings" if variant == "cribbage" else "cribbage"
        assert f"games/{variant}/table.css" in head and f"games/{other}/" not in head
    assert "games/kings/table.js" in pages["kings"]


def test_the_heading_stops_saying_connecting_once_the_match_is_over(alice, bob):
    match = services.match_create_seated(creator=alice, players=[alice, bob], variant="cribbage")
    live = _page(alice, match)
    assert 'id="conn-state"' in _heading(live) and 'ws-connect="/ws/matches/' in live
    services.match_resign(match_id=match.pk, user=bob)
    over = _page(alice, Match.objects.get(pk=match.pk))
    assert 'id="conn-state"' not in _heading(over) and 'ws-connect="/ws/matches/' not in over
