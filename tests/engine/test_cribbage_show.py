"""Classic Cribbage: the show, counting out, his heels, skunks, muggins and partnership scores."""

from __future__ import annotations

import random

import pytest

from games.engine.core.scoreboard import skunk_level
from games.engine.core.variant import IllegalMove
from games.engine.cribbage import CRIBBAGE, position
from games.engine.cribbage.state import COUNTED, DISCARD, MATCH_OVER, PLAY, SHOW
from games.engine.pieces.cards import FULL_DECK, format_cards, parse_card, parse_cards
from games.engine.scoring import score_show
from tests.engine.crib_helpers import move, run, texts


def _play_out(state):
    """Play the first legal move until the play is over; returns the state and the events."""
    events = []
    while state.phase == PLAY:
        (seat,) = CRIBBAGE.to_move(state)
        state, new = CRIBBAGE.apply(state, seat, CRIBBAGE.legal_moves(state, seat)[0])
        events.extend(new)
    return state, events


def _random_position(players: int, seed: int, **options):
    """Four cards a hand, a full crib and a starter, drawn from a seeded shuffle."""
    cards = list(FULL_DECK)
    random.Random(seed).shuffle(cards)
    hands = [format_cards(cards[4 * i : 4 * i + 4]) for i in range(players)]
    crib = format_cards(cards[16:20])
    return position(hands, str(cards[20]), dealer=seed % players, crib=crib, **options)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_counts_left_of_the_dealer_first_then_round_to_the_dealer_then_the_crib(players):
    for seed in range(3):
        state = _random_position(players, seed)
        dealer = state.dealer
        state, events = _play_out(state)
        assert state.phase == COUNTED
        shows = [e for e in events if e["kind"] == "show"]
        expected = [(dealer + i) % players for i in range(1, players + 1)] + [dealer]
        assert [e["seat"] for e in shows] == expected
        assert shows[-1]["text"].startswith(f"crib of {{p{dealer}}}: ")
        for shown, e in zip(state.shows, shows, strict=True):
            score = score_show(shown.cards, state.starter, crib=shown.crib)
            assert e["points"] == shown.points == score.total
            if score.total:
                assert e["text"].endswith(f" {score.total} ({score.text()})")


def test_it_shows_the_worked_example_hands():
    state = position(["2C 3C 4C 6C", "5H 5C 5D JS"], "5S", dealer=0, crib="KH QH 9D 8D")
    state, events = _play_out(state)
    assert texts(events, "show")[0] == (
        "{p1} shows 29 (fifteen 2, fifteen 4, fifteen 6, fifteen 8, fifteen 10, fifteen 12,"
        " fifteen 14, fifteen 16, four of a kind is 28, nobs 29)"
    )


def test_it_ends_the_game_as_soon_as_the_first_hand_counts_out():
    state = position(
        ["2C 3C 4C 6C", "5H 5C 5D JS"], "5S", dealer=0, crib="KH QH 9D 8D", scores=(100, 100)
    )
    state, events = _play_out(state)
    assert texts(events, "show") == [texts(events, "show")[0]]  # only the pone's hand
    assert events[-1]["kind"] == "game_over"
    assert state.phase == MATCH_OVER and CRIBBAGE.to_move(state) == frozenset()
    outcome = CRIBBAGE.outcome(state)
    assert outcome is not None and outcome.winners == (1,)
    assert outcome.sides[1].score == 121  # the winning peg stops in the game hole
    dealer_pegged = sum(e.get("points", 0) for e in events if e["seat"] == 0)
    assert outcome.sides[0].score == 100 + dealer_pegged  # the dealer's big hand never counted
    assert outcome.reason == f"{{p1}} wins 121 to {outcome.sides[0].score}"


