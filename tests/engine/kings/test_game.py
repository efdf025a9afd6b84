"""A whole game of Kings Cribbage: the start, turns, exchanges, passing, both endings, Joker,
what each seat sees, and random games for 2, 3 and 4 players."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from games.engine import computer_move, get_variant, preview, variant_keys
from games.engine.core.events import event, freeze_event
from games.engine.core.state import evolve
from games.engine.core.variant import BadOptions, IllegalMove
from games.engine.kings import KINGS
from games.engine.kings.board import EMPTY_BOARD, parse_board
from games.engine.kings.game import draw_for_start
from games.engine.pieces.tiles import FULL_BAG
from tests.engine.kings.helpers import board_with, game_with, lay, random_steps, row_of

IDENTITY = re.compile(r"\b[A2-9TJQK][LD][a-d]\b")
FACE = re.compile(r"\b[A2-9TJQK][LD]\b")


def every_tile(state) -> list:
    tiles = [laid.tile for laid in state.board if laid is not None]
    return tiles + [t for rack in state.racks for t in rack] + list(state.bag)


def test_kings_is_registered_with_its_levels_and_tournament_scoring():
    assert "kings" in variant_keys()
    game = get_variant("kings")
    assert game.player_counts == (2, 3, 4) and game.levels == ("easy", "strong")
    assert game.tournament.kind == "ranked"
    assert game.teams(3) == [(0,), (1,), (2,)]


def test_options_are_checked():
    assert KINGS.clean_options(2, {"joker": "on"})["joker"] is True
    with pytest.raises(BadOptions, match="2, 3 or 4"):
        KINGS.clean_options(5, {})
    with pytest.raises(BadOptions, match="no such option"):
        KINGS.clean_options(2, {"target": 121})


# --- the start ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_start_draws_racks_of_five_from_a_full_bag(players):
    state = KINGS.new_state(players, {}, b"start")
    assert sorted(every_tile(state)) == sorted(FULL_BAG)
    assert [len(rack) for rack in state.racks] == [5] * players
    assert len(state.bag) == 104 - 5 * players
    assert state.turn == state.starter and state.first_lay


def test_the_lowest_draw_starts_and_ties_draw_again():
    ties = 0
    for n in range(40):
        starter, events = draw_for_start(f"draw {n}".encode(), 3)
        assert events[-1] == {
            "kind": "start",
            "seat": starter,
            "text": f"{{p{starter}}} draws lowest and starts",
        }
        rounds: list[list[dict]] = [[]]
        for e in events[:-1]:
            if e["kind"] == "draw_tie":
                rounds.append([])
            else:
                rounds[-1].append(e)
        ties += len(rounds) - 1
        for earlier in rounds[:-1]:  # a round that tied: two or more drew the lowest rank
            low = min("A23456789TJQK".index(e["rank"]) for e in earlier)
            assert sum("A23456789TJQK".index(e["rank"]) == low for e in earlier) > 1
        last = {e["seat"]: "A23456789TJQK".index(e["rank"]) for e in rounds[-1]}
        assert min(last, key=last.get) == starter
        assert list(last.values()).count(last[starter]) == 1
        if len(rounds) > 1:
            assert set(last) < {0, 1, 2}  # only the tied seats drew again
    assert ties  # with three players, forty seeds bring at least one tie


def test_the_same_seed_gives_the_same_game():
    a = KINGS.new_state(2, {}, b"same")
    assert a == KINGS.new_state(2, {}, b"same")
    assert a.racks != KINGS.new_state(2, {}, b"other").racks


# --- turns ----------------------------------------------------------------------------------


def test_a_lay_scores_refills_the_rack_and_passes_the_turn():
    state = game_with(EMPTY_BOARD, ["5L TD KD 2L 3L", "AL AD 2D 3D 4D"])
    after, events = KINGS.apply(state, 0, lay("6,6=5L 6,7=TD"))
    assert after.scores == (12, 0) and after.turn == 1
    assert len(after.racks[0]) == 5 and len(after.bag) == len(state.bag) - 2
    assert events[0]["kind"] == "lay" and events[0]["points"] == 12
    assert events[0]["tiles"] == ["6,6=5L", "6,7=TD"]
    assert after.last.squares == ((6, 6), (6, 7))


def test_only_the_seat_to_play_may_lay():
    state = game_with(EMPTY_BOARD, ["5L TD KD 2L 3L", "5D TL KL 2D 3D"])
    with pytest.raises(IllegalMove, match="not your turn"):
        KINGS.apply(state, 1, lay("6,6=5D 6,7=TL"))
    assert KINGS.legal_moves(state, 1) == []


def test_a_lay_must_use_tiles_from_the_rack():
    state = game_with(EMPTY_BOARD, ["5L TD KD 2L 3L", "AL AD 2D 3D 4D"])
    with pytest.raises(IllegalMove, match="no light 5 left"):
        KINGS.apply(state, 0, lay("6,6=5L 6,7=5L"))
    with pytest.raises(IllegalMove, match="nor a 6 or 9"):
        KINGS.apply(state, 0, lay("6,6=6L 6,7=9L"))


def test_a_six_may_be_laid_as_a_nine_and_stays_one():
    state = game_with(EMPTY_BOARD, ["6L 6D KD 2L 3L", "AL AD 2D 3D 4D"])
    after, _ = KINGS.apply(state, 0, lay("6,6=9L 6,7=6D"))
    laid = after.board[6 * 13 + 6]
    assert laid.tile.rank == 6 and laid.rank == 9 and laid.face == "9L"
    view = KINGS.view(after, 1)
    assert view["board"][6][6] == {"id": str(laid.tile), "face": "9L"}


def test_declared_points_must_match_without_joker():
    state = game_with(EMPTY_BOARD, ["5L TD KD 2L 3L", "AL AD 2D 3D 4D"])
    with pytest.raises(IllegalMove, match="scores 12, not 10"):
        KINGS.apply(state, 0, lay("6,6=5L 6,7=TD", points=10))
    assert KINGS.apply(state, 0, lay("6,6=5L 6,7=TD", points=12))[0].scores[0] == 12


# --- exchanges ------------------------------------------------------------------------------


def test_an_exchange_swaps_tiles_with_the_bag_and_shakes_it():
    state = game_with(EMPTY_BOARD, ["5L TD KD 2L 3L", "AL AD 2D 3D 4D"])
    after, events = KINGS.apply(state, 0, {"type": "exchange", "tiles": ["KD", "2L"]})
    assert sorted(every_tile(after)) == sorted(every_tile(state))
    kept = [t.face for t in after.racks[0][:3]]
    assert kept == ["5L", "TD", "3L"] and len(after.racks[0]) == 5
    assert events[0]["count"] == 2 and "KD" not in json.dumps(events)
    assert after.bag != state.bag[2:] + state.racks[0][2:4]  # shaken, not put on the bottom
    assert after.turn == 1 and after.passes == 0


def test_exchanges_need_as_many_tiles_in_the_bag():
    state = game_with(
        board_with(*row_of(6, 5, "5L TL")), ["5D TD KD 2L 3L", "A"[0:0] + "AD 2D"], bag=2
    )
    with pytest.raises(IllegalMove, match="bag holds 2 tiles"):
        KINGS.apply(state, 0, {"type": "exchange", "tiles": ["KD", "2L", "3L"]})
    moves = KINGS.legal_moves(state, 0)
    assert max(len(m["tiles"]) for m in moves if m["type"] == "exchange") == 2
    empty = game_with(board_with(*row_of(6, 5, "5L TL")), ["5D TD", "AD 2D"], bag=0)
    assert not [m for m in KINGS.legal_moves(empty, 0) if m["type"] == "exchange"]
    with pytest.raises(IllegalMove, match="bag holds 0"):
        KINGS.apply(empty, 0, {"type": "exchange", "tiles": ["TD"]})


def test_exchanges_are_listed_once_per_distinct_set():
    state = game_with(EMPTY_BOARD, ["KD KD 6L 9L 2L", "AL AD 2D 3D 4D"])
    swaps = [tuple(m["tiles"]) for m in KINGS.legal_moves(state, 0) if m["type"] == "exchange"]
    assert len(swaps) == len(set(swaps)) == 3 * 3 * 2 - 1  # kings 0-2, sixes/nines 0-2, 2 0-1


# --- the end --------------------------------------------------------------------------------


def test_the_game_ends_when_a_rack_empties_with_the_bag_empty():
    board = board_with(*row_of(6, 5, "5L TL"))
    state = game_with(board, ["5D", "AD KD 2D"], bag=0)
    after, events = KINGS.apply(state, 0, lay("6,4=5D"))  # 5-5-T: two fifteens and a pair, 6
    assert after.over == "out" and KINGS.to_move(after) == frozenset()
    assert after.penalties == (0, 1 + 10 + 2)
    assert after.scores == (6, -13)
    result = KINGS.outcome(after)
    assert result.winners == (0,) and result.reason == "{p0} wins 6 to -13"
    assert events[-1]["kind"] == "game_over" and events[-1]["penalties"] == [0, 13]


def test_a_rack_emptied_while_the_bag_holds_tiles_is_refilled():
    board = board_with(*row_of(6, 5, "5L TL"))
    state = game_with(board, ["5D", "AD KD 2D"], bag=3)
    after, _ = KINGS.apply(state, 0, lay("6,4=5D"))
    assert after.over is None and len(after.racks[0]) == 3


@pytest.mark.parametrize("bag", [0, 20])
def test_the_game_ends_when_every_player_passes_in_turn(bag):
    board = board_with(*row_of(6, 5, "5L TL"))
    state = game_with(board, ["AD 2D", "KD QD QL", "3D"], bag=bag)
    for seat in (0, 1):
        state, _ = KINGS.apply(state, seat, {"type": "pass"})
        assert state.over is None
    state, _ = KINGS.apply(state, 2, {"type": "pass", "points": 0})
    assert state.over == "passes"
    assert state.scores == (-3, -30, -3)
    result = KINGS.outcome(state)
    assert result.winners == (0, 2) and result.reason == "{p0} and {p2} share the win on -3"
    assert [side.place for side in result.sides] == [1, 3, 1]


def test_a_lay_or_exchange_breaks_a_run_of_passes():
    board = board_with(*row_of(6, 5, "5L TL"))
    state = game_with(board, ["AD 2D", "KD QD QL"], bag=20)
    state, _ = KINGS.apply(state, 0, {"type": "pass"})
    state, _ = KINGS.apply(state, 1, {"type": "exchange", "tiles": ["KD"]})
    state, _ = KINGS.apply(state, 0, {"type": "pass"})
    assert state.over is None and state.passes == 1


# --- what each seat sees --------------------------------------------------------------------


def test_views_show_own_rack_and_only_counts_of_others():
    state = KINGS.new_state(3, {}, b"views")
    for seat in range(3):
        view = KINGS.view(state, seat)
        text = json.dumps(view)
        assert [t["id"] for t in view["rack"]] == [str(t) for t in state.racks[seat]]
        assert view["rack_sizes"] == [5, 5, 5] and view["bag"] == 89
        assert "seed" not in view and state.seed not in text
        assert not set(IDENTITY.findall(text)) & KINGS.hidden(state, seat)
    spectator = KINGS.view(state, None)
    assert spectator["rack"] is None and spectator["legal_moves"] == []


def test_hidden_names_other_racks_and_the_bag_by_identity():
    state = KINGS.new_state(2, {}, b"hidden")
    hidden = KINGS.hidden(state, 0)
    assert hidden == {str(t) for t in (*state.racks[1], *state.bag)}
    assert len(hidden) == 99  # identities: two tiles of one face are two entries
    assert KINGS.hidden(state, None) == {str(t) for t in (*state.racks[0], *hidden)}


def test_rack_deduction_the_unseen_tally_is_the_other_racks_and_the_bag():
    state = KINGS.new_state(2, {}, b"deduce")
    state, _ = KINGS.apply(state, state.turn, KINGS.legal_moves(state, state.turn)[0])
    for seat in (0, 1):
        tally = {f"{u['rank']}{u['suit']}": u["count"] for u in KINGS.view(state, seat)["unseen"]}
        others = Counter(t.face for t in (*state.racks[1 - seat], *state.bag))
        assert tally == dict(others)


def test_rack_deduction_with_the_bag_empty_shows_faces_never_identities():
    rng = random.Random(3)
    state = KINGS.new_state(2, {}, b"deduce to the end")
    for _before, _seat, _move, after, _events in random_steps(state, rng):
        if not after.bag and after.over is None:
            break
    else:
        raise AssertionError("the bag never emptied")
    view = KINGS.view(after, 0)
    tally = Counter({f"{u['rank']}{u['suit']}": u["count"] for u in view["unseen"]})
    assert tally == Counter(t.face for t in after.racks[1])  # the other rack, worked out
    assert not set(IDENTITY.findall(json.dumps(view))) & KINGS.hidden(after, 0)


def test_the_bag_order_and_other_racks_never_change_a_view():
    state = KINGS.new_state(3, {}, b"bag order")
    shaken = evolve(state, bag=tuple(reversed(state.bag)))
    swapped = evolve(state, racks=(state.racks[0], state.racks[2], state.racks[1]))
    assert KINGS.view(shaken, 0) == KINGS.view(state, 0)
    assert KINGS.view(shaken, None) == KINGS.view(state, None)
    assert KINGS.view(swapped, 0) == KINGS.view(state, 0)  # who holds what is not shown


def test_at_the_end_every_rack_is_shown():
    board = board_with(*row_of(6, 5, "5L TL"))
    state = game_with(board, ["5D", "AD KD 2D"], bag=0)
    after, _ = KINGS.apply(state, 0, lay("6,4=5D"))
    view = KINGS.view(after, 0)
    assert [t["face"] for t in view["racks"][1]] == ["AD", "KD", "2D"]
    assert KINGS.hidden(after, 0) == set()


# --- joker ----------------------------------------------------------------------------------

JOKER = {"joker": True}


def joker_game(players=3):
    racks = ["5L TD KD 2L 3L", "AL AD 2D 3D 4D", "7L 8L 9L TL JL"][:players]
    return game_with(EMPTY_BOARD, racks, options=JOKER)


def test_with_joker_a_lay_needs_a_declaration_never_too_high():
    state = joker_game()
    with pytest.raises(IllegalMove, match="declare"):
        KINGS.apply(state, 0, lay("6,6=5L 6,7=TD"))
    with pytest.raises(IllegalMove, match="does not hold 13"):
        KINGS.apply(state, 0, lay("6,6=5L 6,7=TD", points=13))


def test_joker_takes_the_missed_points():
    state, events = KINGS.apply(joker_game(), 0, lay("6,6=5L 6,7=TD", points=9))
    assert state.scores == (9, 0, 0) and "declares 9" in events[0]["text"]
    assert "hands" not in events[0]  # the true count is not given away
    assert KINGS.to_move(state) == {1, 2}
    assert KINGS.legal_moves(state, 2) == [{"type": "joker"}, {"type": "accept"}]
    assert {"type": "joker"} in KINGS.legal_moves(state, 1)
    state, events = KINGS.apply(state, 2, {"type": "joker"})
    assert state.scores == (9, 0, 3) and events[0]["right"] is True
    assert KINGS.to_move(state) == {1}
    with pytest.raises(IllegalMove, match="no count open"):
        KINGS.apply(state, 1, {"type": "joker"})


def test_a_wrong_joker_call_costs_five():
    state, _ = KINGS.apply(joker_game(), 0, lay("6,6=5L 6,7=TD", points=12))
    state, events = KINGS.apply(state, 1, {"type": "joker"})
    assert state.scores == (12, -5, 0) and events[0]["right"] is False


def test_the_call_closes_with_the_next_move_or_when_all_let_it_go():
    state, _ = KINGS.apply(joker_game(), 0, lay("6,6=5L 6,7=TD", points=9))
    moved, _ = KINGS.apply(state, 1, {"type": "pass"})
    assert moved.pending is None and KINGS.to_move(moved) == {2}
    let_go, _ = KINGS.apply(state, 2, {"type": "accept"})
    assert KINGS.to_move(let_go) == {1}
    with pytest.raises(IllegalMove, match="no count open"):
        KINGS.apply(let_go, 2, {"type": "joker"})
    assert KINGS.apply(let_go, 1, {"type": "joker"})[0].scores[1] == 3


def closing_game():
    """Seat 0 holds the last two tiles it needs, the bag is empty: its lay ends the game."""
    return game_with(EMPTY_BOARD, ["5L TD", "AL AD 2D", "7L 8L"], options=JOKER, bag=0)


def test_the_lay_that_empties_a_rack_still_leaves_the_joker_call_open():
    # 5-T is a fifteen (2) and the first lay's bonus (10): 12, declared as 9
    state, _ = KINGS.apply(closing_game(), 0, lay("6,6=5L 6,7=TD", points=9))
    assert state.over is None and state.closing and KINGS.outcome(state) is None
    assert KINGS.to_move(state) == {1, 2}
    assert KINGS.legal_moves(state, 0) == []
    with pytest.raises(IllegalMove, match="a rack is empty"):
        KINGS.apply(state, 0, {"type": "pass"})
    view = KINGS.view(state, 0)
    assert view["closing"] and "Joker call is settled" in view["prompt"]
    assert computer_move(KINGS, state, 2, "strong") == {"type": "joker"}
    state, events = KINGS.apply(state, 2, {"type": "joker"})
    assert [e["kind"] for e in events] == ["joker", "game_over"]
    # seat 2 takes the 3 missed points, then the racks count against their players
    assert state.over == "out" and state.scores == (9, 0 - 4, 3 - 15)
    assert KINGS.to_move(state) == frozenset() and KINGS.outcome(state).winners == (0,)


def test_when_everyone_lets_the_last_count_stand_the_game_ends():
    state, _ = KINGS.apply(closing_game(), 0, lay("6,6=5L 6,7=TD", points=12))
    state, events = KINGS.apply(state, 1, {"type": "accept"})
    assert events == [] and state.over is None and KINGS.to_move(state) == {2}
    state, events = KINGS.apply(state, 2, {"type": "accept"})
    assert [e["kind"] for e in events] == ["game_over"] and state.over == "out"
    assert state.scores == (12, -4, -15)


def test_a_wrong_last_call_costs_five_and_ends_the_game():
    state, _ = KINGS.apply(closing_game(), 0, lay("6,6=5L 6,7=TD", points=12))
    state, _ = KINGS.apply(state, 1, {"type": "joker"})
    assert state.over == "out" and state.scores == (12, -5 - 4, -15)


def test_without_joker_the_lay_that_empties_a_rack_ends_the_game_at_once():
    plain = game_with(EMPTY_BOARD, ["5L TD", "AL AD 2D", "7L 8L"], bag=0)
    state, _ = KINGS.apply(plain, 0, lay("6,6=5L 6,7=TD"))
    assert state.over == "out" and not state.closing


def test_the_computer_calls_joker_only_when_points_were_missed():
    short, _ = KINGS.apply(joker_game(), 0, lay("6,6=5L 6,7=TD", points=9))
    full, _ = KINGS.apply(joker_game(), 0, lay("6,6=5L 6,7=TD", points=12))
    for level in ("easy", "strong"):
        assert computer_move(KINGS, short, 2, level) == {"type": "joker"}
        assert computer_move(KINGS, full, 2, level) == {"type": "accept"}
        assert computer_move(KINGS, full, 1, level)["type"] != "joker"


def test_computers_stop_exchanging_once_nobody_has_laid_for_two_rounds():
    # an ace fits nowhere beside three kings; the bag has tiles to exchange
    stuck = game_with(board_with("6,6=KL 6,7=KD 6,8=KL"), ["AL", "AD 2L 2D 3D"], bag=10)
    assert {m["type"] for m in KINGS.legal_moves(stuck, 0)} == {"exchange", "pass"}
    for level in ("easy", "strong"):
        assert computer_move(KINGS, stuck, 0, level)["type"] == "exchange"
    quiet = [event("exchange", s % 2, "x", 0, count=1) for s in range(3)]
    three = evolve(stuck, log=tuple(freeze_event(e) for e in quiet))
    four = evolve(stuck, log=tuple(freeze_event(e) for e in [*quiet, event("pass", 1, "x", 0)]))
    for level in ("easy", "strong"):
        assert computer_move(KINGS, three, 0, level)["type"] == "exchange"
        assert computer_move(KINGS, four, 0, level) == {"type": "pass", "points": 0}


ENDGAME = """
 .  .  .  .  .  . JD KD 2L 3L 3D  .  .
