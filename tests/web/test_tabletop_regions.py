"""The Table Top (and CrossCrib) board and hand regions are drawn in Python
(games/variants/tabletop/board.py and hand.py), not by the template engine: byte for byte the
HTML of the table template's "board" partial (which still draws the replay's board) and of the
"hand" partial hand.py replaced (tests/web/tabletop_hand_reference.html), for every seat and a
spectator through whole random games, for a socket and for a page (with its CSRF slot), in
English and Spanish; the board drawn once for all who see the same one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.template.loader import get_template
from django.utils import translation

from games import fragments
from games.engine import get_variant
from games.engine.core.variant import table_view
from games.fragments import tight as _tight
from games.presenters import side_labels
from games.variants import web_game
from games.variants.tabletop import board as tabletop_board
from games.variants.tabletop import hand as tabletop_hand
from tests.web.random_states import random_states

# The template partial hand.py replaced, kept word for word as the reference.
HAND = (Path(__file__).parent / "tabletop_hand_reference.html").read_text()
NAMES = ["Alice", "Bob & <Co>", "Carl's", "Dana"]
GAMES = [("tabletop", 2, 1), ("tabletop", 4, 2), ("crosscrib", 2, 3)]


@dataclass(frozen=True)
class Sitting:  # what the regions read of presenters.Seating
    index: int
    team: int


def context(variant: str, state, seat: int | None, *, page: bool, seq: int = 41) -> dict:
    view = table_view(get_variant(variant), state, seat)
    names = NAMES[: state.players]
    found = {
        "match": SimpleNamespace(pk=7, seq=seq),
        "web": web_game(variant),
        "view": view,
        "seat": seat,
        "names": names,
        "sides": side_labels(view, names),
        "seats": [Sitting(i, i % 2) for i in range(state.players)],
        "oob": not page,
    }
    if page:
        found["csrf_token"] = fragments.CSRF_SLOT
    return found


def drawn_by_templates(ctx: dict) -> dict[str, str]:
    board = get_template("games/tabletop/table.html#board").render(ctx)
    return {"board": _tight(board), "hand": _tight(Template(HAND).render(Context(ctx)))}


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("variant,players,seed", GAMES)
def test_the_regions_are_the_templates_byte_for_byte(language, variant, players, seed):
    seen = set()
    with translation.override(language):
        for number, (state, _) in enumerate(random_states(variant, players, {}, seed)):
            for seat in [None, *range(players)]:
                ctx = context(variant, state, seat, page=number % 3 == 0)
                want = drawn_by_templates(ctx)
                assert tabletop_board.board_region(ctx) == want["board"], (number, seat)
                assert tabletop_hand.hand_region(ctx) == want["hand"], (number, seat)
                got = want["board"] + want["hand"]
                seen |= {part for part in PARTS if part in got}
    wanted = {*PARTS} - ({*CRIB} if variant == "tabletop" else {*PARTNERS, "is-empty"})
    wanted -= set() if players == 4 else {*PARTNERS}
    assert wanted <= seen, wanted - seen  # every part of the regions was compared


# (the count's game points, and a card that must go to the crib)
CRIB = ('id="move-crib"', "tt-crib-mine", "tt-crib-line", '<p class="small">', "\n<p>")
PARTNERS = ('data-action="advise"', "tt-advice-note", "is-advised")
PARTS = (
    *CRIB,
    *PARTNERS,
    'data-action="place"',
    'class="callout',
    'class="tt-count"',
    'id="move-continue"',
    "csrfmiddlewaretoken",
    "is-empty",
    "tt-stacks",
)


def test_the_board_is_drawn_once_for_all_who_see_the_same():
    state = next(s for s, _ in random_states("tabletop", 4, {}, 5) if s.log and s.turn == 1)
    before = tabletop_board.boards_drawn
    drawn = {
        seat: tabletop_board.board_region(context("tabletop", state, seat, page=False))
        for seat in [None, 0, 1, 2, 3]
    }
    # the seat to move and its partner choose squares; the others and a spectator share one
    assert tabletop_board.boards_drawn == before + 3
    assert drawn[None] == drawn[0] == drawn[2]
    assert 'data-action="place"' in drawn[1] and 'data-action="advise"' in drawn[3]
    assert "Bob &amp; &lt;Co&gt;" in drawn[None] and "<Co>" not in drawn[None]


def test_a_new_move_or_language_is_drawn_afresh():
    state = next(s for s, _ in random_states("crosscrib", 2, {}, 6) if s.log)
    before = tabletop_board.boards_drawn
    tabletop_board.board_region(context("crosscrib", state, None, page=False))
    tabletop_board.board_region(context("crosscrib", state, None, page=False, seq=42))
    tabletop_board.board_region(context("crosscrib", state, None, page=True, seq=42))
    with translation.override("es"):
        spanish = tabletop_board.board_region(context("crosscrib", state, None, page=False))
    assert tabletop_board.boards_drawn == before + 4
    assert "Reparto" in spanish or "Mano" in spanish


def test_the_game_names_its_python_regions():
    for key in ("tabletop", "crosscrib"):
        web = web_game(key)
        assert web.region_drawer("board") is tabletop_board.board_region
        assert web.region_drawer("hand") is tabletop_hand.hand_region
