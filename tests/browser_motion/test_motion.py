"""The table's motion, voice and sounds, and live invitation notices, in Chromium on a phone.

Ana turns her sounds on in her account. Her Cribbage table (390x844) is watched while Bea's and
her moves are made through the services, as a second player would: pegs move along the board
with their animation class, the show's callouts ("fifteen for 2") pop up and go, each said once
to screen readers, and her turn coming round asks for a sound. With reduced motion asked for,
the next hand moves nothing, yet every callout is still said. Meanwhile Bea, on another page of
the site, is invited live to a new match (no sound: hers are off, the default).
Screenshots: var/screenshots/motion-*.png."""

from __future__ import annotations

import json
import random
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Page, expect

from games import services
from games.engine import get_variant
from tests.browser_rematch.test_rematch import log_in
from tests.games.helpers import fresh

pytestmark = pytest.mark.browser
CRIBBAGE = get_variant("cribbage")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

# Records, from before a move, what motion.js does to the page: classes added, callouts said.
WATCH = """() => {
  window.seen = { pegMoving: 0, cardMoving: 0, calloutsSaying: 0, said: [] };
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "attributes" && r.attributeName === "class") {
        const el = r.target;
        if (el.classList.contains("pb-peg-moving")) window.seen.pegMoving++;
        if (el.classList.contains("is-moving")) window.seen.cardMoving++;
        if (el.matches(".callouts.is-saying, .callout.is-saying")) window.seen.calloutsSaying++;
      }
      if (r.target.id === "table-voice" || (r.target.parentNode || {}).id === "table-voice") {
        const text = document.getElementById("table-voice").textContent;
        if (text) window.seen.said.push(text);
      }
    }
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["class"],
                              childList: true, characterData: true });
}"""


def off_loop(function, *args, **kwargs):
    """Run `function` in a thread of its own: playwright's event loop runs in this one."""
    with ThreadPoolExecutor(1) as worker:
        return worker.submit(function, *args, **kwargs).result()


def csrf_token(page: Page) -> str:
    return page.evaluate("JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken']")


def play_until(match, players: list[Page], stop, seed: int, watched: Page):
    """Random legal moves, each posted by the seat's own browser to the server (which pushes the
    new board to every page) until `stop(state)` holds; `watched` is given each board in turn."""
    rng = random.Random(seed)
    tokens = [csrf_token(player) for player in players]
    for _ in range(400):
        match = fresh(match)
        state = CRIBBAGE.load(match.snapshot)
        if stop(state):
            return match
        seat = min(CRIBBAGE.to_move(state))
        move = rng.choice(CRIBBAGE.legal_moves(state, seat))
        answer = players[seat].request.post(
            f"/matches/{match.pk}/move/",
            form={"seq": str(match.seq), "move": json.dumps(move)},
            headers={"X-CSRFToken": tokens[seat]},
        )
        assert answer.ok, answer.text()
        watched.wait_for_function(  # a function: the page's CSP allows no eval of a string
            "seq => Number(document.getElementById('match-seq').dataset.seq) > seq",
            arg=match.seq,
            polling=50,
        )
    raise AssertionError("the match never got there")


def scores(page: Page) -> list[str]:
    return page.locator(".pb-peg-front").evaluate_all("pegs => pegs.map(p => p.dataset.score)")


