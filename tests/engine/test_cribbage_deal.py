"""Classic Cribbage: options, the cut for the first deal, the deal, the discard and the dealers."""

from __future__ import annotations

import random

import pytest

from games.engine.core.variant import BadOptions, IllegalMove
from games.engine.cribbage import CRIBBAGE, cut_for_deal, position
from games.engine.cribbage.state import COUNTED, DISCARD, GAME_OVER, MATCH_OVER, PLAY, TABLES
from games.engine.pieces.cards import shuffled_deck
from tests.engine.crib_helpers import (
    assert_full_deck,
    move,
    play_until,
    random_steps,
    run,
    texts,
)

# --- options --------------------------------------------------------------------------------


def test_it_fills_in_default_options():
    assert CRIBBAGE.clean_options(2, None) == {"target": 121, "games": 1, "muggins": False}
    assert CRIBBAGE.clean_options(4, {"target": "61", "games": 3, "muggins": "on"}) == {
        "target": 61,
        "games": 3,
        "muggins": True,
    }


@pytest.mark.parametrize(
    ("players", "options", "option"),
    [
        (5, {}, "players"),
        (2, {"target": 100}, "target"),
        (2, {"target": True}, "target"),
        (2, {"games": 0}, "games"),
        (2, {"games": "two"}, "games"),
        (2, {"muggins": "perhaps"}, "muggins"),
        (2, {"colour": "red"}, "colour"),
    ],
)
def test_it_names_the_bad_option(players, options, option):
    with pytest.raises(BadOptions) as error:
        CRIBBAGE.clean_options(players, options)
    assert error.value.option == option
    assert str(error.value).startswith(f"{option}: ")


def test_it_pairs_partners_across_the_table():
    assert CRIBBAGE.teams(2) == [(0,), (1,)]
    assert CRIBBAGE.teams(3) == [(0,), (1,), (2,)]
    assert CRIBBAGE.teams(4) == [(0, 2), (1, 3)]


# --- the cut for the first deal --------------------------------------------------------------


def _seed_with_tied_cut(players: int) -> bytes:
    """The first seed b'tie-N' whose first cut has two or more seats tied for lowest."""
    for n in range(10_000):
        seed = f"tie-{n}".encode()
        ranks = [card.rank for card in shuffled_deck(seed, "cut:0")[:players]]
        if ranks.count(min(ranks)) > 1:
            return seed
    raise AssertionError("no tied cut found")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_gives_the_first_deal_to_the_lowest_cut(players):
    for n in range(20):
        seed = f"cut-{n}".encode()
        cuts = shuffled_deck(seed, "cut:0")[:players]
        ranks = [card.rank for card in cuts]
        if ranks.count(min(ranks)) > 1:
            continue
        dealer, events = cut_for_deal(seed, players)
        assert dealer == ranks.index(min(ranks))
        assert [e["card"] for e in events if e["kind"] == "cut"] == [str(c) for c in cuts]
        assert events[-1]["kind"] == "dealer" and events[-1]["seat"] == dealer
        assert CRIBBAGE.new_state(players, {}, seed).dealer == dealer


@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_makes_tied_seats_cut_again(players):
    seed = _seed_with_tied_cut(players)
    first = shuffled_deck(seed, "cut:0")[:players]
    low = min(card.rank for card in first)
    tied = [seat for seat, card in enumerate(first) if card.rank == low]
    dealer, events = cut_for_deal(seed, players)
    tie = next(e for e in events if e["kind"] == "cut_tie")
    assert all(f"{{p{seat}}}" in tie["text"] for seat in tied)
    after_tie = events[events.index(tie) + 1 :]
    second_cutters = [e["seat"] for e in after_tie if e["kind"] == "cut"][: len(tied)]
    assert second_cutters == tied
    second = dict(zip(tied, shuffled_deck(seed, "cut:1"), strict=False))
    low2 = min(card.rank for card in second.values())
    if [card.rank for card in second.values()].count(low2) == 1:
        assert dealer == next(seat for seat, card in second.items() if card.rank == low2)
    assert dealer in tied


