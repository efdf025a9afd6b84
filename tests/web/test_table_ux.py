"""The shared match page and the Cribbage table as a member sees them: the hand being counted
under muggins, the card just played and its points, the log newest first and focusable, and
the end of the match (a banner in each member's own terms, no hand panel left over)."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from games import services
from games.engine import get_variant
from games.models import Match
from games.texts import event_text
from games.variants import web_game
from tests.games.helpers import any_move, fresh

pytestmark = pytest.mark.django_db
CRIBBAGE = get_variant("cribbage")


def _two_members(alice, bob, **options) -> Match:
    match = services.match_create(
        creator=alice, variant="cribbage", players=2, options={"target": 61, **options}
    )
    services.match_join(match_id=match.pk, user=bob)
    return fresh(match)


def _play_until(match: Match, members, stop, rng) -> Match:
    """Legal moves for whoever may act until `stop(view of seat 0)` holds or the match ends."""
    for _ in range(3000):
        match = fresh(match)
        if match.is_over:
            return match
        state = CRIBBAGE.load(match.snapshot)
        if stop(CRIBBAGE.view(state, 0)):
            return match
        seat = min(CRIBBAGE.to_move(state))
        services.match_play(
            match_id=match.pk, user=members[seat], seq=match.seq, move=any_move(match, seat, rng)
        )
    raise AssertionError("the match did not get there")


def _page(client, member, match: Match) -> str:
    client.force_login(member)
    return client.get(reverse("match", args=[match.pk])).content.decode()


def test_it_shows_the_hand_being_counted_beside_the_count(client, alice, bob):
    match = _two_members(alice, bob, muggins=True)

    def counting(view) -> bool:
        return any(m["type"] == "count" for m in view["legal_moves"])

    match = _play_until(match, [alice, bob], counting, random.Random(1))
    view = CRIBBAGE.view(CRIBBAGE.load(match.snapshot), 0)
    page = _page(client, alice, match)
    shown = page.split('class="counting"')[1].split("</div>")[0]
    for card in view["counting"]["cards"]:
        assert f'data-card="{card}"' in shown
    assert f'data-card="{view["starter"]}"' in shown
    assert 'id="count-points"' in page


def test_it_marks_the_card_just_played_and_the_points_it_made(client, alice, bob):
    def pegged(view) -> bool:
        last = view["events"][-1] if view["events"] else {}
        return view["phase"] == "play" and bool(view["current"]) and bool(last.get("points"))

    # The deal is the match's own: a game to 61 can end with every pegging point made by a
    # hand's last card, so that the play phase never shows a card that scored (seen twice in
    # CI, the match over at seq 65). Then another match is played.
    rng = random.Random(2)
    for _ in range(5):
        match = _play_until(_two_members(alice, bob), [alice, bob], pegged, rng)
        if not match.is_over:
            break
    else:
        pytest.fail("five matches ended with no scoring card on the table")
    view = CRIBBAGE.view(CRIBBAGE.load(match.snapshot), 0)
    page = _page(client, alice, match)
    board = re.search(r'<section id="board".*?</section>', page, re.S)
    shown = board.group(0) if board else page
    assert page.count(" is-last") == 1, (match.seq, view["current"], view["events"][-2:], shown)
    last_play = page.split(" is-last")[1].split("</li>")[0]
    assert f'data-card="{view["current"][-1]["card"]}"' in last_play
    assert "just played" in last_play
    callout = page.split('class="callout')[1].split("</p>")[0]
    assert f"+{view['events'][-1]['points']}" in callout
    assert "No cards played yet." not in page


def test_the_log_puts_the_newest_line_first_and_takes_focus(client, alice, bob):
    match = _two_members(alice, bob)
    match = _play_until(match, [alice, bob], lambda v: v["phase"] == "play", random.Random(3))
    page = _page(client, alice, match)
    log = re.search(r'<ol class="events" tabindex="0"[^>]*>(.*?)</ol>', page, re.S)
    assert log, "the log is a focusable list"
    lines = re.findall(r"<li>(.*?)</li>", log.group(1))
    view = CRIBBAGE.view(CRIBBAGE.load(match.snapshot), 0)
    newest = event_text(web_game("cribbage"), view["events"][-1], services.seat_names(match))
    assert lines[0].lower() == escape(newest).lower()


def test_the_end_of_the_match_is_a_banner_for_each_member(client, alice, bob):
    match = _two_members(alice, bob)
    match = _play_until(match, [alice, bob], lambda v: False, random.Random(4))
    assert match.status == Match.Status.FINISHED
    winner = match.outcome["winners"][0]
    members = [alice, bob]
    won = _page(client, members[winner], match)
    lost = _page(client, members[1 - winner], match)
    assert "outcome-won" in won and "You won" in won
    assert "outcome-lost" in lost and "You lost" in lost
    for page in (won, lost):
        assert 'id="conn-state"' not in page  # no "Live" badge once it is over
        assert "Watch the replay" in page and "Final scores" in page
        hand = re.search(r'<section id="hand"[^>]*>', page).group(0)
        assert "hidden" in hand or 'class="shows"' in page


def test_the_waiting_room_does_not_count_the_seated_member(client, alice):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    page = _page(client, alice, fresh(match))
    assert "Waiting for 2 players" not in page
    assert "Waiting for the open seats to fill" in page