def console_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def test_the_table_moves_speaks_and_calls_a_member_live(
    chromium, live_url, page, make_member, screenshot
):
    ana, bea = make_member("ana"), make_member("bea")
    page.set_viewport_size(PHONE)
    errors = console_errors(page)
    log_in(page, "ana")

    # The sound setting, saved on the account (off by default).
    page.goto("/account/")
    sounds = page.get_by_label("Sounds")
    expect(sounds).not_to_be_checked()
    expect(page.get_by_label("Table motion")).to_be_checked()
    sounds.check()
    screenshot(page, "motion-phone-account")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".messages")).to_contain_text("Your details are saved.")
    ana.refresh_from_db()
    assert ana.sounds and ana.motion
    expect(page.locator("body")).to_have_attribute("data-sounds", "on")

    other = chromium.new_context(base_url=live_url, viewport=DESKTOP)
    beas = other.new_page()
    beas.set_default_timeout(10_000)
    try:
        log_in(beas, "bea")
        match = off_loop(
            services.match_create_seated,
            creator=ana,
            players=[ana, bea],
            variant="cribbage",
            options={"target": 61},
        )
        page.goto(f"/matches/{match.pk}/")
        expect(page.locator("#conn-state")).to_have_attribute("data-state", "live")
        page.evaluate(WATCH)

        # One whole hand, played to its show: the pegs move as points are made, the show is said.
        before = scores(page)
        match = play_until(match, [page, beas], lambda s: s.phase == "counted", 5, page)
        saying = page.locator("#hand .callouts.is-saying").first  # one hand after another
        expect(saying).to_be_visible()
        screenshot(page, "motion-phone-show-callout")
        expect(saying.locator("li").first).to_have_text(
            re.compile(r"fifteen|pair|run|flush|nobs|three of a kind|four of a kind|nothing")
        )
        expect(page.locator("#hand .callouts.is-saying")).to_have_count(0, timeout=15_000)
        expect(page.locator("#hand .callouts.is-said").first).to_be_hidden()  # said, and gone
        assert scores(page) != before
        seen = page.evaluate("window.seen")
        assert seen["pegMoving"] >= 1, seen
        assert seen["cardMoving"] >= 1, seen
        assert seen["calloutsSaying"] >= 1, seen
        # Each show said once to screen readers: the two hands and the crib.
        shows = re.findall(r"([^.:]+): [^().]*\(\d+\)", ". ".join(seen["said"]))
        whose = sorted(name.strip() for name in shows)
        assert whose in (["Ana", "Ana's crib", "Bea"], ["Ana", "Bea", "Bea's crib"]), seen["said"]
        # Bea's moves brought Ana's turn round, and Ana asked for sounds: the turn's sound.
        assert page.evaluate("window.clubTable.lastSound") == "turn"

        # Bea, on another page of the site, is invited to a new match: a notice arrives live.
        beas.goto("/tournaments/")
        expect(beas.locator("#notices")).to_be_attached()
        beas.wait_for_timeout(300)  # its socket opens
        created = page.request.post(
            "/play/new/",
            form={"variant": "cribbage", "players": "2", "opponents": "invite", "invite": "bea"},
            headers={"X-CSRFToken": csrf_token(page)},
        )
        assert created.ok, created.text()
        notice = beas.locator("#notices .notice")
        expect(notice).to_contain_text("Ana invites you to a game of Cribbage.")
        expect(beas.locator("body")).not_to_have_attribute("data-last-sound", re.compile("."))
        screenshot(beas, "motion-desktop-notice")
        notice.get_by_role("link", name="Go to the match").click()
        expect(beas).to_have_url(re.compile(r"/matches/\d+/$"))
        expect(beas.get_by_role("button", name="Take a seat")).to_be_visible()
        expect(beas.locator("#notices .notice")).to_have_count(0)

        # Reduced motion: the next hand moves nothing, and its callouts are still said.
        beas.goto(f"/matches/{match.pk}/")
        match = play_until(match, [page, beas], lambda s: s.phase != "counted", 6, page)
        page.emulate_media(reduced_motion="reduce")
        page.goto(f"/matches/{match.pk}/")
        expect(page.locator("#conn-state")).to_have_attribute("data-state", "live")
        page.evaluate(WATCH)
        before = scores(page)
        done = ("counted", "game_over", "match_over")
        match = play_until(match, [page, beas], lambda s: s.phase in done, 7, page)
        page.wait_for_function("() => window.seen.said.length > 0", polling=50)
        seen = page.evaluate("window.seen")
        assert scores(page) != before
        assert seen["pegMoving"] == seen["cardMoving"] == seen["calloutsSaying"] == 0, seen
        expect(page.locator("#hand .callouts").first).to_be_hidden()
        screenshot(page, "motion-phone-reduced")
        # The member's own off switch (data-motion="off" on <body>) stops motion the same way.
        page.emulate_media(reduced_motion="no-preference")
        assert page.evaluate("() => window.clubTable.motionOn()")
        page.evaluate("() => { document.body.dataset.motion = 'off'; }")
        assert not page.evaluate("() => window.clubTable.motionOn()")
    finally:
        other.close()
    assert errors == [], errors