# --- the deal -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "each", "from_deck"),
    [(2, 6, 0), (3, 5, 1), (4, 5, 0)],
)
def test_it_deals_the_right_number_of_cards(players, each, from_deck):
    state = CRIBBAGE.new_state(players, {}, b"deal sizes")
    assert [len(hand) for hand in state.held] == [each] * players
    assert len(state.crib) == from_deck
    assert state.phase == DISCARD and state.starter is None
    assert_full_deck(state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_deals_one_card_at_a_time_from_the_dealers_left(players):
    seed = b"one at a time"
    state = CRIBBAGE.new_state(players, {}, seed)
    deck = shuffled_deck(seed, "deal:1:1")
    first_seat = (state.dealer + 1) % players
    assert deck[0] in state.held[first_seat]
    assert deck[1] in state.held[(first_seat + 1) % players]
    dealt = players * TABLES[players].deal
    assert set(state.deck) == set(deck[dealt + TABLES[players].crib_from_deck :])


def test_it_puts_one_card_from_the_deck_into_a_three_handed_crib():
    seed = b"three handed"
    state = CRIBBAGE.new_state(3, {}, seed)
    deck = shuffled_deck(seed, "deal:1:1")
    assert state.crib == (deck[15],)
    for seat in range(3):
        card = str(state.held[seat][0])
        state, _ = CRIBBAGE.apply(state, seat, {"type": "discard", "cards": [card]})
    assert len(state.crib) == 4 and deck[15] in state.crib
    assert state.starter == deck[16]


@pytest.mark.parametrize(("players", "choices"), [(2, 15), (3, 5), (4, 5)])
def test_it_lists_every_way_to_discard(players, choices):
    state = CRIBBAGE.new_state(players, {}, b"choices")
    for seat in range(players):
        moves = CRIBBAGE.legal_moves(state, seat)
        assert len(moves) == choices
        assert len({tuple(m["cards"]) for m in moves}) == choices
        assert all(len(m["cards"]) == TABLES[players].lay_away for m in moves)


def test_it_lets_everyone_discard_in_any_order_and_then_cuts_the_starter():
    state = position(
        ["5H 6H 7H 8H 9H TH", "AS 2S 3S 4S 5S 6S"], starter="JC", dealer=0, phase=DISCARD
    )
    assert CRIBBAGE.to_move(state) == {0, 1}
    state, events = run(state, (1, "discard 5S 6S"))
    assert CRIBBAGE.to_move(state) == {0}
    assert CRIBBAGE.legal_moves(state, 1) == []
    assert texts(events) == ["{p1} lays 2 cards in the crib"]
    assert "5S" not in str(events)
    state, events = run(state, (0, "discard 9H TH"))
    assert state.phase == PLAY and state.turn == 1
    assert state.starter is not None and str(state.starter) == "JC"
    assert [str(c) for c in state.crib] == ["5S", "6S", "9H", "TH"]
    assert texts(events)[-2:] == ["the starter is JC", "his heels: 2 to the dealer {p0}"]
    assert state.scores == (2, 0)


@pytest.mark.parametrize(
    ("shorthand", "message"),
    [
        ("discard 5H", "you must discard exactly 2 cards"),
        ("discard 5H 6H 7H", "you must discard exactly 2 cards"),
        ("discard 5H 9C", "you do not hold 9C"),
        ("discard 5H 5h", "you named 5H twice"),
        ("discard 5H ZZ", "'ZZ' is not a card"),
        ("7H", "you cannot play now"),
    ],
)
def test_it_refuses_a_bad_discard(shorthand, message):
    state = position(["5H 6H 7H 8H 9H TH", "AS 2S 3S 4S 5S 6S"], starter=None, phase=DISCARD)
    with pytest.raises(IllegalMove, match=message):
        CRIBBAGE.apply(state, 0, move(shorthand))


def test_it_refuses_a_second_discard():
    state = position(["5H 6H 7H 8H 9H TH", "AS 2S 3S 4S 5S 6S"], starter=None, phase=DISCARD)
    state, _ = run(state, (0, "discard 5H 6H"))
    with pytest.raises(IllegalMove, match="already laid away"):
        CRIBBAGE.apply(state, 0, move("discard 7H 8H"))


def test_it_asks_for_one_card_from_three_or_four_players():
    state = CRIBBAGE.new_state(4, {}, b"four")
    two = [str(c) for c in state.held[0][:2]]
    with pytest.raises(IllegalMove, match="you must discard exactly 1 card$"):
        CRIBBAGE.apply(state, 0, {"type": "discard", "cards": two})


# --- dealers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_passes_the_deal_to_the_left(players):
    rng = random.Random(players)
    state = CRIBBAGE.new_state(players, {}, b"rotation")
    for _ in range(4):
        dealer, hand = state.dealer, state.hand
        state = play_until(state, rng, COUNTED)
        state, events = run(state, *((seat, "continue") for seat in range(players)))
        assert state.phase == DISCARD
        assert (state.dealer, state.hand) == ((dealer + 1) % players, hand + 1)
        deal = texts(events, "deal")
        assert len(deal) == 1
        assert deal[0].startswith(f"game 1, hand {hand + 1}: {{p{state.dealer}}} deals")


def _expected_next_dealer(state) -> int:
    """The loser deals; several candidates: the first going left from the last dealer."""
    last = state.results[-1]
    losing = [side for side in last.sides if side.seats != last.winners]
    low = min(side.score for side in losing)
    candidates = {seat for side in losing if side.score == low for seat in side.seats}
    seat = state.dealer
    while True:
        seat = (seat + 1) % state.players
        if seat in candidates:
            return seat


@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_lets_the_loser_deal_the_next_game(players):
    rng = random.Random(10 + players)
    state = CRIBBAGE.new_state(players, {"games": 3, "target": 61}, b"next game")
    state = play_until(state, rng, GAME_OVER)
    winner = state.results[-1].winners
    expected = _expected_next_dealer(state)
    assert expected not in winner
    state, events = run(state, *((seat, "continue") for seat in range(players)))
    assert (state.game, state.hand, state.dealer) == (2, 1, expected)
    assert state.scores == (0,) * len(CRIBBAGE.teams(players))
    assert sum(state.games_won) == 1
    assert texts(events, "deal")[0].startswith(f"game 2, hand 1: {{p{expected}}} deals")


def test_it_ends_the_match_when_a_side_has_won_more_than_half_the_games():
    rng = random.Random(7)
    start = CRIBBAGE.new_state(2, {"games": 3, "target": 61}, b"best of three")
    state = start
    finished_games = []
    for _before, _seat, _move, after, events in random_steps(start, rng):
        state = after
        if texts(events, "game_over"):
            finished_games.append(state.games_won)
    assert state.phase == MATCH_OVER
    assert max(state.games_won) == 2 and len(state.results) == sum(state.games_won)
    assert all(max(won) == 1 for won in finished_games[:-1])
    outcome = CRIBBAGE.outcome(state)
    assert outcome is not None
    winner = max(range(2), key=lambda side: state.games_won[side])
    assert outcome.winners == (winner,)
    assert (
        outcome.reason == f"{{p{winner}}} wins the match, 2 games to {state.games_won[1 - winner]}"
    )
    assert [game.number for game in outcome.games] == list(range(1, len(finished_games) + 1))
