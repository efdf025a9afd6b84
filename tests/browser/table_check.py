"""What the browser tests check on any page and at every phase of a match: axe-core's findings
(the vendored tests/browser/vendor/axe.min.js, never served to the site's users), the console,
and whether the parts of the table a player needs lie inside the first screen.

A whole game is played by `play_whole_game` with a `Table` that knows one game's phases: which
phase the member is in, how to make its move, and which parts of the page must be in sight.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.browser.conftest import SCREENSHOTS

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SIZES = {"phone": PHONE, "desktop": DESKTOP}
NEWEST_EVENT = "#events ol.events > li:first-child"
OVER = "#status [data-over]"


# --- axe-core ----------------------------------------------------------------------------------


def axe_violations(page: Page, *, only: tuple[str, ...] = ()) -> list[str]:
    """axe-core's violations on the page as it is now, one line each (rule, impact, where).
    `only` limits the run to those rules (the dark-mode pass checks colour contrast alone).
    Animations are asked to stop first (prefers-reduced-motion), so no half-faded element is
    measured; the page's own setting is put back afterwards."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated through the DevTools protocol: a script tag would be refused by the
        # site's Content-Security-Policy, as it should be.
        page.evaluate(_axe_source())
    options: dict = {"resultTypes": ["violations"]}
    if only:
        options["runOnly"] = {"type": "rule", "values": list(only)}
    with _still(page):
        found = page.evaluate(
            """async (options) => (await axe.run(document, options)).violations.map((v) =>
                `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((n) =>
                    n.target.join(" ") + (n.failureSummary ? " [" +
                    n.failureSummary.split("\\n").slice(1, 2).join("").trim() + "]" : "")
                ).join("; ")}`)""",
            options,
        )
    return found


@cache
def _axe_source() -> str:
    return AXE.read_text(encoding="utf-8") + "\n;true"


# Brings every running animation (a card sliding, a callout) to its end state. Each measuring
# script below starts with it: a push landing between a separate settle and the measure would
# start a slide (a card drawn, for a moment, where it was before, or where it was at the other
# size) and the resting layout would be misjudged.
SETTLE_JS = "document.getAnimations().forEach((a) => { try { a.finish(); } catch (e) {} });"


def settle(page: Page) -> None:
    """Bring every running animation to its end state: the layout is pictured as it rests."""
    page.evaluate(f"() => {{ {SETTLE_JS} }}")


def measure(page: Page, body: str, arg: object = None):
    """What the script `body` returns (its argument is `arg`), run with every animation at its
    end, in one go: no push can land between the two."""
    return page.evaluate(f"(arg) => {{ {SETTLE_JS}\n{body} }}", arg)


@contextmanager
def _still(page: Page) -> Iterator[None]:
    page.emulate_media(reduced_motion="reduce")
    settle(page)
    try:
        yield
    finally:
        page.emulate_media(reduced_motion="no-preference")


def axe_both_modes(page: Page) -> list[str]:
    """Every rule in light mode, then colour contrast again in dark mode (the system setting)."""
    found = axe_violations(page)
    page.emulate_media(color_scheme="dark")
    try:
        found += [f"dark: {line}" for line in axe_violations(page, only=("color-contrast",))]
    finally:
        page.emulate_media(color_scheme="light")
    return found


# --- the console -------------------------------------------------------------------------------


@dataclass
class Console:
    """Every error and warning the page writes to the console, every uncaught exception and
    every failed load. With `refusals` the browser's line for a 4xx answer to a POST is let
    pass: the site answers a form or a move it refuses that way, on purpose."""

    lines: list[str] = field(default_factory=list)
    allowed: tuple[str, ...] = ()
    during: str = ""  # what the test was doing, said with each line
    refusals: bool = False
    refused: set[str] = field(default_factory=set)  # addresses that refused a POST

    def watch(self, page: Page) -> Console:
        page.on("console", self._message)
        page.on("pageerror", lambda error: self.lines.append(f"uncaught ({self.during}): {error}"))
        # Which address a "Failed to load resource" line was about.
        page.on("response", self._response)
        return self

    def _response(self, response) -> None:
        if response.status < 400 or any(a in response.url for a in self.allowed):
            return
        if self.refusals and response.status < 500 and response.request.method == "POST":
            self.refused.add(response.url)
            return
        self.lines.append(f"{response.status} ({self.during}): {response.url}")

    def _message(self, message) -> None:
        if message.type not in ("error", "warning"):
            return
        if any(allowed in message.text for allowed in self.allowed):
            return
        if message.text.startswith("Failed to load resource") and (
            (message.location or {}).get("url") in self.refused
        ):
            return
        self.lines.append(f"{message.type} ({self.during}): {message.text}")


