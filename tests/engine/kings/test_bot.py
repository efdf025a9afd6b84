"""The strong computer's look at the next player's reply: its shortcut search after a lay
(only the lines the lay reaches) finds what a search of the whole board finds."""

from __future__ import annotations

import random

import pytest

from games.engine import computer_move
from games.engine.kings import KINGS, bot
from games.engine.kings.board import Placement, index, parse_placement
from games.engine.kings.movegen import legal_lays
from games.engine.pieces.tiles import Laid, Tile


def positions(game: int):
    """Every fourth position of a seeded game between easy computers, once tiles are down."""
    rng = random.Random(game)
    state = KINGS.new_state(2, {}, f"reply check {game}".encode())
    moves = 0
    while KINGS.outcome(state) is None:
        seat = min(KINGS.to_move(state))
        if moves >= 2 and moves % 4 == 0:
            yield state, seat
        state, _ = KINGS.apply(state, seat, computer_move(KINGS, state, seat, "easy", rng))
        moves += 1


def full_search(replies: bot.Replies, placements: list[Placement]) -> float:
    cells = list(replies.board)
    for placed in placements:
        cells[index(placed.square)] = Laid(Tile(placed.rank, placed.suit, 0), placed.rank)
    after = tuple(cells)
    best = [
        max((lay.points for lay in legal_lays(after, rack, first=False)), default=0)
        for rack in replies.racks
    ]
    return sum(best) / len(best)


@pytest.mark.parametrize("game", range(3))
def test_the_reply_after_a_lay_is_the_best_lay_on_the_whole_board(game):
    checked = 0
    for state, seat in positions(game):
        view = KINGS.view(state, seat)
        replies = bot.Replies(view, bot.board_of(view), random.Random(seat))
        lays = [move for move in KINGS.legal_moves(state, seat) if move["type"] == "lay"]
        for move in random.Random(len(lays)).sample(lays, min(6, len(lays))):
            placements = [parse_placement(token) for token in move["tiles"]]
            assert replies.after(placements) == full_search(replies, placements), move
            checked += 1
    assert checked > 20
