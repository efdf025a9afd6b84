"""axe-core on every page of the site (the admin and the API's Swagger page aside: neither is
ours to style), as a visitor, a member and the tournament director: no violation in light mode
at a desktop's size, no colour-contrast violation in dark mode at a phone's, nothing wider than
a phone, nothing on the console. The pages of a match in play are checked at every phase by
test_table_layout.py."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from playwright.sync_api import Page

from games import services
from games.engine import get_variant
from games.tournaments import services as tournaments
from tests.browser.table_check import (
    DESKTOP,
    PHONE,
    Console,
    axe_violations,
    finished_match,
    in_thread,
    member_page,
    page_width,
)

pytestmark = pytest.mark.browser


def _club(alice, bob, tess):
    """What the pages show: a finished match, a match waiting for a player, a tournament with a
    round played."""
    finished = finished_match(alice, bob, seed=7)
    waiting = services.match_create(creator=alice, variant="kings", players=3)
    event = tournaments.tournament_create(
        director=tess, name="Tuesday club night", date=dt.date(2026, 11, 24), seed="axe"
    )
    for entry in ({"user": alice}, {"user": bob}, {"guest_name": "Gwen"}, {"guest_name": "Hal"}):
        tournaments.entrant_add(tournament_id=event.pk, by=tess, checked_in=True, **entry)
    first = tournaments.round_generate(tournament_id=event.pk, by=tess)
    game = first.pairings.order_by("table").first().games.first()
    tournaments.result_enter(game_id=game.pk, by=tess, score_a=121, score_b=95)
    return finished, waiting, event, game


def _pages(finished, waiting, event, game) -> dict[str, list[str]]:
    rules = [reverse("rules", args=[key]) for key in ("cribbage", "tabletop", "crosscrib",
                                                       "kings", "cribist")]  # fmt: skip
    public = [
        reverse("home"), reverse("login"), reverse("signup"), reverse("password_reset"),
        reverse("password_reset_done"), *rules, reverse("leaderboards"),
        reverse("leaderboard", args=["cribbage"]),
        reverse("head_to_head") + "?first=alice&second=bob",
        reverse("profile", args=["alice"]), reverse("tournaments"),
        reverse("tournament", args=[event.pk]), reverse("tournament_screen", args=[event.pk]),
        reverse("tournament_print", args=[event.pk]),
    ]  # fmt: skip
    member = [
        reverse("home"), reverse("lobby"), reverse("edit_profile"), reverse("api_tokens"),
        reverse("password_change"), reverse("profile", args=["alice"]),
        reverse("match", args=[finished.pk]), reverse("match_replay", args=[finished.pk]),
        reverse("match_replay", args=[finished.pk]) + "?step=5",
        reverse("cribbage_match_discards", args=[finished.pk]), reverse("cribbage_analyser"),
        reverse("match", args=[waiting.pk]), reverse("tournament", args=[event.pk]),
    ]  # fmt: skip
    director = [
        reverse("tournament_new"), reverse("tournament_direct", args=[event.pk]),
        reverse("tournament", args=[event.pk]),
    ]  # fmt: skip
    return {"visitor": public, "alice": member, "tess": director}


def _check(page: Page, console: Console, url: str) -> list[str]:
    console.during = url
    page.set_viewport_size(DESKTOP)
    response = page.goto(url)
    found = [] if response and response.ok else [f"{url}: answered {response and response.status}"]
    page.wait_for_load_state("networkidle")
    found += [f"{url}: {line}" for line in axe_violations(page)]
    page.set_viewport_size(PHONE)
    if (width := page_width(page)) > PHONE["width"] and "/screen/" not in url:  # a projector
        found.append(f"{url}: {width} px wide on a phone")
    page.emulate_media(color_scheme="dark")
    found += [f"{url} dark: {line}" for line in axe_violations(page, only=("color-contrast",))]
    page.emulate_media(color_scheme="light")
    return found


def test_every_page_passes_axe_in_light_and_dark(chromium, live_url, transactional_db, make_member):
    from django.contrib.auth.models import Permission

    alice, bob = make_member("alice"), make_member("bob")
    tess = make_member("tess", is_staff=True)
    tess.user_permissions.add(Permission.objects.get(codename="direct_tournament"))
    finished, waiting, event, game = in_thread(_club, alice=alice, bob=bob, tess=tess)
    assert get_variant("kings")  # the waiting match's game
    findings: list[str] = []
    console = Console()
    for who, urls in _pages(finished, waiting, event, game).items():
        if who == "visitor":
            context = chromium.new_context(base_url=live_url, viewport=DESKTOP)
            page = context.new_page()
        else:
            page = member_page(chromium, live_url, {"alice": alice, "tess": tess}[who])
        console.watch(page)
        for url in urls:
            findings += _check(page, console, url)
        page.context.close()
    assert not console.lines, console.lines
    assert not findings, "\n".join(findings)