# --- the first screen --------------------------------------------------------------------------


def outside_first_screen(page: Page, parts: dict[str, str]) -> dict[str, str]:
    """The parts (name -> CSS selector) that are missing, hidden, or not wholly inside the first
    screen, with the page scrolled to its top; each with where it lies."""
    return measure(
        page,
        """
            const parts = arg;
            window.scrollTo(0, 0);
            const out = {};
            const [w, h] = [window.innerWidth, window.innerHeight];
            for (const [name, selector] of Object.entries(parts)) {
                const boxes = Array.from(document.querySelectorAll(selector))
                    .map((el) => el.getBoundingClientRect())
                    .filter((box) => box.width > 0 && box.height > 0);
                if (!boxes.length) { out[name] = "not on show (" + selector + ")"; continue; }
                const top = Math.min(...boxes.map((b) => b.top));
                const bottom = Math.max(...boxes.map((b) => b.bottom));
                const left = Math.min(...boxes.map((b) => b.left));
                const right = Math.max(...boxes.map((b) => b.right));
                if (top < 0 || left < -1 || bottom > h + 0.5 || right > w + 1) {
                    out[name] = `x ${Math.round(left)}-${Math.round(right)}, ` +
                        `y ${Math.round(top)}-${Math.round(bottom)} of ${w}x${h}`;
                }
            }
            return out;
        """,
        parts,
    )


def lowest_edge(page: Page, selector: str) -> float:
    """The bottom of what `selector` matches, in pixels from the top of the page."""
    return measure(
        page,
        """return Math.max(0, ...Array.from(document.querySelectorAll(arg))
            .map((el) => el.getBoundingClientRect())
            .filter((b) => b.height > 0).map((b) => b.bottom + window.scrollY));""",
        selector,
    )


def page_width(page: Page) -> int:
    return measure(page, "return document.documentElement.scrollWidth;")


def overflowing(page: Page) -> list[str]:
    """The elements that reach past the right edge of the screen, innermost first (tag, id,
    classes, right edge): what made a page too wide, said in the report."""
    return measure(
        page,
        """
        const edge = document.documentElement.clientWidth;
        const out = [];
        for (const el of document.body.querySelectorAll("*")) {
          const box = el.getBoundingClientRect();
          if (box.width && box.right > edge + 0.5 && !el.querySelector("*")) {
            const within = el.parentElement?.getAttribute("class") || "";
            out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.getAttribute("class") || ""}`
              + ` right ${Math.round(box.right)} in ${within}`);
          }
        }
        return out.slice(0, 5);
        """,
    )


def spilled_text(page: Page, boxes: tuple[str, ...]) -> list[str]:
    """Text that reaches outside the box it is written in: for each element matching one of
    `boxes`, every line of text in it whose drawn extent passes the box's edges (a long name
    set in a narrow part of the table, say). Text cut short on purpose (an ellipsis, a clamp:
    hidden overflow between it and the box) does not count."""
    return measure(
        page,
        """
        const out = [];
        for (const selector of arg) {
          for (const box of document.querySelectorAll(selector)) {
            const edge = box.getBoundingClientRect();
            if (!edge.width) continue;
            const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              if (!node.textContent.trim()) continue;
              let clipped = false;
              for (let el = node.parentElement; el && el !== box; el = el.parentElement) {
                const style = getComputedStyle(el);
                if (style.overflowX !== "visible" || style.display === "none"
                    || el.classList.contains("sr-only")) { clipped = true; break; }
              }
              if (clipped) continue;
              const range = document.createRange();
              range.selectNodeContents(node);
              for (const line of range.getClientRects()) {
                if (line.width && (line.left < edge.left - 1 || line.right > edge.right + 1)) {
                  out.push(`${selector}: "${node.textContent.trim().slice(0, 40)}" spans `
                    + `${Math.round(line.left)}-${Math.round(line.right)}, its box `
                    + `${Math.round(edge.left)}-${Math.round(edge.right)}`);
                  break;
                }
              }
            }
          }
        }
        return out.slice(0, 5);
        """,
        list(boxes),
    )


