"""The claim button comes without a reload: Bob never opens the match, the countdown beside his
name runs out on Alice's page, and the button to claim the win appears there by itself. The
server's away limit (MATCH_AWAY_SECONDS, at least 5 s) is cut to its least for this server, so
the test waits seconds, not minutes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games import services
from tests.browser.table_check import Console, axe_violations, in_thread, member_page
from tests.live_server import daphne

pytestmark = pytest.mark.browser
AWAY_SECONDS = 5


@pytest.fixture(scope="module")
def quick_away_url(django_db_setup, django_db_blocker):
    with daphne("claim-daphne", extra_env={"MATCH_AWAY_SECONDS": str(AWAY_SECONDS)}) as (port, _):
        yield f"http://127.0.0.1:{port}"


def _match(alice, bob):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    return match


def test_the_claim_button_appears_when_the_countdown_ends(
    chromium, quick_away_url, transactional_db, alice, bob
):
    match = in_thread(_match, alice=alice, bob=bob)
    page = member_page(chromium, quick_away_url, alice)
    console = Console().watch(page)
    page.goto(match.get_absolute_url())
    expect(page.locator("#conn-state")).to_have_attribute("data-state", "live")
    page.evaluate("window.notReloaded = true")
    away = page.locator("#players .away")
    expect(away).to_contain_text("away")
    claim = page.get_by_role("button", name="Claim the win: Bob has left")
    expect(claim).to_be_visible(timeout=(AWAY_SECONDS + 10) * 1000)
    expect(away).to_contain_text("may be claimed")
    assert page.evaluate("window.notReloaded === true"), "the page was reloaded"
    findings = axe_violations(page)
    claim.click()
    expect(page.locator("#status .outcome-title")).to_have_text("You won")
    expect(page.locator("#status .outcome-reason")).to_contain_text("a player left")
    page.context.close()
    assert not findings, findings
    assert not console.lines, console.lines
