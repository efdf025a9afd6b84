"""The director's room views in a real browser: the projector at 1920x1080 is legible from the
back of the room and fills the screen, the print sheet is styled on A4, the new-tournament
form's checkboxes are real checkboxes, the admin lists matches, and the API docs load from our
own static files. The page fixture fails on any Content-Security-Policy refusal."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

NAMES = ["Ann Whitcombe", "Bea Ortega", "Cal Nakamura", "Dee Fairbanks", "Eve Lindqvist",
         "Fay Okonkwo", "Gus Petrakis", "Hal Brennan", "Ivy Castellanos", "Jo Marchetti",
         "Kit Abernathy", "Lou Szymanski", "Mo Delacroix", "Ned Haraldsen"]  # fmt: skip
SHOTS = os.environ.get("STAFF_SHOTS", "")  # a folder for a copy of each screenshot


def keep(page: Page, name: str, screenshot, *, full_page: bool = False) -> None:
    """Save the screenshot where the suite keeps them, and a copy for the team to look at."""
    path = screenshot(page, name)
    if not full_page:
        page.screenshot(path=str(path))
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(SHOTS) / f"{name}.png")


def off_loop(function, *args, **kwargs):
    """Run `function` in a thread of its own: playwright's event loop runs in this one, and the
    services notify through the channel layer when they commit."""
    with ThreadPoolExecutor(1) as worker:
        return worker.submit(function, *args, **kwargs).result()


@pytest.fixture
def club_night(make_member, page):
    """Fourteen players in round 2 of a club night, some results in."""
    return off_loop(_club_night, make_member)


def _event(make_member, names, **settings):
    """A tournament directed by Tess with `names` entered and checked in."""
    from django.contrib.auth.models import Permission

    from games.tournaments import services

    tess = make_member("tess", is_staff=True, display_name="Tess")
    tess.user_permissions.add(Permission.objects.get(codename="direct_tournament"))
    tess = type(tess).objects.get(pk=tess.pk)
    event = services.tournament_create(
        director=tess, name="Thursday club night", date=dt.date(2026, 11, 26), seed="fixed",
        **settings,
    )  # fmt: skip
    for name in names:
        services.entrant_add(tournament_id=event.pk, by=tess, guest_name=name, checked_in=True)
    return event, tess


def _club_night(make_member, names=NAMES):
    from games.tournaments import services

    event, tess = _event(make_member, names, rounds=5)
    scores = [(121, 88), (97, 121), (121, 119), (121, 74), (105, 121), (121, 60), (121, 101)]
    for number in (1, 2):
        services.round_generate(tournament_id=event.pk, by=tess)
        games = _open_games(event)
        for i, game in enumerate(games[: len(games) if number == 1 else 4]):
            a, b = scores[i % len(scores)]
            services.result_enter(game_id=game.pk, by=tess, score_a=a, score_b=b)
    return event


def _open_games(event):
    from games.tournaments.models import Game

    last = event.round_set.order_by("-number").first()
    return list(
        Game.objects.filter(pairing__round=last, status__in=["open", "pending"]).order_by(
            "pairing__table", "number"
        )
    )


def px(page: Page, selector: str, prop: str = "font-size") -> float:
    value = page.locator(selector).first.evaluate(
        f"e => getComputedStyle(e).getPropertyValue('{prop}')"
    )
    return float(value.removesuffix("px"))


def test_the_projector_fills_a_1080p_screen_legibly(page, club_night, screenshot):
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"/tournaments/{club_night.pk}/screen/")
    expect(page.locator("#t-live")).to_be_visible()
    expect(page.locator(".t-pairings tbody tr")).to_have_count(7)
    keep(page, "staff-projector", screenshot)
    assert px(page, ".t-pairings tbody td") >= 28  # names, read from the back of the room
    assert px(page, ".t-name") >= 28
    assert px(page, ".t-card") >= 28
    assert px(page, "h1") >= 48
    # Everything of the current round and the standings is on the one screen, no scrolling...
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 1080, height
    # ...and the screen is used: the pairings and the standings reach well down it.
    bottom = page.evaluate(
        "Math.max(...[...document.querySelectorAll('.t-pairings, .t-standings')]"
        ".map(e => e.getBoundingClientRect().bottom))"
    )
    assert bottom >= 0.75 * 1080, bottom
    # Light text on the dark felt, dark text on the panels: strong contrast both ways.
    assert page.locator("h1").evaluate("e => getComputedStyle(e).color") == "rgb(255, 255, 255)"


def test_a_big_field_still_fits_the_projector(page, make_member, screenshot):
    names = [f"{first} {last}" for first in ("Ann", "Bea", "Cal", "Dee", "Eve", "Fay")
             for last in ("Whitcombe", "Ortega", "Nakamura", "Fairbanks")]  # fmt: skip
    event = off_loop(_club_night, make_member, names)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"/tournaments/{event.pk}/screen/")
    expect(page.locator(".t-pairings tbody tr")).to_have_count(12)
    keep(page, "staff-projector-24", screenshot)
    assert px(page, ".t-pairings tbody td") >= 28 and px(page, ".t-name") >= 28
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    clipped = page.evaluate(
        "[...document.querySelectorAll('.t-line, .t-pairings tbody tr')].filter(e => "
        "e.getBoundingClientRect().bottom > innerHeight || e.getBoundingClientRect().right > "
        "innerWidth).length"
    )
    assert clipped == 0


def test_the_playoff_projector_shows_every_pairing_and_the_bracket(page, make_member, screenshot):
    event = off_loop(_playoff, make_member)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"/tournaments/{event.pk}/screen/")
    expect(page.locator(".t-pairings tbody tr")).to_have_count(4)
    expect(page.locator(".t-bracket .t-match")).to_have_count(4)
    keep(page, "staff-projector-playoff", screenshot)
    assert px(page, ".t-bracket .t-match span") >= 28
    rows = page.locator(".t-pairings tbody tr")
    for i in range(4):
        box = rows.nth(i).bounding_box()
        assert box["height"] > 30 and box["y"] + box["height"] <= 1080, (i, box)
    bracket = page.locator(".t-bracket").bounding_box()
    for i in range(4):  # every match of the bracket in sight, none cut off
        box = page.locator(".t-bracket .t-match").nth(i).bounding_box()
        assert box["y"] + box["height"] <= bracket["y"] + bracket["height"] + 1, (i, box)


def _playoff(make_member):
    """Eight of ten players through one round to quarter-finals played best of three."""
    from games.tournaments import services

    event, tess = _event(make_member, NAMES[:10], rounds=1, playoff=True, qualifiers=8,
                         series_length=3)  # fmt: skip
    services.round_generate(tournament_id=event.pk, by=tess)
    for game in _open_games(event):
        services.result_enter(game_id=game.pk, by=tess, score_a=121, score_b=90)
    services.playoffs_start(tournament_id=event.pk, by=tess)
    return event


def test_the_print_sheet_is_styled_for_a4(page, club_night, screenshot):
    page.set_viewport_size({"width": 794, "height": 1123})
    page.goto(f"/tournaments/{club_night.pk}/print/")
    expect(page.locator(".sheet-table tbody tr")).to_have_count(7)
    keep(page, "staff-print-screen", screenshot, full_page=True)
    assert px(page, ".sheet-table td") >= 14
    assert px(page, ".sheet h1") >= 20
    page.emulate_media(media="print")
    expect(page.locator(".no-print").first).to_be_hidden()
    keep(page, "staff-print", screenshot, full_page=True)
    cards = page.locator(".score-card")
    assert cards.count() >= 3
    assert px(page, ".score-card td.box", "height") >= 40  # room to write a score
    pdf = page.pdf(format="A4", print_background=True)
    pages = len(re.findall(rb"/Type\s*/Page\b", pdf))
    assert pages == 3, pages  # the sheet alone on page 1, then seven cards on two pages


def test_the_new_tournament_form_has_real_checkboxes(page, make_member, screenshot):
    from django.contrib.auth.models import Permission

    tess = make_member("tess", is_staff=True, display_name="Tess")
    tess.user_permissions.add(Permission.objects.get(codename="direct_tournament"))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/login/")
    page.get_by_label("Username").fill("tess")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto("/tournaments/new/")
    box = page.get_by_label("Finish with a playoff")
    size = box.bounding_box()
    assert size["width"] <= 32 and size["height"] <= 32, size
    label = page.locator("label[for='id_playoff']").bounding_box()
    assert abs((label["y"] + label["height"] / 2) - (size["y"] + size["height"] / 2)) < 12
    box.check()
    expect(box).to_be_checked()
    keep(page, "staff-new-tournament", screenshot, full_page=True)


def test_the_admin_lists_matches_and_the_api_docs_load_from_our_static_files(
    page, make_member, screenshot
):
    from games import services

    make_member("dana", is_staff=True, is_superuser=True)
    alice, bob = make_member("alice"), make_member("bob")
    match = off_loop(services.match_create, creator=alice, variant="cribbage", players=2)
    off_loop(services.match_join, match_id=match.pk, user=bob)
    off_loop(services.match_create, creator=bob, variant="tabletop", players=2)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto("/admin/login/")
    page.locator("#id_username").fill("dana")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("input[type=submit]").click()
    page.goto("/admin/games/match/")
    expect(page.locator("#result_list tbody tr")).to_have_count(2)
    expect(page.locator("#result_list")).to_contain_text("Alice, Bob")
    keep(page, "staff-admin-matches", screenshot)
    page.goto(f"/admin/games/match/{match.pk}/change/")
    expect(page.locator(".inline-group").first).to_contain_text("Alice")
    assert page.locator("textarea, input[name$='move']").count() == 0  # nothing to edit
    keep(page, "staff-admin-match", screenshot, full_page=True)
    page.goto("/admin/games/match/?status__exact=active")
    page.locator("#result_list tbody input.action-select").first.check()
    page.locator("select[name=action]").select_option("abort_matches")
    page.get_by_role("button", name="Go").click()
    expect(page.locator(".messagelist")).to_contain_text(f"Match {match.pk} is aborted.")

    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if "127.0.0.1" not in r.url else None)
    page.goto("/api/v1/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Cribbage Club API")
    operation = page.locator(".opblock").first
    operation.locator(".opblock-summary").click()  # it opens, and offers to try the call
    expect(operation.get_by_role("button", name="Try it out")).to_be_visible()
    keep(page, "staff-api-docs", screenshot)
    assert outside == []  # nothing from a CDN