# --- a whole game ------------------------------------------------------------------------------


class Table:
    """One game's phases, as the member sees them. Subclasses give `phase`, `act` and `parts`."""

    name = "game"
    moves = 3000  # more than any whole game takes
    seconds = 240  # a whole game takes a tenth of this on a quiet machine

    def phase(self, page: Page) -> str | None:
        """The member's phase now, or None while others are to move."""
        raise NotImplementedError

    def act(self, page: Page, phase: str) -> None:
        """Make the phase's move by clicking, as a member would."""
        raise NotImplementedError

    def parts(self, phase: str) -> dict[str, str]:
        """What must lie inside the first screen in this phase: the board, the cards on the
        table, the hand and the action (the move's controls). The newest event is added."""
        raise NotImplementedError

    def seen(self, page: Page, phase: str) -> None:
        """Anything more to check the first time a phase is on show."""

    # The parts of the page whose words must stay inside them at every size (`spilled_text`);
    # a game adds its own smaller boxes
    boxes: tuple[str, ...] = ("#status", "#players li", "#board", "#hand")

    @staticmethod
    def first_of(page: Page, phases: dict[str, str]) -> str | None:
        """The first phase (name -> selector) whose selector matches something on the page."""
        return page.evaluate(
            """(phases) => Object.keys(phases).find((name) =>
                document.querySelector(phases[name])) || null""",
            phases,
        )


@dataclass
class Report:
    """What a whole game found, per phase and size: asserted at the end, written as JSON."""

    name: str
    late: dict[str, dict[str, str]] = field(default_factory=dict)
    axe: list[str] = field(default_factory=list)
    wide: dict[str, int] = field(default_factory=dict)
    wide_by: dict[str, list[str]] = field(default_factory=dict)  # where -> what reached past
    spilled: dict[str, list[str]] = field(default_factory=dict)  # where -> text out of its box
    phases: list[str] = field(default_factory=list)
    bottoms: dict[str, float] = field(default_factory=dict)
    axe_seconds: float = 0.0
    seconds: float = 0.0

    def write(self) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{self.name}.json"
        path.write_text(json.dumps(self.__dict__, indent=1))

    def problems(self) -> list[str]:
        out = [f"{where}: {part} {box}" for where, parts in self.late.items()
               for part, box in parts.items()]  # fmt: skip
        out += [f"axe {line}" for line in self.axe]
        out += [f"{where}: the page is {width} px wide ({self.wide_by.get(where, [])})"
                for where, width in self.wide.items()]  # fmt: skip
        out += [
            f"{where}: words out of their box: {lines}" for where, lines in self.spilled.items()
        ]
        return out


