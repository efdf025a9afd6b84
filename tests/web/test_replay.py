"""The replay of a finished match: plain links that work without scripts, htmx answers of the
step alone (board, controls out of band, the spoken line), the step said in words from the
step's events, both ends of the match, and no replay of a match still on."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.engine.core.variant import get_variant
from games.models import Match
from games.texts import event_text
from games.variants import web_game
from tests.i18n.spanish import english_left

HTMX = {"HTTP_HX_REQUEST": "true"}
STEP_LINE = re.compile(r'<p id="replay-step"[^>]*>(.*?)</p>', re.S)


def finished(alice, bob, variant: str = "cribbage", options: dict | None = None) -> Match:
    """A match of two members played to its end, each taking their first legal move."""
    match = services.match_create(creator=alice, variant=variant, players=2, options=options or {})
    services.match_join(match_id=match.pk, user=bob)
    members = {0: alice, 1: bob}
    engine = get_variant(variant)
    for _ in range(3000):
        match = Match.objects.get(pk=match.pk)
        if match.status != Match.Status.ACTIVE:
            break
        state = engine.load(match.snapshot)
        seat = min(engine.to_move(state))
        move = engine.legal_moves(state, seat)[0]
        services.match_play(match_id=match.pk, user=members[seat], seq=match.seq, move=move)
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def cribbage(alice, bob):
    return finished(alice, bob, options={"target": 61})


def url(match: Match, step: int | None = None) -> str:
    base = reverse("match_replay", args=[match.pk])
    return base if step is None else f"{base}?step={step}"


def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


def test_it_steps_with_plain_links_that_htmx_follows_in_place(client, alice, cribbage):
    client.force_login(alice)
    page = client.get(url(cribbage, 5)).content.decode()
    here = url(cribbage)
    for step in (0, 4, 6, cribbage.moves_played):
        assert f'href="{here}?step={step}" hx-get="{here}?step={step}"' in page
    assert 'hx-target="#replay-board"' in page and 'hx-push-url="true"' in page
    assert f'<form class="replay-jump" method="get" action="{here}"' in page
    last = cribbage.moves_played
    assert f'type="range" name="step" min="0" max="{last}" value="5"' in page
    assert 'role="status" aria-live="polite"' in page and "js/replay.js" in page
    assert "<script>" not in page and "onclick" not in page  # the CSP allows neither


def test_an_htmx_step_answers_the_board_the_controls_and_the_spoken_line(client, alice, cribbage):
    client.force_login(alice)
    answer = client.get(url(cribbage, 3), **HTMX)
    html = answer.content.decode()
    assert answer.status_code == 200 and "HX-Request" in answer["Vary"]
    assert html.lstrip().startswith('<div id="replay-board"')
    assert "<html" not in html and "<h1" not in html and "Back to the match" not in html
    assert '<nav class="replay-nav" id="replay-nav"' in html and 'hx-swap-oob="true"' in html
    assert '<p id="replay-step" hx-swap-oob="innerHTML">' in html
    assert html.count('id="replay-board"') == 1 and html.count('id="replay-nav"') == 1
    # Going back in history with an empty cache asks for the whole page.
    restore = client.get(url(cribbage, 3), HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX)
    assert "<html" in restore.content.decode() and "<h1" in restore.content.decode()


def test_the_step_says_in_words_what_the_move_did(client, alice, bob, cribbage):
    client.force_login(alice)
    states = services.replay(cribbage)
    names = services.seat_names(cribbage)
    web = web_game("cribbage")
    said = 0
    for step in range(1, len(states)):
        html = client.get(url(cribbage, step), **HTMX).content.decode()
        line = words(STEP_LINE.search(html).group(1))
        assert line.startswith(f"Move {step} of {len(states) - 1}: ")
        events = [event_text(web, e, names) for e in states[step][1]]
        for text in events:
            assert text[:1].upper() + text[1:] in line
        if not events:
            mover = names[cribbage.moves.order_by("seq")[step - 1].seat]
            assert line.endswith(f"{mover} moves on.")
        said += bool(events)
        assert '{"type"' not in html and "{&quot;type" not in html  # no move as JSON
    assert said > len(states) // 2


def test_the_first_and_last_steps_have_nowhere_further_to_go(client, alice, cribbage):
    client.force_login(alice)
    first = client.get(url(cribbage, 0)).content.decode()
    for link in ("first", "prev"):
        assert re.search(f'<a id="replay-{link}" class="[^"]*" aria-disabled="true">', first)
    assert "Move 0 of" in words(STEP_LINE.search(first).group(1))
    assert "the table before the first move." in first
    last = client.get(url(cribbage)).content.decode()
    for link in ("next", "last"):
        assert re.search(f'<a id="replay-{link}" class="[^"]*" aria-disabled="true">', last)
    beyond = client.get(url(cribbage, 10_000), **HTMX).content.decode()
    assert f'value="{cribbage.moves_played}"' in beyond
    assert client.get(url(cribbage) + "?step=x", **HTMX).status_code == 200


def test_a_match_still_on_is_not_replayed_even_in_part(client, alice, bob):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    client.force_login(alice)
    for extra in ({}, HTMX):
        answer = client.get(url(match, 0), **extra)
        assert answer.status_code == 403
        html = answer.content.decode()
        assert "replay-board" not in html and 'data-card="' not in html
        assert "js/replay.js" not in html


def test_the_step_is_said_in_spanish(client, alice, cribbage):
    client.force_login(alice)
    with translation.override("es"):
        answer = client.get(url(cribbage, 3), HTTP_ACCEPT_LANGUAGE="es", **HTMX)
    html = answer.content.decode()
    assert "Jugada 3</strong> de" in html
    assert english_left(html) == [], english_left(html)
    page = client.get(url(cribbage, 0), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "la mesa antes de la primera jugada" in page and "Todo está boca arriba" in page
    assert english_left(page) == [], english_left(page)
    assert "Las flechas" in page


@pytest.mark.parametrize(("variant", "options"), [("tabletop", {"target": 31}), ("kings", {})])
def test_other_games_step_in_place_too(client, alice, bob, variant, options):
    match = finished(alice, bob, variant, options)
    client.force_login(alice)
    for step in (0, 1, match.moves_played):
        html = client.get(url(match, step), **HTMX).content.decode()
        assert html.lstrip().startswith('<div id="replay-board"')
        assert f"Move {step} of {match.moves_played}" in words(html)
        assert '{"type"' not in html and "{&quot;type" not in html
