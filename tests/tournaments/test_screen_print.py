"""The director's room pages: the projector's markup and size classes, the printed sheet and
score cards (styled, no inline script), and the setup form's checkboxes. How they look is
checked in tests/browser_staff/."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.tournaments import services

from .conftest import current_games, play_round
from .fakes import registered

pytestmark = pytest.mark.django_db

GUESTS = [f"Guest {chr(65 + i)}" for i in range(20)]


def inline_script_free(html: str) -> bool:
    tags = re.findall(r"<script\b[^>]*>", html)
    scripts_ok = all("src=" in t or 'type="application/json"' in t for t in tags)
    return scripts_ok and not re.search(r"\son[a-z]+=", html)


def test_it_shows_the_projector_with_its_heading_and_live_socket(client, make_event, tess):
    event = make_event(GUESTS[:6], rounds=3)
    services.round_generate(tournament_id=event.pk, by=tess)
    play_round(event, tess)
    services.round_generate(tournament_id=event.pk, by=tess)
    html = client.get(reverse("tournament_screen", args=[event.pk])).content.decode()
    assert '<body class="t-screen">' in html  # a small field: no size classes
    assert 'class="t-screen-head"' in html and "Nov. 24, 2026 · Cribbage, singles" in html
    assert 'ws-connect="/ws/tournaments/' in html and 'id="t-live"' in html
    assert "Round 2" in html and 'id="standings-title"' in html
    assert inline_script_free(html)


def test_the_projector_leaves_out_django_htmx_debug_script(client, make_event, settings):
    """Under DEBUG it would replace the whole screen with any 4xx answer (see
    tests/web/test_accounts.py)."""
    settings.DEBUG = True
    event = make_event(GUESTS[:4], rounds=2)
    html = client.get(reverse("tournament_screen", args=[event.pk])).content.decode()
    assert "django_htmx/htmx-2.min.js" in html and "django_htmx/ext/hx-ws-2.min.js" in html
    assert "django-htmx.js" not in html


def test_a_big_field_gets_the_long_and_many_layouts(client, make_event, tess):
    event = make_event(GUESTS, rounds=3)
    services.round_generate(tournament_id=event.pk, by=tess)
    html = client.get(reverse("tournament_screen", args=[event.pk])).content.decode()
    assert (
        '<body class="t-screen t-screen-long t-screen-many" style="--standing-rows: 10">' in html
    )  # 20 players: 10 tables, 10 standing rows a column


def test_the_print_sheet_is_styled_and_has_a_card_per_table(client, make_event, tess):
    event = make_event(GUESTS[:5], rounds=3)  # five: one bye
    services.round_generate(tournament_id=event.pk, by=tess)
    html = client.get(reverse("tournament_print", args=[event.pk])).content.decode()
    assert "/static/css/print.css" in html and "tournament.css" not in html
    assert inline_script_free(html)  # the old Print button's onclick was blocked by the CSP
    assert "Ctrl+P" in html
    assert html.count('class="score-card"') == 2  # no card for the bye
    assert html.count("Winner's signature") == 2 and html.count('class="box"') == 4
    assert "Round 1: pairings" in html and ": bye" not in html and ">bye<" in html
    tables = [g.pairing.table for g in current_games(event)]
    for table in tables:
        assert f"Table {table}</p>" in html


def test_a_table_of_four_signs_by_name(client, make_event, tess):
    with registered():  # a made-up game for four each for themselves
        event = make_event(GUESTS[:4], variant="tally_ranked", players=4)
        services.round_generate(tournament_id=event.pk, by=tess)
        html = client.get(reverse("tournament_print", args=[event.pk])).content.decode()
    assert html.count("Signed: Guest") == 4 and html.count('class="box"') == 4


def test_the_print_sheet_before_any_round(client, make_event):
    event = make_event(GUESTS[:4])
    html = client.get(reverse("tournament_print", args=[event.pk])).content.decode()
    assert "No round drawn yet" in html and "score-card" not in html


def test_the_setup_form_puts_checkboxes_before_their_labels(client, tess):
    client.force_login(tess)
    html = client.get(reverse("tournament_new")).content.decode()
    check = re.search(r'<div class="field field-check"[^>]*>\s*(<input[^>]*>)\s*<label', html)
    assert check and 'type="checkbox"' in check.group(1) and 'name="playoff"' in html
    text = re.search(r'<div class="field"[^>]*>\s*<label for="id_name"', html)
    assert text  # other fields keep the label above
    assert html.count("field-check") == html.count('type="checkbox"')
