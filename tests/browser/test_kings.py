"""A member plays Kings Cribbage against the computer in a real browser: picking rack tiles
and squares, turning a 6/9 when the lay needs it, reading the live preview, laying, then
exchanging and passing through their confirmations. Screenshots at phone and desktop sizes."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from games.engine import get_variant
from games.models import Match
from tests.browser.test_play import log_in

pytestmark = pytest.mark.browser

LAYS = 3
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


def start_kings(page: Page) -> int:
    page.goto("/play/")
    page.get_by_label("Game", exact=True).select_option("kings")
    page.get_by_label("The computer takes every other seat").check()
    page.get_by_label("The computer plays").select_option("easy")
    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def my_turn_state(page: Page, match_id: int):
    """Wait until the page offers the member a lay on the board the match is at now, then the
    engine's state of the match. (Right after the member's own lay the page still says "Your
    move" until the push brings the new board: the page's seq must be the match's.)"""
    seq = page.locator("#match-seq")
    deadline = time.monotonic() + 20
    while True:
        match = Match.objects.get(pk=match_id)
        shown = seq.get_attribute("data-seq")
        if 0 in match.to_move and shown == str(match.seq):
            break
        assert time.monotonic() < deadline, f"page at seq {shown}, match at {match.seq}"
        page.wait_for_timeout(100)
    expect(page.locator("#status .badge")).to_have_text("Your move")
    engine = get_variant("kings")
    return engine, engine.load(match.snapshot)


def place(page: Page, token: str) -> None:
    """Pick the rack tile for one 'ROW,COL=FACE' and put it on its square. A tile is picked by
    the face it shows, which is not always its data-face: a 6 or 9 turned in an earlier try
    that did not take stays turned."""
    square, face = token.split("=")
    row, col = square.split(",")
    found = page.evaluate(
        """(face) => {
            const rank = (f) => (f[0] === "T" ? "10" : f[0]);
            const tiles = Array.from(
                document.querySelectorAll("[data-kings-rack] .rack-tile:not([disabled])"));
            const shown = (t) => t.querySelector(".tile-rank").textContent.trim();
            const suited = tiles.filter((t) => t.dataset.face[1] === face[1]);
            const exact = suited.find((t) => shown(t) === rank(face));
            if (exact) return {id: exact.dataset.id, flip: false};
            const other = suited.find((t) => t.dataset.flips === "1" && "69".includes(face[0]));
            return other ? {id: other.dataset.id, flip: true} : null;
        }""",
        face,
    )
    assert found, f"no tile in the rack shows {face} or turns into it"
    page.locator(f'[data-kings-rack] .rack-tile[data-id="{found["id"]}"]').click()
    if found["flip"]:
        page.locator("[data-kings-flip]").click()  # "Turn 6/9", in any language
    page.locator(f"#kings-row-{row} > :nth-child({int(col) + 1})").click()  # an empty square