4D AD 2D JD 3D  . TD  .  .  .  .  .  .
6L  . 7L 5D 2D 6D JL  .  .  . KL  .  .
2D  . 7D  . AL 6L 9L 7L AL  . KL  .  .
6L  . 8L 9L 9L 9D TL  .  . QD QL  .  .
3L 3L 2L TL TD  .  . JL KL QD 5L QL  .
 . 6D  . TD  . 6L 4L 5D 5L QL  .  .  .
9D 6D 9L 9D 9D  . 8D JD KD QD 8D  .  .
AD KD QD JD 4D  . 3D  . KL 5L 8L 5D 2D
5D 5L QL  . 9D 8L 4L 4L TL  . 8D  .  .
JL  . TL AD 4D 7L 4D  .  .  . 8L  .  .
TD  . 8D AL 7D 7L  .  .  .  .  #  #  #
 .  .  .  .  . 7D AD 3L 4L 7D  #  #  #
"""  # from a seeded game: the bag is empty


def test_the_strong_computer_goes_out_when_the_bag_is_empty_rather_than_keep_a_tile():
    state = game_with(parse_board(ENDGAME.strip("\n")), ["KD 2L 2L", "JL 3D AL"], bag=0)
    # 2-K down from the 2 at the top scores 4 and keeps a 2 (it weighed the replies to that);
    # all three tiles across row 2 also score 4, end the game and leave the other 14 to lose
    going_out = computer_move(KINGS, state, 0, "strong")
    assert sorted(going_out["tiles"]) == ["2,11=2L", "2,12=KD", "2,9=2L"]
    after, _ = KINGS.apply(state, 0, going_out)
    assert KINGS.outcome(after) is not None and after.scores[1] == state.scores[1] - 14


def test_a_game_between_computers_that_once_exchanged_for_ever_ends():
    # seed of the bench game where easy exchanged and strong passed, round after round
    rng = random.Random(34)
    levels = {0: "strong", 1: "easy"}
    state = KINGS.new_state(2, {}, b"strong vs easy 34")
    for _ in range(400):
        if KINGS.outcome(state) is not None:
            break
        seat = min(KINGS.to_move(state))
        state, _ = KINGS.apply(state, seat, computer_move(KINGS, state, seat, levels[seat], rng))
    assert KINGS.outcome(state) is not None


# --- preview --------------------------------------------------------------------------------


def test_preview_gives_hands_and_score_or_the_reason_and_changes_nothing():
    board = board_with(*row_of(5, 3, "8L 7L 6L 5L"))
    state = game_with(board, ["9D TD JD JL 5D", "AD 2D"])
    before = KINGS.dump(state)
    shown = preview(KINGS, state, 0, lay(*row_of(6, 5, "9D TD JD JL 5D")))
    assert shown["legal"] and shown["points"] == 28
    assert shown["text"].startswith("hand 9-T-J-J-5: 14")
    assert [hand["points"] for hand in shown["hands"]] == [14, 2, 2]
    bad = preview(KINGS, state, 0, lay("6,5=9D 6,7=TD"))
    assert bad["legal"] is False and "gap" in bad["reason"]
    assert bad["reason_template"].format(**bad["reason_params"]) == bad["reason"]
    assert not preview(KINGS, state, 0, lay("6,5=KL"))["legal"]  # not on the rack
    assert KINGS.dump(state) == before


# --- whole games ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [(2, {}, 1), (3, {"joker": True}, 2), (4, {"centre_start": True}, 3)],
)
def test_random_games_keep_every_rule(players, options, seed):
    rng = random.Random(seed)
    start = KINGS.new_state(players, options, f"random {seed}".encode())
    history, state = [], start
    for step, (_before, seat, move, after, _events) in enumerate(random_steps(start, rng)):
        history.append((seat, move))
        state = after
        assert sorted(every_tile(after)) == sorted(FULL_BAG)
        assert all(len(rack) <= 5 for rack in after.racks)
        assert bool(KINGS.to_move(after)) == (KINGS.outcome(after) is None)
        state = after
        if step % 3:
            continue  # the shared test checks every step's moves and views; this, every third
        to_move = KINGS.to_move(after)
        for other in range(players):
            assert bool(KINGS.legal_moves(after, other)) == (other in to_move)
        assert KINGS.load(json.loads(json.dumps(KINGS.dump(after)))) == after
        for viewer in [*range(players), None]:
            text = json.dumps(KINGS.view(after, viewer))
            assert not set(IDENTITY.findall(text)) & KINGS.hidden(after, viewer)
    assert KINGS.outcome(state) is not None and history
    replayed = KINGS.new_state(players, options, f"random {seed}".encode())
    for seat, move in history:
        replayed, _ = KINGS.apply(replayed, seat, move)
    assert replayed == state


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_the_computer_plays_a_whole_game(level):
    rng = random.Random(5)
    state = KINGS.new_state(2, {}, b"computer game")
    for _ in range(300):
        if KINGS.outcome(state) is not None:
            break
        seat = min(KINGS.to_move(state))
        move = computer_move(KINGS, state, seat, level, rng)
        assert move in KINGS.legal_moves(state, seat)
        state, _ = KINGS.apply(state, seat, move)
    assert KINGS.outcome(state) is not None