@pytest.mark.parametrize(
    ("target", "loser", "skunk", "words"),
    [
        (121, 91, 0, ""),
        (121, 90, 1, " (skunk)"),
        (121, 61, 1, " (skunk)"),
        (121, 60, 2, " (double skunk)"),
        (61, 31, 0, ""),
        (61, 30, 1, " (skunk)"),
        (61, 0, 1, " (skunk)"),
    ],
)
def test_it_wins_on_his_heels_and_marks_skunks(target, loser, skunk, words):
    state = position(
        ["5H 6H 7H 8H 9H TH", "AS 2S 3S 4S 5S 6S"],
        starter="JC",
        dealer=0,
        phase=DISCARD,
        scores=(target - 2, loser),
        target=target,
    )
    state, events = run(state, (0, "discard 9H TH"), (1, "discard 5S 6S"))
    assert texts(events)[-2:] == [
        "his heels: 2 to the dealer {p0}",
        f"{{p0}} wins {target} to {loser}{words}",
    ]
    assert state.phase == MATCH_OVER and state.starter == parse_card("JC")
    outcome = CRIBBAGE.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,)
    assert [side.skunk for side in outcome.sides] == [0, skunk]
    assert outcome.to_json()["sides"][1]["skunk_name"] == words.strip(" ()")
    assert skunk_level(target, loser) == skunk
    assert CRIBBAGE.legal_moves(state, 0) == [] and CRIBBAGE.legal_moves(state, 1) == []
    with pytest.raises(IllegalMove, match="the match is over"):
        CRIBBAGE.apply(state, 0, move("continue"))


def test_it_adds_partners_points_to_one_score():
    state = _random_position(4, 5)
    state, events = _play_out(state)
    assert state.phase == COUNTED
    by_side = [0, 0]
    for e in events:
        if "points" in e:
            by_side[e["seat"] % 2] += e["points"]
    assert state.scores == tuple(by_side)
    assert {e["seat"] for e in events if e["kind"] == "show"} == {0, 1, 2, 3}


def test_it_shows_every_hand_and_the_crib_until_everyone_continues():
    state = _random_position(3, 1)
    state, _ = _play_out(state)
    view = CRIBBAGE.view(state, 2)
    assert view["hands"] == [[str(c) for c in state.show_hand(seat)] for seat in range(3)]
    assert view["crib"] == [str(c) for c in state.crib]
    assert [s["breakdown"] for s in view["shows"]] == [s.breakdown for s in state.shows]
    assert view["legal_moves"] == [{"type": "continue"}]
    dealer = state.dealer
    state, _ = run(state, (0, "continue"), (2, "continue"))
    assert CRIBBAGE.to_move(state) == {1}
    with pytest.raises(IllegalMove, match="already said you are ready"):
        CRIBBAGE.apply(state, 0, move("continue"))
    state, events = run(state, (1, "continue"))
    assert state.phase == DISCARD and state.dealer == (dealer + 1) % 3 and state.hand == 2
    assert [e["kind"] for e in CRIBBAGE.view(state, 0)["events"]] == ["deal"]


# --- muggins ---------------------------------------------------------------------------------

HANDS = ["2C 3C 4C 6C", "5H 5C 5D JS"]  # the dealer's and the pone's


def _muggins_show(players_hands=HANDS, crib="KH QH 9D 8D", **options):
    state = position(players_hands, "5S", dealer=0, crib=crib, muggins=True, **options)
    state, _ = _play_out(state)
    assert state.phase == SHOW
    return state


def _worth(cards: str, *, crib: bool = False) -> int:
    return score_show(parse_cards(cards), parse_card("5S"), crib=crib).total


def test_it_lets_the_owner_count_and_refuses_an_over_count():
    state = _muggins_show()
    hand = _worth(HANDS[1])
    assert CRIBBAGE.to_move(state) == {1}
    assert CRIBBAGE.legal_moves(state, 1) == [move(f"count {n}") for n in range(hand + 1)]
    assert CRIBBAGE.legal_moves(state, 0) == []
    with pytest.raises(IllegalMove, match=f"that hand does not hold {hand + 1}"):
        CRIBBAGE.apply(state, 1, move(f"count {hand + 1}"))
    before = state.scores
    state, events = run(state, (1, f"count {hand}"))
    assert texts(events)[0] == f"{{p1}} counts {hand} for the hand"
    assert state.scores == (before[0], before[1] + hand)
    assert CRIBBAGE.to_move(state) == {0}  # a full count moves straight on to the dealer
    assert state.pending is not None and state.pending.owner == 0