def test_a_member_lays_tiles_against_the_computer(page, alice, screenshot):
    log_in(page, "alice")
    match_id = start_kings(page)
    expect(page.locator("#conn-state")).to_have_attribute("data-state", "live")
    expect(page.locator(".sq-hole")).to_have_count(6)
    made = 0
    for _ in range(4 * LAYS):
        if made == LAYS:
            break
        engine, state = my_turn_state(page, match_id)
        lays = [m for m in engine.legal_moves(state, 0) if m["type"] == "lay"]
        if not lays:  # this rack cannot lay: swap it (or pass) and try the next turn
            swap_or_pass(page, all_tiles=True, bag=len(state.bag))
            continue
        move = max(lays, key=lambda m: (len(m["tiles"]), m["points"]))
        for token in move["tiles"]:
            place(page, token)
        expect(page.locator("#kings-preview")).to_contain_text(f"{move['points']} point")
        if made == 0:
            for name, (w, h) in SIZES.items():
                page.set_viewport_size({"width": w, "height": h})
                screenshot(page, f"kings-preview-{name}")
            page.set_viewport_size({"width": 1100, "height": 800})
        before = page.locator("#match-seq").get_attribute("data-seq")
        page.get_by_role("button", name="Lay these tiles").click()
        expect(page.locator("#match-seq")).not_to_have_attribute("data-seq", before)
        expect(page.locator(".sq-tile.is-last").first).to_be_visible()
        made += 1
    assert made == LAYS
    # The lays came as the parts of the board they changed (fragments.Parted): pieced together,
    # the board is the one a fresh page is drawn with.
    # (once the computer has answered: then nothing moves until this seat does)
    expect(page.locator("#status .badge")).to_have_text("Your move")
    fresh = page.context.new_page()
    fresh.goto(page.url)
    expect(fresh.locator("#conn-state")).to_have_attribute("data-state", "live")
    assert fresh.locator("#match-seq").get_attribute("data-seq") == page.locator(
        "#match-seq"
    ).get_attribute("data-seq")
    shown = "el => el.innerHTML.replaceAll(' is-arriving', '')"  # a tile's motion, a moment
    for region in ("[data-kings-board]", "#kings-info"):
        assert fresh.locator(region).evaluate(shown) == page.locator(region).evaluate(shown)
    # (the notes' words: a callout said on the live page is marked so, not on the fresh one)
    notes = (p.locator("#kings-notes").text_content() for p in (fresh, page))
    assert len(set(notes)) == 1
    fresh.close()
    # A board the page fetched (as it does to heal a gap) may hold what the socket never sent:
    # the page asks for every region whole with the next push (match.js, "resync").
    page.evaluate(
        """() => {
            const match = document.getElementById("match");
            window.pushed = [];
            const keep = (event) => window.pushed.push(event.detail.message);
            match.addEventListener("htmx:wsAfterMessage", keep);
            return htmx.ajax("GET", match.dataset.boardUrl, {target: match, swap: "none"});
        }"""
    )

    # A tile picked and put down can be recalled; a wrong lay is explained before it is sent.
    # (The square is one where that tile alone is no legal lay: the deal is random, and the
    # board's first empty square may be one where it is.)
    engine, state = my_turn_state(page, match_id)
    first = page.locator("[data-kings-rack] .rack-tile").first
    face = first.get_attribute("data-face")
    alone = {m["tiles"][0] for m in engine.legal_moves(state, 0) if m["type"] == "lay"
             and len(m["tiles"]) == 1}  # fmt: skip
    squares = page.locator("[data-kings-board] button.sq-empty")
    # a square's place: its row's id (kings-row-N) and its place in the row
    place_of = "sq => `${sq.parentElement.id.slice(10)},${[...sq.parentElement.children]" + (
        ".indexOf(sq)}`"
    )
    wrong = next(
        square
        for square in (squares.nth(i) for i in range(squares.count()))
        if f"{square.evaluate(place_of)}={face}" not in alone
    )
    first.click()
    wrong.click()
    expect(page.locator("#kings-preview")).to_contain_text("Not yet a legal lay")
    page.get_by_role("button", name="Recall tiles").click()
    expect(page.locator("[data-kings-board] .is-tentative")).to_have_count(0)

    for name, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        screenshot(page, f"kings-table-{name}")
    page.set_viewport_size({"width": 1100, "height": 800})

    if state.bag:
        swap_or_pass(page, all_tiles=False, bag=len(state.bag))
        engine, state = my_turn_state(page, match_id)
    swap_or_pass(page, all_tiles=False, bag=0)
    kinds = [m.move["type"] for m in Match.objects.get(pk=match_id).moves.filter(seat=0)]
    assert kinds.count("lay") == LAYS and kinds[-1] == "pass"
    # (a push about who is at the table, the fresh page gone, may come first: no board in it)
    boards = [html for html in page.evaluate("window.pushed") if 'id="kings-' in html]
    assert boards and '<section id="board"' in boards[0]  # whole, after the fetch
    assert all('<section id="board"' not in html for html in boards[1:])  # then parts again


