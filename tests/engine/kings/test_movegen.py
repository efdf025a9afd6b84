"""Move generation: every distinct legal lay, once, with the points `score_lay` gives it,
checked against a plain search over squares and tiles on small positions."""

from __future__ import annotations

import random
from itertools import combinations, permutations

import pytest

from games.engine.core.variant import IllegalMove
from games.engine.kings import KINGS
from games.engine.kings.board import EMPTY_BOARD, GRID, Placement, index, score_lay
from games.engine.kings.movegen import legal_lays
from games.engine.pieces.tiles import Tile, parse_face
from tests.engine.kings.helpers import board_with, column_of, random_steps, row_of


def rack_of(faces: str) -> list[Tile]:
    tiles = []
    for copy, face in enumerate(faces.split()):
        rank, suit = parse_face(face)
        tiles.append(Tile(rank, suit, copy % 4))
    return tiles


def generated(board, rack, **options) -> dict[frozenset, int]:
    found: dict[frozenset, int] = {}
    for lay in legal_lays(board, rack, **options):
        key = frozenset(lay.placements)
        assert key not in found, f"{lay} listed twice"
        found[key] = lay.points
    return found


def searched(board, rack, *, first=False, most=3) -> dict[frozenset, int]:
    """Every set of squares in one line near the tiles, every choice of faces: try them all."""
    if first:
        near = [s for s in GRID.squares() if abs(s[0] - 6) + abs(s[1] - 6) <= 2]
    else:
        tiles = [s for s in GRID.squares() if board[index(s)] is not None]
        near = [
            s
            for s in GRID.squares()
            if board[index(s)] is None
            and any(abs(s[0] - t[0]) + abs(s[1] - t[1]) <= 3 for t in tiles)
        ]
    faces = []
    for tile in rack:
        faces.append([(r, tile.suit) for r in tile.laid_ranks()])
    found: dict[frozenset, int] = {}
    for size in range(1, most + 1):
        for squares in combinations(near, size):
            if len({r for r, _ in squares}) > 1 and len({c for _, c in squares}) > 1:
                continue
            for chosen in permutations(range(len(rack)), size):
                for picks in _choices([faces[i] for i in chosen]):
                    lay = [
                        Placement(r, c, rank, suit)
                        for (r, c), (rank, suit) in zip(squares, picks, strict=True)
                    ]
                    try:
                        result = score_lay(board, lay, first=first, centre_start=first)
                    except IllegalMove:
                        continue
                    found[frozenset(lay)] = result.total
    return found


def _choices(options):
    if not options:
        yield ()
        return
    for head in options[0]:
        for tail in _choices(options[1:]):
            yield (head, *tail)


POSITIONS = [
    (board_with(*row_of(6, 5, "5L TL")), "5D KD 9L"),
    (board_with(*row_of(5, 3, "8L 7L 6L 5L")), "9D TD JD"),
    (board_with(*column_of(4, 6, "7L 8D"), *row_of(6, 3, "4L 4D 7D")), "6L 7L 8L"),
    (board_with(*row_of(11, 6, "5L TL"), *column_of(9, 9, "QD KD")), "5D 5L 6D"),
]


@pytest.mark.parametrize(("board", "rack"), POSITIONS)
def test_the_generator_finds_exactly_what_a_plain_search_finds(board, rack):
    tiles = rack_of(rack)
    assert generated(board, tiles, first=False) == searched(board, tiles)


def test_first_lays_over_the_centre_match_the_search():
    tiles = rack_of("5D KD 5L")
    found = generated(EMPTY_BOARD, tiles, first=True, centre_start=True)
    assert found == searched(EMPTY_BOARD, tiles, first=True)
    assert all(
        Placement(6, 6, *parse_face("5D")) in lay or any(p.square == (6, 6) for p in lay)
        for lay in found
    )


def test_a_six_or_nine_is_listed_once_per_value():
    board = board_with(*row_of(6, 5, "6L 9L"))
    one = generated(board, rack_of("6D"), first=False)
    both = generated(board, rack_of("6D 9D"), first=False)
    assert {p.face for lay in one for p in lay} == {"6D", "9D"}
    singles = {lay for lay in both if len(lay) == 1}
    assert singles == set(one)  # the 6D and the 9D are the same tile turned round


def test_identical_tiles_give_each_lay_once():
    board = board_with(*row_of(6, 5, "5L TL"))
    assert generated(board, rack_of("KD KD KD"), first=False)  # no lay listed twice (asserted)


def test_every_listed_lay_is_accepted_with_its_points_in_real_games():
    rng = random.Random(7)
    state = KINGS.new_state(2, {}, b"movegen check")
    checked = 0
    for before, seat, _move, _after, _events in random_steps(state, rng):
        if checked >= 6:
            break
        if before.first_lay or seat != before.turn:
            continue
        moves = [m for m in KINGS.legal_moves(before, seat) if m["type"] == "lay"]
        for move in rng.sample(moves, min(40, len(moves))):
            after, events = KINGS.apply(before, seat, move)
            assert events[0]["points"] == move["points"]
        checked += 1
    assert checked == 6


def test_a_limit_gives_the_first_lays_of_the_full_list():
    """`limit` stops the search once it has found that many lays: the same lays, in the same
    order, as the head of the whole list (limit=1: whether any lay fits at all)."""
    rng = random.Random(11)
    state = KINGS.new_state(3, {}, b"movegen limit")
    seen = {"none": 0, "some": 0}
    for before, seat, _move, _after, _events in random_steps(state, rng):
        rack = before.racks[seat]
        options = {"first": before.first_lay, "centre_start": before.first_lay}
        every = legal_lays(before.board, rack, **options)
        for limit in (1, 2, 7):
            assert legal_lays(before.board, rack, limit=limit, **options) == every[:limit]
        seen["some" if every else "none"] += 1
    assert seen["some"] > 10 and seen["none"] > 0  # both kinds of position were met
    with pytest.raises(ValueError, match="one lay or more"):
        legal_lays(EMPTY_BOARD, rack_of("5D TD"), first=True, limit=0)


def test_the_table_view_lists_one_move_of_each_kind_open():
    """A page is given one lay and one exchange (it only asks whether there is one), the pass,
    and the Joker call; programs get every lay in the full view."""
    rng = random.Random(5)
    state = KINGS.new_state(2, {"joker": True}, b"table view")
    checked = 0
    for before, seat, _move, _after, _events in random_steps(state, rng):
        full = KINGS.view(before, seat)["legal_moves"]
        drawn = KINGS.table_view(before, seat)["legal_moves"]
        kinds = [m["type"] for m in drawn]
        assert len(kinds) == len(set(kinds)) and set(kinds) == {m["type"] for m in full}
        for kind in kinds:  # the first of each kind, as the full list gives it
            assert drawn[kinds.index(kind)] == next(m for m in full if m["type"] == kind)
        checked += sum(m["type"] == "lay" for m in full) > 1
    assert checked > 10
