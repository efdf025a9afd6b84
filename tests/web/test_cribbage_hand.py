"""The Cribbage hand region is drawn in Python (games/variants/cribbage/hand.py), not by the
template engine: the same HTML, line for line, as the template partial it replaced, for every
seat and a spectator, in every phase (the discard, the play, go, muggins counts and claims,
continue, the show, the end), 2, 3 and 4 players, for a socket and for a page (with its CSRF
slot), in English and Spanish."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.utils import translation

from games import fragments
from games.engine import get_variant
from games.engine.core.variant import table_view
from games.fragments import tight as _tight
from games.variants.cribbage import hand as cribbage_hand
from tests.web.random_states import random_states

# The template partial hand.py replaced, kept word for word as the reference.
REFERENCE = (Path(__file__).parent / "cribbage_hand_reference.html").read_text()
NAMES = ["Alice", "Bob & <Co>", "Carl's", "Dana"]


def states(players: int, options: dict, seed: int, every: int):
    return random_states("cribbage", players, options, seed, every)


def context(state, over: bool, seat: int | None, players: int, *, page: bool) -> dict:
    view = table_view(get_variant("cribbage"), state, seat)
    match = SimpleNamespace(
        pk=7, seq=41, is_over=over, variant="cribbage", snapshot={}, tournament_game=None
    )
    found = {"match": match, "view": view, "seat": seat, "names": NAMES[:players], "oob": not page}
    if page:
        found["csrf_token"] = fragments.CSRF_SLOT
    return found


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize(
    "players,options,seed,every",
    [
        (2, {"target": 61}, 1, 1),
        (2, {"target": 121, "games": 3, "muggins": True}, 2, 2),
        (3, {"target": 61, "muggins": True}, 3, 1),
        (4, {"target": 61}, 4, 1),
    ],
)
def test_the_hand_is_the_templates_line_for_line(language, players, options, seed, every):
    reference = Template(REFERENCE)
    seen = set()
    with translation.override(language):
        for number, (state, over) in enumerate(states(players, options, seed, every)):
            for seat in [None, *range(players)]:
                ctx = context(state, over, seat, players, page=number % 3 == 0)
                want = _tight(reference.render(Context(ctx))).strip()
                got = _tight(cribbage_hand.hand_region(ctx)).strip()
                assert got == want, (ctx["view"]["phase"], seat)
                seen |= {part for part in PARTS if part in got}
    wanted = set(PARTS) - (set() if options.get("muggins") else set(MUGGINS))
    assert wanted <= seen, wanted - seen  # every part of the region was compared


PARTS = (
    'id="move-discard"',
    'id="move-play"',
    "disabled",
    'id="move-continue"',
    'class="shows"',
    '<p class="muted">',
    "csrfmiddlewaretoken",
    "hidden",
    'name="move" value="{&quot;type&quot;:&quot;go&quot;}"',
    "discard-link",
    *(MUGGINS := ('id="move-claim"', 'id="move-count"', 'class="counting"')),
)
