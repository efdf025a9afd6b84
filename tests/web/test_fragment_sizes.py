"""What a live move sends: the classic Cribbage board region, mid-game for 2, 3 and 4 players,
stays small now that the pegboard's holes are a static drawing, and still carries every peg in
its place and every score."""

from __future__ import annotations

import random
import re

import pytest

from games import presenters, services
from games.engine import get_variant
from games.models import Match
from games.variants.cribbage.templatetags import cribbage_table
from tests.games.helpers import fresh

pytestmark = pytest.mark.django_db
CRIBBAGE = get_variant("cribbage")

# Byte bounds (sizes, not timings). The pegboard was 19-27 KB with its holes (the region 24-33
# KB); it is now its pegs and scores, 1.4-2 KB. The rest of the region is the felt and the cards
# on it: a card was ~530 bytes of spans, it is now one span of ~100 (3.3-4.5 KB seen for the region,
# 3.6-9 KB before). The hand region holds the seat's own cards as buttons or checkboxes.
PEGBOARD_BYTES = 2200
# The board carries the cards on the table too (a deal is random): more seats, more cards.
BOARD_REGION_BYTES = {2: 4_500, 3: 5_500, 4: 6_500}
HAND_REGION_BYTES = 2_500


def _mid_game(members, target: int, seed: int) -> Match:
    """A match of len(members) members played with random legal moves until a side is half way
    to the target, in the play (pegs apart, cards on the table)."""
    match = services.match_create_seated(
        creator=members[0], players=members, variant="cribbage", options={"target": target}
    )
    rng = random.Random(seed)
    for _ in range(4000):
        match = fresh(match)
        state = CRIBBAGE.load(match.snapshot)
        if max(state.scores) >= target // 2 and state.phase == "play":
            return match
        seat = min(CRIBBAGE.to_move(state))
        move = rng.choice(CRIBBAGE.legal_moves(state, seat))
        services.match_play(match_id=match.pk, user=members[seat], seq=match.seq, move=move)
    raise AssertionError("the match never got half way")


@pytest.mark.parametrize(
    ("players", "target"), [(2, 121), (3, 121), (4, 121), (2, 61), (3, 61), (4, 61)]
)
def test_it_sends_a_small_board_with_every_peg_and_score(make_member, players, target):
    members = [make_member(name) for name in ("ann", "ben", "cy", "dee")[:players]]
    match = _mid_game(members, target, seed=players * 1000 + target)
    state = CRIBBAGE.load(match.snapshot)

    regions = presenters.viewer_regions(match, members[0])
    board = regions["board"]
    assert len(regions["hand"].encode()) <= HAND_REGION_BYTES, len(regions["hand"].encode())

    figure = re.search(r'<figure class="pegboard".*?</figure>', board, re.S).group(0)
    assert len(figure.encode()) <= PEGBOARD_BYTES, len(figure.encode())
    assert len(board.encode()) <= BOARD_REGION_BYTES[players], len(board.encode())
    assert "pb-hole" not in board  # the holes are the static drawing's
    count = len(state.scores)  # sides: 2, 3, or 2 partnerships of 4 players
    assert f"games/cribbage/pegboard-{target}-{count}.svg" in figure
    layout = cribbage_table.board_layout(
        [{"score": s, "back_peg": b} for s, b in zip(state.scores, state.back_pegs, strict=True)],
        target,
    )
    for peg in layout["pegs"]:
        circle = (
            f'<circle class="pb-peg pb-peg-{peg["kind"]}" data-side="{peg["side"]}" '
            f'data-score="{peg["score"]}" cx="{peg["x"]}" cy="{peg["y"]}"'
        )
        assert circle in figure
    for side, score in enumerate(state.scores):
        assert f'data-side="{side}" data-score="{score}"' in figure
        assert f'<span class="pegboard-score">{score} </span>' in figure
    assert f"game to {target}" in figure