def look(page: Page, table: Table, phase: str, report: Report, *, first: bool) -> bool:
    """Check the phase on show at the phone size; the first time a phase is on show also check
    the desktop size (1280x800) the same way, take screenshots at both sizes and run axe (colour
    contrast in dark mode too). False when a push changed the phase meanwhile: nothing is
    recorded then, and the caller looks again."""
    parts = {**table.parts(phase), "newest event": NEWEST_EVENT}
    found: list[tuple[str, dict[str, str], float, int]] = []
    for size in ("phone", "desktop") if first else ("phone",):
        page.set_viewport_size(SIZES[size])
        late = outside_first_screen(page, parts)
        bottom = lowest_edge(page, ", ".join(parts.values()))
        width = page_width(page)
        if width > SIZES[size]["width"]:
            report.wide_by[f"{phase} at {size}"] = overflowing(page)
        spilled = spilled_text(page, table.boxes) if table.boxes else []
        if phase != "end" and table.phase(page) != phase:
            page.set_viewport_size(PHONE)
            return False
        found.append((size, late, bottom, width, spilled))
        if first:
            settle(page)  # the measures settle for themselves; the picture too shows it at rest
            page.screenshot(path=str(SCREENSHOTS / f"{table.name}-{phase}-{size}.png"))
    page.set_viewport_size(PHONE)
    for size, late, bottom, width, spilled in found:
        where = f"{phase} at {size}"
        if spilled:
            report.spilled.setdefault(where, spilled)
        worse = bottom > report.bottoms.get(where, -1)
        if worse:
            report.bottoms[where] = bottom
        if width > SIZES[size]["width"]:
            report.wide[where] = width
        if late and (worse or where not in report.late):  # the worst it looked, and a picture
            report.late[where] = late
            if not first:
                page.screenshot(path=str(SCREENSHOTS / f"{table.name}-{phase}-{size}-worst.png"))
    if first:
        started = time.monotonic()
        report.axe += [f"{phase} at phone: {line}" for line in axe_both_modes(page)]
        page.set_viewport_size(DESKTOP)
        report.axe += [f"{phase} at desktop: {line}" for line in axe_violations(page)]
        page.set_viewport_size(PHONE)
        report.axe_seconds += time.monotonic() - started
        table.seen(page, phase)
    return True


def play_whole_game(page: Page, table: Table, report: Report, console: Console) -> None:
    """Play until the match is over, checking each phase the member is in (see `look`), then
    the end: the banner in sight at both sizes, axe, screenshots."""
    seen: set[str] = set()
    started = time.monotonic()
    misses = 0  # moves in a row that did not take: the page is redrawn, or the test is stuck
    missed = ""  # why the last one did not (the first line of its error)
    for _ in range(table.moves):
        if page.locator(OVER).count():
            break
        if misses > 8 or time.monotonic() - started > table.seconds:
            raise AssertionError(
                f"{table.name}: stuck in {report.phases} ({console.during}; last miss: {missed})"
            )
        phase = table.phase(page)
        if phase is None:
            page.wait_for_timeout(40)
            continue
        if not look(page, table, phase, report, first=phase not in seen):
            continue
        if phase not in seen:
            seen.add(phase)
            report.phases.append(phase)
        before = page.locator("#match-seq").get_attribute("data-seq")
        console.during = f"{phase} after seq {before}"
        try:
            table.act(page, phase)
            expect(page.locator("#match-seq")).not_to_have_attribute("data-seq", before)
        except (PlaywrightError, AssertionError) as error:
            misses += 1
            missed = (str(error).strip().splitlines() or [type(error).__name__])[0]
            continue  # redrawn under the click by a push: look again
        misses = 0
    else:
        raise AssertionError(f"{table.name}: the match did not finish")
    expect(page.locator(OVER)).to_be_visible()
    page.wait_for_timeout(400)  # the banner's entrance
    console.during = "end"
    look(page, table, "end", report, first=True)
    report.phases.append("end")
    report.seconds = time.monotonic() - started


def in_thread(function: Callable, /, **kwargs):
    """Run a service outside playwright's event loop (it tells the channel layer)."""
    with ThreadPoolExecutor(1) as worker:
        return worker.submit(function, **kwargs).result()


def member_page(chromium, live_url: str, member, *, locale: str = "en-GB") -> Page:
    """A phone-sized page signed in as `member` (the session cookie of a forced login)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(member)
    context = chromium.new_context(base_url=live_url, viewport=PHONE, locale=locale)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_url}])
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def finished_match(first, second, seed: int = 5):
    """A whole Cribbage match to 61 between two members, by random legal moves (call it through
    `in_thread`: the services tell the channel layer)."""
    from games import services
    from tests.games.helpers import any_move, fresh

    match = services.match_create(
        creator=first, variant="cribbage", players=2, options={"target": 61}
    )
    services.match_join(match_id=match.pk, user=second)
    members, rng = [first, second], random.Random(seed)
    while not (match := fresh(match)).is_over:
        seat = min(services.engine_view(match, None)["to_move"])
        move = any_move(match, seat, rng)
        services.match_play(match_id=match.pk, user=members[seat], seq=match.seq, move=move)
    return match
