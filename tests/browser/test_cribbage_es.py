"""The Cribbage table in Spanish on a phone (390x844): in the discard, the play and the show
(the count said aloud, "quince 2, quince 4, par 6", and the muggins form), nothing is wider
than the screen.
Screenshots go to var/screenshots/cribbage-es-phone-*.png."""

from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from games import services
from games.engine import get_variant
from tests.games.helpers import fresh

pytestmark = pytest.mark.browser
CRIBBAGE = get_variant("cribbage")


def _play_to(match, members, stop, seed: int):
    """Random legal moves through the services until `stop(state)` holds (in a thread of its
    own: playwright's event loop runs in this one, and the services notify through it)."""
    with ThreadPoolExecutor(1) as worker:
        return worker.submit(_moves, match, members, stop, seed).result()


def _moves(match, members, stop, seed: int):
    rng = random.Random(seed)
    for _ in range(4000):
        match = fresh(match)
        state = CRIBBAGE.load(match.snapshot)
        if stop(state):
            return match
        seat = min(CRIBBAGE.to_move(state))
        move = rng.choice(CRIBBAGE.legal_moves(state, seat))
        services.match_play(match_id=match.pk, user=members[seat], seq=match.seq, move=move)
    raise AssertionError("the match never got there")


def test_the_spanish_table_fits_a_phone_in_the_show(
    transactional_db, chromium, live_url, make_member, screenshot
):
    alice, bob = make_member("ana"), make_member("bea")
    with ThreadPoolExecutor(1) as worker:
        match = worker.submit(
            services.match_create_seated,
            creator=alice,
            players=[alice, bob],
            variant="cribbage",
            options={"muggins": True},
        ).result()

    def second_count_for_ana(state) -> bool:  # one hand shown, Ana now counts hers
        return (
            state.phase == "show"
            and len(state.shows) >= 1
            and state.pending is not None
            and state.pending.owner == 0
            and state.pending.declared is None
        )

    context = chromium.new_context(
        base_url=live_url, viewport={"width": 390, "height": 844}, locale="es-ES"
    )
    with ThreadPoolExecutor(1) as worker:
        session = worker.submit(_session_of, alice).result()
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(reverse("match", args=[match.pk]))
        expect(page.locator("#move-discard legend")).to_contain_text("Elige 2 cartas")
        screenshot(page, "cribbage-es-phone-discard")
        assert _overflow(page) == [], _overflow(page)

        match = _play_to(match, [alice, bob], lambda s: s.phase == "play" and s.turn == 0, 10)
        page.goto(reverse("match", args=[match.pk]))
        expect(page.locator("#status .prompt")).to_contain_text(
            re.compile("Sales tú|Te toca|di «ir»")
        )
        screenshot(page, "cribbage-es-phone-play")
        assert _overflow(page) == [], _overflow(page)

        match = _play_to(match, [alice, bob], second_count_for_ana, 11)
        page.goto(reverse("match", args=[match.pk]))
        expect(page.locator("#move-count")).to_be_visible()
        expect(page.locator("#hand .shows h2")).to_have_text("El recuento")
        expect(page.locator("#status .prompt")).to_contain_text("Cuenta tu")
        screenshot(page, "cribbage-es-phone-show")
        assert _overflow(page) == [], _overflow(page)

        match = _play_to(match, [alice, bob], lambda s: s.phase == "counted", 12)
        page.goto(reverse("match", args=[match.pk]))
        expect(page.locator("#move-continue")).to_contain_text("Siguiente mano")
        page.locator("#hand .shown-head").first.click()  # the count's words open on demand
        expect(page.locator("#hand .breakdown").first).to_be_visible()
        screenshot(page, "cribbage-es-phone-counted")
        assert _overflow(page) == [], _overflow(page)
    finally:
        context.close()


def _session_of(member) -> str:
    """A signed-in session for `member` (the sign-in page's words are not Cribbage's to test)."""
    client = Client()
    client.force_login(member)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _overflow(page) -> list[str]:
    """Elements of the table wider than the screen (none should be)."""
    return page.evaluate(
        """() => {
            const width = document.documentElement.clientWidth;
            const wide = [];
            document.querySelectorAll("#board *, #hand *, #status *").forEach((el) => {
                const box = el.getBoundingClientRect();
                if (box.width && (box.right > width + 1 || box.left < -1)) {
                    wide.push(el.tagName.toLowerCase() + "." + el.className + " " +
                              Math.round(box.left) + ".." + Math.round(box.right));
                }
            });
            if (document.documentElement.scrollWidth > width + 1) wide.push("page: sideways");
            return wide;
        }"""
    )