def test_it_lets_an_opponent_claim_missed_points():
    state = _muggins_show()
    hand = _worth(HANDS[1])
    before = state.scores
    state, _ = run(state, (1, f"count {hand - 4}"))
    assert CRIBBAGE.to_move(state) == {0}
    assert CRIBBAGE.legal_moves(state, 0) == [
        *(move(f"muggins {n}") for n in range(1, 5)),
        move("continue"),
    ]
    assert "{p1} counted" in CRIBBAGE.view(state, 0)["prompt"]
    with pytest.raises(IllegalMove, match="only 4 points were missed, not 5"):
        CRIBBAGE.apply(state, 0, move("muggins 5"))
    with pytest.raises(IllegalMove, match="claim at least 1 point"):
        CRIBBAGE.apply(state, 0, move("muggins 0"))
    with pytest.raises(IllegalMove, match="only the other side may claim"):
        CRIBBAGE.apply(state, 1, move("muggins 2"))
    state, events = run(state, (0, "muggins 3"))
    assert texts(events)[0] == "{p0} claims 3 missed points from {p1} (muggins)"
    assert "1 point went unclaimed" in texts(events, "show")[0]
    assert state.scores == (before[0] + 3, before[1] + hand - 4)
    assert state.pending is not None and state.pending.owner == 0  # the dealer counts next
    assert state.shows[-1].declared == hand - 4 and state.shows[-1].claimed == 3


def test_it_moves_on_when_the_opponents_let_missed_points_go():
    state = _muggins_show()
    state, _ = run(state, (1, "count 0"))
    state, events = run(state, (0, "continue"))
    assert state.pending is not None and state.pending.owner == 0
    dealer_hand = _worth(HANDS[0])
    crib = _worth("KH QH 9D 8D", crib=True)
    state, _ = run(state, (0, f"count {dealer_hand}"))
    assert state.pending is not None and state.pending.crib
    assert CRIBBAGE.view(state, 1)["prompt"] == "Waiting for {p0} to count the crib"
    state, _ = run(state, (0, f"count {crib}"))
    assert state.phase == COUNTED
    assert [(s.owner, s.crib) for s in state.shows] == [(1, False), (0, False), (0, True)]


def test_it_keeps_partners_from_claiming_from_each_other():
    hands = ["AH 2H 3H 9S", "5H 5C 5D JS", "AD 2D 3D 9C", "KC QC TC 9D"]
    state = position(hands, "5S", dealer=0, crib="KH QH 8D 8S", muggins=True)
    state, _ = _play_out(state)
    assert state.pending is not None and state.pending.owner == 1
    state, _ = run(state, (1, "count 2"))
    assert CRIBBAGE.to_move(state) == {0, 2}
    with pytest.raises(IllegalMove, match="only the other side may claim"):
        CRIBBAGE.apply(state, 3, move("muggins 2"))
    state, _ = run(state, (0, "continue"))
    with pytest.raises(IllegalMove, match="already let these points go"):
        CRIBBAGE.apply(state, 0, move("muggins 2"))
    assert CRIBBAGE.to_move(state) == {2}
    state, _ = run(state, (2, "continue"))
    assert state.pending is not None and state.pending.owner == 2


def test_it_ends_a_muggins_game_when_a_count_reaches_the_target():
    state = _muggins_show(scores=(100, 100))
    state, events = run(state, (1, "count 21"))
    assert state.phase == MATCH_OVER
    assert events[-1]["text"].startswith("{p1} wins 121 to ")
    assert state.shows[-1].declared == 21
