"""Every game's table on a phone (390x844) and a desktop (1280x800): one whole short game of
each game and player count against the computer, by clicking. At every phase the member is in,
the board, the cards on the table, the hand, the move's controls and the newest event lie
inside the first screen; the first time a phase is on show it is checked at the desktop size
too, screenshotted at both sizes (var/screenshots/<game>-<phase>-<size>.png) and run through
axe-core in light and dark mode. Nothing may reach the console but the browser's line for a
move the site refuses as stale (409), and no words may run out of the box they are written
in. A third of the games run in Spanish (longer words); the member's name is long. The
figures of each game go to var/screenshots/<game>.json, and the worst moment of a phase that
does not fit to <game>-<phase>-<size>-worst.png."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from games import services
from games.engine import get_variant
from games.models import Match
from tests.browser.table_check import (
    SIZES,
    Console,
    Report,
    Table,
    axe_both_modes,
    finished_match,
    in_thread,
    member_page,
    page_width,
    play_whole_game,
    spilled_text,
)
from tests.browser.test_kings import place

pytestmark = pytest.mark.browser

# A long name wraps in the side panel and the end banner without pushing the table wide.
LONG_NAME = "Alexandrina Featherstonehaugh-Wolkenstein"


class Cribbage(Table):
    PHASES = {  # in this order: muggins offers "Let it go" beside the claim
        "discard": "#hand form[data-need]",
        "claim": "#move-claim",
        "count": "#move-count",
        "continue": "#move-continue",
        "play": "#move-play button:not([disabled])",
    }

    def __init__(self, players: int):
        self.name = f"cribbage-{players}"
        self.marked = 0  # plays made with the card just played marked on the table
        self.counted_shown = []  # the cards on show beside each count the member made

    def phase(self, page: Page) -> str | None:
        return self.first_of(page, self.PHASES)

    def act(self, page: Page, phase: str) -> None:
        hand = page.locator("#hand")
        if phase == "discard":
            form = hand.locator("form[data-need]")
            for index in range(int(form.get_attribute("data-need"))):
                form.locator('input[name="cards"]').nth(index).set_checked(True, force=True)
            form.locator("[data-pick-submit]").click()
        elif phase == "play":
            self.marked += page.locator("#board .play.is-last").count()
            go = hand.locator('#move-play button[name="move"]')  # "Go"
            (go if go.count() else hand.locator("button.card-button:not([disabled])").first).click()
        elif phase == "count":  # count nothing: the computer takes what was missed (muggins)
            self.counted_shown.append(hand.locator(".counting .playing-card").count())
            hand.locator("#count-points").fill("0")
            hand.locator("#move-count button").click()
        else:  # "Let it go", "Next hand", "Next game"
            hand.locator("#move-continue button").click()

    def parts(self, phase: str) -> dict[str, str]:
        board = {"board": "#board .pegboard", "scores": "#board .pegboard-sides"}
        table = {**board, "table": "#board .felt"}
        return {
            "discard": {**table, "hand": "#move-discard .hand",
                        "action": "#move-discard button[type=submit]"},
            "play": {**table, "hand": "#move-play .hand", "action": "#move-play button"},
            "count": {**board, "hand": "#hand .counting", "action": "#move-count"},
            "claim": {**board, "hand": "#hand .counting", "action": "#move-claim, #move-continue"},
            "continue": {**board, "hand": "#hand .show-list", "action": "#move-continue"},
            "end": {**board, "banner": "#status .outcome"},
        }[phase]  # fmt: skip


class TableTop(Table):
    def __init__(self, key: str, players: int):
        self.name = f"{key}-{players}"

    def phase(self, page: Page) -> str | None:
        return page.evaluate(
            """() => {
                const grid = document.querySelector("#board .tt-grid");
                if (document.querySelector("#move-continue")) return "continue";
                if (grid && grid.dataset.action === "advise")
                    return document.querySelector("#board .is-advised") ? null : "advise";
                if (!document.querySelector("#status.status-your-turn")) return null;
                if (document.querySelector("#board button.tt-square")) return "place";
                if (document.querySelector("#move-crib")) return "crib";
                return null;
            }"""
        )

    def act(self, page: Page, phase: str) -> None:
        if phase == "advise":  # looked at only: the computer places its card at once
            return
        if phase == "continue":
            page.locator("#move-continue button").click()
        elif phase == "crib":
            page.locator("#move-crib button").click()
        else:
            page.locator("#board button.tt-square").first.click()

    def parts(self, phase: str) -> dict[str, str]:
        # The layout holds the cards on the table; the sides' scores include this deal's count.
        board = {"board": "#board .tt-grid", "scores": "#board .tt-scores"}
        return {
            "place": {**board, "hand": "#hand .tt-turned-card",
                      "action": "#board button.tt-square, #move-crib button"},
            "crib": {**board, "hand": "#hand .tt-turned-card", "action": "#move-crib button"},
            "advise": {**board, "action": "#board button.tt-square"},
            "continue": {**board, "action": "#move-continue button"},
            "end": {"scores": "#board .tt-scores", "banner": "#status .outcome"},
        }[phase]  # fmt: skip


class Kings(Table):
    def __init__(self, players: int, match_id: int):
        self.name = f"kings-{players}"
        self.match_id = match_id
        self.engine = get_variant("kings")

    def phase(self, page: Page) -> str | None:
        return page.evaluate(
            """() => {
                if (document.querySelector("#kings-joker")) return "joker";
                if (!document.querySelector("#status.status-your-turn")) return null;
                const lay = document.querySelector("[data-kings-lay]");
                return lay && !lay.hasAttribute("data-not-turn") ? "lay" : "stuck";
            }"""
        )

    def act(self, page: Page, phase: str) -> None:
        state = self.engine.load(Match.objects.get(pk=self.match_id).snapshot)
        if phase == "lay":
            lays = [m for m in self.engine.legal_moves(state, 0) if m["type"] == "lay"]
            move = max(lays, key=lambda m: (len(m["tiles"]), m["points"]))
            recall = page.locator("[data-kings-recall]")
            if recall.is_enabled():  # tiles left on the board by a try that did not take
                recall.click()
            for token in move["tiles"]:
                place(page, token)
            expect(page.locator("#kings-preview strong")).to_contain_text(str(move["points"]))
            page.locator("[data-kings-lay]").click()
        elif phase == "stuck":
            page.locator(".kings-pass summary").click()
            page.locator("#kings-pass button").click()
        else:
            page.locator("#kings-joker button").last.click()

    def parts(self, phase: str) -> dict[str, str]:
        board = {"board": "#board .kings-board", "tiles": "#board .kings-info"}
        return {
            "lay": {**board, "hand": "#hand .kings-rack", "action": "[data-kings-lay]",
                    "preview": "#kings-preview"},
            "stuck": {**board, "hand": "#hand .kings-rack",
                      "action": ".kings-exchange summary, .kings-pass summary"},
            "joker": {**board, "action": "#kings-joker"},
            "end": {"scores": "#board .kings-info", "banner": "#status .outcome"},
        }[phase]  # fmt: skip


class Cribist(Table):
    name = "cribist-4"
    # who leads, said on the felt; each seat's name and tags
    boxes = (*Table.boxes, ".cx-centre", ".cx-seat")
    PHASES = {
        "declare": "#move-declare",
        "calls": "#move-muggins",
        "continue": "#move-continue",
        "play": "#move-play",
    }

    def phase(self, page: Page) -> str | None:
        return self.first_of(page, self.PHASES)

    def act(self, page: Page, phase: str) -> None:
        if phase == "declare":
            page.locator("#declare-points").fill("0")
            page.locator("#move-declare button").click()
        elif phase == "calls":
            page.locator("#move-pass button").click()
        elif phase == "continue":
            page.locator("#move-continue button").click()
        else:  # the cards overlap: tap the corner that shows
            card = page.locator("#hand button.card-button:not([disabled])").first
            card.click(position={"x": 6, "y": 24})

    def parts(self, phase: str) -> dict[str, str]:
        table = {"board": "#board .cx-table", "table": "#board .cx-centre"}
        return {
            "play": {**table, "hand": "#move-play .hand", "action": "#move-play .hand"},
            # The trick to count lies in the middle of the table.
            "declare": {**table, "hand": "#hand .hand, #hand > p.muted", "action": "#move-declare"},
            "calls": {**table, "action": "#move-muggins button[type=submit], #move-pass button"},
            "continue": {**table, "action": "#move-continue"},
            "end": {"board": "#board .cx-table", "banner": "#status .outcome"},
        }[phase]  # fmt: skip


GAMES = {
    # name: (variant, players, options, the browser's language); the Spanish words are longer
    "cribbage-2": ("cribbage", 2, {"target": 61, "muggins": True}, "en-GB"),
    "cribbage-3": ("cribbage", 3, {"target": 61}, "es-ES"),
    "cribbage-4": ("cribbage", 4, {"target": 61}, "en-GB"),
    "tabletop-2": ("tabletop", 2, {"target": 31}, "en-GB"),
    "tabletop-4": ("tabletop", 4, {"target": 31}, "es-ES"),
    "crosscrib-2": ("crosscrib", 2, {"target": 5}, "en-GB"),
    "kings-2": ("kings", 2, {}, "en-GB"),
    "kings-3": ("kings", 3, {}, "es-ES"),
    "kings-4": ("kings", 4, {}, "en-GB"),
    "cribist-4": ("cribist", 4, {"ending": "deals", "deals": 1, "muggins": True}, "es-ES"),
}


def table_for(name: str, match_id: int) -> Table:
    variant, players, _, _ = GAMES[name]
    if variant == "cribbage":
        return Cribbage(players)
    if variant in ("tabletop", "crosscrib"):
        return TableTop(variant, players)
    if variant == "kings":
        return Kings(players, match_id)
    return Cribist()


@pytest.mark.parametrize("name", list(GAMES))
def test_a_whole_game_fits_the_first_screen(
    chromium, live_url, transactional_db, make_member, name
):
    variant, players, options, locale = GAMES[name]
    member = make_member("alice", display_name=LONG_NAME)
    match = in_thread(
        services.match_create,
        creator=member,
        variant=variant,
        players=players,
        options=options,
        computer_seats=list(range(1, players)),
        computer_level="easy",
    )
    page = member_page(chromium, live_url, member, locale=locale)
    page.set_default_timeout(10_000)
    # A move sent as a push lands (several seats may act at once: the discard, "Next hand") is
    # refused as stale, 409, by design; the browser's line for it may pass, nothing else.
    console = Console(refusals=True).watch(page)
    page.goto(match.get_absolute_url())
    expect(page.locator("html")).to_have_attribute("lang", locale[:2])
    expect(page.locator("#conn-state")).to_have_attribute("data-state", "live")
    table = table_for(name, match.pk)
    report = Report(name)
    play_whole_game(page, table, report, console)
    report.write()
    # The end: the member's own result, the live badge gone.
    expect(page.locator("#status .outcome")).to_have_class(re.compile("outcome-(won|lost)"))
    expect(page.locator("#conn-state")).to_be_hidden()
    expect(page.locator("#events ol.events")).to_have_attribute("tabindex", "0")
    page.context.close()
    if isinstance(table, Cribbage):  # the card just played is marked; muggins shows the hand
        assert table.marked, "no card played was marked as the last"
        assert set(table.counted_shown) <= {5}, table.counted_shown
    assert not console.lines, console.lines
    assert not report.problems(), "\n".join(report.problems())


def test_the_profile_fits_a_phone(chromium, live_url, transactional_db, alice, bob):
    """A member with a finished match in the history: nothing wider than a 390 px screen."""

    in_thread(finished_match, first=alice, second=bob)
    page = member_page(chromium, live_url, alice)
    page.goto(reverse("profile", args=["alice"]))
    expect(page.locator("table.history").first).to_be_visible()
    width = page_width(page)
    findings = axe_both_modes(page)
    page.context.close()
    assert width <= 390, f"the profile lays out {width} px wide"
    assert not findings, findings


def test_the_cards_played_stay_inside_a_phone_with_long_names(
    chromium, live_url, transactional_db, make_member
):
    """The table after each card of a hand's play in three-handed Cribbage, each player's long
    name cut under their cards: nothing reaches past the phone's edge, not even what is there
    for screen readers alone (", just played" once poked out past a name cut short)."""
    members = [make_member(f"long{i}", display_name=f"{LONG_NAME} {i}") for i in range(3)]
    match = in_thread(services.match_create, creator=members[0], variant="cribbage", players=3)
    for member in members[1:]:
        in_thread(services.match_join, match_id=match.pk, user=member)
    engine = get_variant("cribbage")
    page = member_page(chromium, live_url, members[0])
    widths, plays, marked = [], 0, 0
    while plays < 12:
        match = Match.objects.get(pk=match.pk)
        state = engine.load(match.snapshot)
        seat = min(engine.to_move(state))
        move = engine.legal_moves(state, seat)[0]
        in_thread(
            services.match_play, match_id=match.pk, user=members[seat], seq=match.seq, move=move
        )
        if move["type"] == "play":  # the page drawn afresh (moves made here are not pushed)
            plays += 1
            page.goto(match.get_absolute_url())
            expect(page.locator("#board")).to_be_visible()
            marked += page.locator(".play.is-last .sr-only").count()
            widths.append(page_width(page))
    page.context.close()
    assert marked >= 8, marked  # most plays leave the card marked (not those a count ends)
    assert max(widths) <= 390, widths


def test_who_leads_is_said_inside_the_felt_with_a_long_name(
    chromium, live_url, transactional_db, make_member, screenshot
):
    """Before a Cribist hand's first card the felt says who leads (and so names trumps). With
    a long name, in Spanish's longer words, on a phone and on a desktop, those words stay inside
    the felt and the seats' words inside their seats (the name once ran out of the felt and
    under the next seat)."""
    member = make_member("alice", display_name=LONG_NAME)
    others = [make_member(name) for name in ("max", "lola", "hugo")]  # nobody moves unasked
    for _ in range(40):  # the deal decides who leads: until the member does
        match = in_thread(services.match_create, creator=member, variant="cribist", players=4)
        for other in others:
            in_thread(services.match_join, match_id=match.pk, user=other)
        if Match.objects.get(pk=match.pk).to_move == [0]:
            break
        in_thread(services.match_abort, match_id=match.pk, user=member)
    else:
        pytest.fail("the member never led in 40 deals")
    page = member_page(chromium, live_url, member, locale="es-ES")
    page.goto(match.get_absolute_url())
    note = page.locator("#board .cx-centre .cx-centre-note")
    expect(note).to_contain_text("Alexandrina")
    spilled = {}
    for size, box in SIZES.items():
        page.set_viewport_size(box)
        spilled[size] = spilled_text(page, Cribist.boxes)
        screenshot(page, f"cribist-leads-{size}")
    page.context.close()
    assert spilled == {"phone": [], "desktop": []}, spilled
