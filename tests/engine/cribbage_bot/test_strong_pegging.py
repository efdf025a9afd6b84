"""Strong pegging: the search follows the engine's rules exactly, takes what is there, keeps
within its time, and knows the score near the end."""

from __future__ import annotations

import random

import pytest

from games.engine import computer_move
from games.engine.cribbage import CRIBBAGE, peg_search
from games.engine.cribbage.peg_search import PlaySearch, Table, choose_card
from games.engine.cribbage.state import PLAY
from games.engine.pieces.cards import FULL_DECK, shuffled_deck


def engine_value(state) -> int:
    """Seat 0's pegs minus seat 1's for the rest of the play, both playing their best, found
    with the engine's own apply (slow but plainly right)."""
    if state.phase != PLAY:  # the play is over and the hands are shown: leave the show out
        shown = [0, 0]
        for hand in state.shows:
            shown[hand.owner % 2] += hand.points
        return state.scores[0] - shown[0] - state.scores[1] + shown[1]
    seat = state.turn
    values = []
    for move in CRIBBAGE.legal_moves(state, seat):
        after, _ = CRIBBAGE.apply(state, seat, move)
        values.append(engine_value(after))
    return max(values) if seat == 0 else min(values)


@pytest.mark.parametrize("case", range(30))
def test_the_search_agrees_with_the_engine_when_both_hands_are_known(case):
    rng = random.Random(case)
    deck = shuffled_deck(b"peg-search", str(case))
    hands = [[str(c) for c in deck[:4]], [str(c) for c in deck[4:8]]]
    crib = [str(c) for c in deck[11:15]]
    state = CRIBBAGE.position(hands, str(deck[10]), dealer=rng.choice((0, 1)), crib=crib)
    plays = rng.randrange(5)  # a few random plays first: goes, pairs, new counts
    while state.phase == PLAY and (plays > 0 or state.turn != 0):
        move = rng.choice(CRIBBAGE.legal_moves(state, state.turn))
        state, _ = CRIBBAGE.apply(state, state.turn, move)
        plays -= 1
    if state.phase != PLAY:
        pytest.skip("the play ended in the random start")
    legal = CRIBBAGE.legal_moves(state, 0)
    if legal == [{"type": "go"}]:
        pytest.skip("seat 0 can only say go")
    table = Table.from_view(CRIBBAGE.view(state, 0))
    search = PlaySearch(table, endgame=False, late=lambda: False)
    theirs = tuple(sorted(c.rank for c in state.held[1]))
    values = search.each_option(theirs, table.options())
    base = state.scores[0] - state.scores[1]
    for move in legal:
        after, _ = CRIBBAGE.apply(state, 0, move)
        rank = next(c.rank for c in state.held[0] if str(c) == move["card"])
        assert values[rank] == engine_value(after) - base, move


def play_to(hands, plays, starter="5D", dealer=1, **options):
    used = {*hands[0], *hands[1], starter}
    crib = [str(c) for c in FULL_DECK if str(c) not in used][:4]
    state = CRIBBAGE.position(hands, starter, dealer=dealer, crib=crib, **options)
    for card in plays:
        state, _ = CRIBBAGE.apply(state, state.turn, {"type": "play", "card": card})
    return state


def test_it_takes_thirty_one():
    state = play_to(
        [["KH", "8S", "TC", "3D"], ["AC", "2H", "QD", "9S"]], ["KH", "AC", "8S", "2H"]
    )  # the count is 21
    assert computer_move(CRIBBAGE, state, 0, "strong", random.Random(1)) == {
        "type": "play",
        "card": "TC",
    }


def test_it_does_not_lead_a_five_into_the_tens():
    state = play_to([["5H", "4S", "9C", "KD"], ["6C", "3D", "KH", "KS"]], [], starter="2D")
    for seed in range(3):
        assert computer_move(CRIBBAGE, state, 0, "strong", random.Random(seed))["card"] != "5H"


def test_it_pegs_out_when_it_can_even_at_a_risk():
    # Seat 0 needs 2: the 5 makes fifteen and wins now, though it leaves 15 for a pair royal.
    hands = [["5H", "AS", "KC", "QC"], ["TD", "5S", "5C", "2D"]]
    state = play_to(hands, ["TD"], dealer=0, scores=(119, 100), starter="7H")
    assert state.turn == 0
    assert computer_move(CRIBBAGE, state, 0, "strong", random.Random(0))["card"] == "5H"


def test_it_says_go_only_when_it_must():
    state = play_to(
        [["KH", "QS", "9C", "TD"], ["KC", "KD", "JH", "8S"]], ["KC", "KH", "KD"], dealer=0
    )
    assert computer_move(CRIBBAGE, state, 0, "strong", random.Random(0)) == {"type": "go"}


def test_a_hard_time_limit_still_gives_a_legal_card(monkeypatch):
    ticks = iter(range(0, 10_000))
    clock = lambda: next(ticks)  # noqa: E731 - every look at the clock is a second later
    state = play_to([["5H", "4S", "9C", "KD"], ["6C", "3D", "KH", "KS"]], [], starter="2D")
    view = CRIBBAGE.view(state, 0)
    card = choose_card(view, random.Random(0), clock=clock)
    assert {"type": "play", "card": card} in view["legal_moves"]


def test_it_is_repeatable_for_a_seed():
    state = play_to([["3H", "TH", "JH", "QS"], ["AC", "2D", "3C", "4S"]], [], starter="5D")
    view = CRIBBAGE.view(state, 0)
    first = choose_card(view, random.Random(5))
    assert all(choose_card(view, random.Random(5)) == first for _ in range(3))


def test_the_one_ply_reply_is_the_exact_expectation():
    # After a lead of 7 the reply can be an 8 (fifteen, 2) or a 7 (pair, 2): the next player
    # scores 2 exactly when holding at least one of them among its cards.
    state = play_to([["7H", "AS", "KC", "QC"], ["TD", "5S", "5C", "2D"]], [], starter="9H")
    table = Table.from_view(CRIBBAGE.view(state, 0))
    table.held_counts = [4, 1]
    weighed = table.one_ply()
    fits = sum(1 for c in table.unseen if c.rank in (7, 8))
    lead_low = 0.01 * 7  # among equal leads the lower card is kept
    assert weighed[7] == pytest.approx(-2 * fits / len(table.unseen) - lead_low)


def test_search_stops_at_the_node_budget(monkeypatch):
    monkeypatch.setattr(peg_search, "NODE_BUDGET", 1)
    state = play_to([["3H", "TH", "JH", "QS"], ["AC", "2D", "3C", "4S"]], [], starter="5D")
    view = CRIBBAGE.view(state, 0)
    assert {"type": "play", "card": choose_card(view, random.Random(0))} in view["legal_moves"]
