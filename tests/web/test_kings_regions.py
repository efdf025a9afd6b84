"""The Kings board and hand regions are drawn in Python (games/variants/kings/board.py and
hand.py), not by the template engine: the same HTML, byte for byte, as the template partials
they replaced, for every viewer and phase, 2, 3 and 4 players, with each option, in English and
Spanish; the board drawn once for each kind of viewer of a move."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from cribsite.kept import CSRF_SLOT
from games import fragments
from games.engine import get_variant
from games.engine.core.variant import table_view
from games.fragments import tight as _tight
from games.variants import web_game
from games.variants.kings import board as kings_board
from tests.web.random_states import random_states

# The reference partial's {% csrf_token %}, drawn for a socket (no token), calls format_html("")
# in Django 5.2, which warns of its own deprecation: Django's, not ours.
pytestmark = pytest.mark.filterwarnings("ignore:Calling format_html:DeprecationWarning")

# The template partials board.py and hand.py replaced, kept word for word as the references.
BOARD = (Path(__file__).parent / "kings_board_reference.html").read_text()
HAND = (Path(__file__).parent / "kings_hand_reference.html").read_text()
NAMES = ["Alice", "Bob & <Co>", "Carl's", "Dana"]
TOKENS = [None, CSRF_SLOT, "a'token<", "NOTPROVIDED"]  # no token, a page's slot, odd ones


@dataclass(frozen=True)
class Sitting:  # what the callouts read of presenters.Seating
    index: int
    team: int


@dataclass(frozen=True)
class Board:  # what the hand reads of a match
    pk: int
    seq: int


def context(state, seat: int | None, players: int, number: int) -> dict:
    view = table_view(get_variant("kings"), state, seat)
    ctx = {
        "match": Board(pk=7 + number % 3, seq=number),
        "view": view,
        "seat": seat,
        "names": NAMES[:players],
        "web": web_game("kings"),
        "seats": [Sitting(i, i) for i in range(players)],
        "oob": number % 2 == 0,
    }
    token = TOKENS[number % len(TOKENS)]
    if token is not None:
        ctx["csrf_token"] = token
    return ctx


def drawn(region: str, ctx: dict) -> str:
    """The region as the match page gets it: drawn by the game (WebGame.regions), tightened."""
    return _tight(web_game("kings").region_drawer(region)(ctx))


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize(
    "players,options,seed,every",
    [
        (2, {}, 1, 1),
        (2, {"joker": True}, 2, 1),
        (3, {"centre_start": True, "reduced_first_bonus": True}, 3, 2),
        (4, {"joker": True}, 4, 2),
    ],
)
def test_the_regions_are_the_templates_byte_for_byte(language, players, options, seed, every):
    board, hand = Template(BOARD), Template(HAND)
    seen: set[str] = set()
    number = 0
    with translation.override(language):
        for state, _ in random_states("kings", players, options, seed, every):
            for seat in [None, *range(players)]:
                number += 1
                ctx = context(state, seat, players, number)
                want = _tight(board.render(Context(ctx))).strip()
                got = drawn("board", ctx)
                assert got == want, (ctx["view"]["phase"], seat)
                want = _tight(hand.render(Context(ctx))).strip()
                got = drawn("hand", ctx)
                assert got == want, (ctx["view"]["phase"], seat)
                seen |= {part for part in PARTS if part in got + drawn("board", ctx)}
    assert seen >= EXPECTED[bool(options.get("joker"))], seen


# Parts of the regions the games above reach, so that the comparison covers each of them.
PARTS = (
    'class="callout',
    "kings-racks",
    "kings-last",
    "is-turn",
    "kings-exchange",
    "kings-pass",
    "data-not-turn",
    "underlined",
    "kings-joker",
    "kings-declare",
    "Your rack is empty",
    "kings-preview",
    "csrfmiddlewaretoken",
)
EXPECTED = {
    False: set(PARTS) - {"kings-joker", "kings-declare", "Your rack is empty"},
    True: {"kings-joker", "kings-declare", "kings-racks", "csrfmiddlewaretoken"},
}


def test_the_board_is_drawn_once_for_the_seats_and_once_for_the_spectators():
    state = [s for s, _ in random_states("kings", 3, {}, 5, 1)][6]
    before = kings_board.boards_drawn
    boards = {seat: drawn("board", context(state, seat, 3, 2)) for seat in [None, 0, 1, 2]}
    assert kings_board.boards_drawn == before + 2
    assert boards[0] == boards[1] == boards[2] != boards[None]
    assert "<button" in boards[0] and "<button" not in boards[None]
    assert "Bob &amp; &lt;Co&gt;" in boards[None] and "<Co>" not in boards[None]
    with translation.override("es"):
        spanish = drawn("board", context(state, None, 3, 2))
    assert kings_board.boards_drawn == before + 3 and spanish != boards[None]


def test_a_new_board_is_drawn_afresh_and_shows_the_new_tiles():
    first, second = [s for s, _ in random_states("kings", 2, {}, 6, 1)][3:5]
    before = kings_board.boards_drawn
    one, two = (drawn("board", context(s, None, 2, 2)) for s in (first, second))
    assert kings_board.boards_drawn == before + 2
    assert one.count("sq-tile") < two.count("sq-tile") or one != two


def test_a_seat_sees_its_own_rack_only():
    state = [s for s, _ in random_states("kings", 3, {}, 7, 1)][4]
    for seat in (0, 1, 2):
        hand = drawn("hand", context(state, seat, 3, 2))
        for other, rack in enumerate(state.racks):
            for tile in rack:
                assert (f'data-id="{tile}"' in hand) == (other == seat)
    spectator = drawn("hand", context(state, None, 3, 2))
    assert "data-id" not in spectator and "the racks stay hidden" in spectator


PUSHED_PART = re.compile(r'(?=<(?:div|ul) id="kings-[\w-]+" [^>]*hx-swap-oob="true")')


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("players,seed", [(2, 11), (4, 12)])
def test_a_page_sent_only_the_changed_parts_of_the_board_shows_the_whole_new_board(
    language, players, seed
):
    """Each viewer's page, given after every move only what fragments.changes says to send,
    holds the very board it would be sent whole; after a lay, about a third of it."""
    sizes: list[tuple[int, int]] = []
    with translation.override(language):
        for viewer in [None, *range(players)]:
            page = None
            for number, (state, _) in enumerate(random_states("kings", players, {}, seed, 1)):
                ctx = {**context(state, viewer, players, number), "oob": True}
                board = drawn("board", ctx)
                assert isinstance(board, fragments.Parted)
                assert [name for name, _ in board.parts] == [
                    "kings-info",
                    *(f"kings-row-{r}" for r in range(13)),
                    "kings-notes",
                ]
                assert all(html in board for _, html in board.parts)
                sent = fragments.changes(page, board)
                if sent is board:  # the whole region (the first, or a new frame)
                    page = board
                    continue
                shown, old = str(page), dict(page.parts)
                for piece in filter(None, PUSHED_PART.split(sent)):
                    name = re.match(r'<\w+ id="([\w-]+)"', piece)[1]
                    shown = shown.replace(old[name], piece.replace(' hx-swap-oob="true"', ""), 1)
                assert shown == board
                if ctx["view"]["last"] and ctx["view"]["last"]["kind"] == "lay" and sent:
                    sizes.append((len(sent.encode()), len(board.encode())))
                page = board
    # A lay changes the scores, the notes, the rows its tiles went into and those of the lay
    # before (no longer outlined): about a third of the board, a row being 1-2 KB.
    assert sizes
    assert sum(part for part, _ in sizes) < 0.4 * sum(whole for _, whole in sizes)