def swap_or_pass(page: Page, *, all_tiles: bool, bag: int) -> None:
    """Exchange tiles (the first, or all the bag allows) through the confirmation, or pass."""
    before = page.locator("#match-seq").get_attribute("data-seq")
    if bag:
        page.get_by_text("Exchange tiles…").click()
        boxes = page.locator("#kings-exchange input[name=tiles]")
        for index in range(min(bag, boxes.count()) if all_tiles else 1):
            boxes.nth(index).check()
        page.get_by_role("button", name="Yes, exchange them").click()
    else:
        page.get_by_text("Pass…").click()
        page.get_by_role("button", name="Yes, pass").click()
    expect(page.locator("#match-seq")).not_to_have_attribute("data-seq", before)


def test_recall_shows_a_turned_six_or_nine_as_dealt_again(page, alice):
    """Recall undoes the whole tentative turn: a 6 or 9 turned (in the rack, or after it was put
    down) comes back to the rack as it was dealt, and Escape does the same. The deal is the
    match's own: new matches are started until a rack holds a 6 or a 9 (about half of them) and
    some lay fits it (when none does, the member may only exchange or pass: no tools shown)."""
    log_in(page, "alice")
    for _ in range(12):
        my_turn_state(page, start_kings(page))
        tile = page.locator('[data-kings-rack] .rack-tile[data-flips="1"]').first
        # the tools are shown only when some lay fits the rack (else: exchange or pass)
        if tile.count() and page.locator("[data-kings-flip]").is_visible():
            break
    else:
        pytest.fail("no rack of 12 held a 6 or a 9 with a lay that fits")
    tile = page.locator(f'[data-kings-rack] .rack-tile[data-id="{tile.get_attribute("data-id")}"]')
    rank = tile.locator(".tile-rank")
    dealt = rank.inner_text().strip()
    turned = {"6": "9", "9": "6"}[dealt]
    flip, recall = page.locator("[data-kings-flip]"), page.locator("[data-kings-recall]")
    tentative = page.locator("[data-kings-board] .is-tentative")

    tile.click()
    flip.click()  # turned in the rack
    expect(rank).to_have_text(turned)
    page.locator("[data-kings-board] button.sq-empty").first.click()
    expect(tentative.locator(".tile-rank")).to_have_text(turned)
    recall.click()
    expect(tentative).to_have_count(0)
    expect(rank).to_have_text(dealt)

    tile.click()
    page.locator("[data-kings-board] button.sq-empty").first.click()
    flip.click()  # turned after it was put down
    expect(tentative.locator(".tile-rank")).to_have_text(turned)
    tentative.focus()
    page.keyboard.press("Escape")
    expect(tentative).to_have_count(0)
    expect(rank).to_have_text(dealt)


def test_the_arrow_keys_move_between_the_boards_empty_squares(page, alice):
    """The squares carry no coordinates of their own (their place says where they are): the
    arrow keys still go square by square, and a tile put down lands where it was put."""
    log_in(page, "alice")
    start_kings(page)
    expect(page.locator("#conn-state")).to_have_attribute("data-state", "live")
    # a row whose first two squares, and the second below them, are empty (buttons)
    row = page.evaluate(
        """() => [...Array(12).keys()].find((r) => [[r, 0], [r, 1], [r + 1, 1]].every(
            ([y, x]) => document.getElementById(`kings-row-${y}`).children[x].tagName === "BUTTON"
        ))"""
    )
    assert row is not None
    place = "() => { const sq = document.activeElement, line = sq.parentElement;"
    place += " return `${line.id.slice(10)},${[...line.children].indexOf(sq)}`; }"
    page.locator(f"#kings-row-{row} > :nth-child(1)").focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate(place) == f"{row},1"
    page.keyboard.press("ArrowDown")
    assert page.evaluate(place) == f"{row + 1},1"
    # a tile put down on that square shows there, and the square's label names its place
    page.locator("[data-kings-rack] .rack-tile").first.click()
    page.locator(f"#kings-row-{row + 1} > :nth-child(2)").click()
    expect(page.locator(f"#kings-row-{row + 1} > :nth-child(2)")).to_have_class(
        re.compile(r"\bis-tentative\b")
    )
    label = page.locator(f"#kings-row-{row + 1} > :nth-child(2)").get_attribute("aria-label")
    assert f"Row {row + 2}, column 2" in label
