"""Kings Cribbage on the site: the table for each seat, the live preview, laying, exchanging
and passing through the match page's forms, the rules and the replay."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import services
from games.engine import get_variant
from games.models import Match

IDENTITY = re.compile(r"\b[A2-9TJQK][LD][a-d]\b")


@pytest.fixture
def match(alice, bob):
    """A match whose first player can lay a hand (a rack that cannot is dealt now and then: such
    a match is called off and another dealt, so the tests do not depend on the shuffle)."""
    for _ in range(50):
        match = services.match_create_seated(
            creator=alice, players=[alice, bob], variant="kings", options={}
        )
        state = state_of(match)
        if get_variant("kings").legal_moves(state, state.turn)[0]["type"] == "lay":
            return match
        services.match_call_off(match_id=match.pk)
    pytest.fail("fifty deals in a row could not lay a hand")


def state_of(match):
    match.refresh_from_db()
    return get_variant("kings").load(match.snapshot)


def who(match, alice, bob):
    state = state_of(match)
    return (alice, bob)[state.turn], state


def test_it_draws_the_board_with_its_corner_and_only_your_rack(client, match, alice, bob):
    state = state_of(match)
    client.force_login(alice)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert page.count('class="sq sq-hole"') == 6
    assert page.count("sq sq-empty") == 163
    for tile in state.racks[0]:
        assert f'data-id="{tile}"' in page
    shown = set(IDENTITY.findall(page))
    assert not shown & get_variant("kings").hidden(state, 0)
    assert "Bag: <strong>94</strong> tiles" in page
    assert "games/kings/table.js" in page and "games/kings/table.css" in page


def test_a_spectator_sees_no_rack(client, match, charlie):
    client.force_login(charlie)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "rack-tile" not in page and "the racks stay hidden" in page
    assert not IDENTITY.findall(page)  # no tile is on the board yet


def test_the_preview_scores_a_tentative_lay_or_says_why_not(client, match, alice, bob):
    player, state = who(match, alice, bob)
    move = get_variant("kings").legal_moves(state, state.turn)[0]
    client.force_login(player)
    url = reverse("kings_preview", args=[match.pk])
    answer = client.post(url, {"tiles": move["tiles"]}).content.decode()
    assert f"{move['points']} point" in answer and 'id="kings-preview"' in answer
    bad = client.post(url, {"tiles": ["0,0=KD"]}).content.decode()
    assert "Not yet a legal lay" in bad
    assert state_of(match) == state  # nothing changed


def test_the_preview_is_only_for_members_of_kings_matches(client, match, charlie):
    url = reverse("kings_preview", args=[match.pk])
    assert client.post(url, {"tiles": ["6,6=5L"]}).status_code == 302  # log in first
    client.force_login(charlie)
    assert "Pick a tile" in client.post(url, {"tiles": ["6,6=5L"]}).content.decode()
    assert client.post(reverse("kings_preview", args=[99999]), {}).status_code == 404


def test_a_lay_posted_from_the_form_is_played(client, match, alice, bob):
    player, state = who(match, alice, bob)
    move = get_variant("kings").legal_moves(state, state.turn)[0]
    client.force_login(player)
    answer = client.post(
        reverse("match_move", args=[match.pk]),
        {"seq": match.seq, "type": "lay", "tiles": move["tiles"]},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200
    after = state_of(match)
    assert after.scores[state.turn] == move["points"] and after.turn != state.turn
    page = answer.content.decode()
    assert page.count("is-last") == len(move["tiles"])


def test_an_illegal_lay_says_which_rule(client, match, alice, bob):
    player, state = who(match, alice, bob)
    tile = state.racks[state.turn][0]
    client.force_login(player)
    answer = client.post(
        reverse("match_move", args=[match.pk]),
        {"seq": match.seq, "type": "lay", "tiles": [f"6,6={tile.face}"]},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 400
    assert "two or more tiles" in answer.content.decode()


def test_exchange_and_pass_from_their_forms(client, match, alice, bob):
    player, state = who(match, alice, bob)
    faces = [t.face for t in state.racks[state.turn][:2]]
    client.force_login(player)
    url = reverse("match_move", args=[match.pk])
    client.post(url, {"seq": match.seq, "type": "exchange", "tiles": faces})
    after = state_of(match)
    assert after.last.kind == "exchange" and after.last.count == 2
    other = (alice, bob)[after.turn]
    client.force_login(other)
    match.refresh_from_db()
    client.post(url, {"seq": match.seq, "move": '{"type": "pass", "points": 0}'})
    assert state_of(match).passes == 1


def test_the_rules_page_is_in_our_words(client):
    page = client.get(reverse("rules", args=["kings"])).content.decode()
    assert "How to play Kings Cribbage" in page and "Joker" in page


def test_a_finished_match_replays(client, match, alice, bob):
    engine = get_variant("kings")
    url = reverse("match_move", args=[match.pk])
    for _ in range(4):  # everyone passes twice over: the game ends
        player, _state = who(match, alice, bob)
        client.force_login(player)
        match.refresh_from_db()
        client.post(url, {"seq": match.seq, "move": '{"type": "pass"}'})
        if match.refresh_from_db() or Match.objects.get(pk=match.pk).is_over:
            break
    match.refresh_from_db()
    assert match.is_over and engine.outcome(state_of(match)) is not None
    client.force_login(alice)
    page = client.get(reverse("match_replay", args=[match.pk])).content.decode()
    assert page.count("sq sq-hole") >= 6
