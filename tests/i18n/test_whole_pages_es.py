"""Whole pages in Spanish, every part together: the shared frame, each game's table, its log,
prompts, names and options. Nothing is stripped before looking for English words."""

from __future__ import annotations

import random
import re

import pytest

from games import services
from games.engine import get_variant
from games.models import Match
from games.variants import web_games
from tests.games.helpers import any_move, fresh
from tests.i18n.spanish import english_left

pytestmark = pytest.mark.django_db(transaction=True)

ES = {"HTTP_ACCEPT_LANGUAGE": "es"}
GAMES = [web.key for web in web_games() if web.key != "testgame"]  # High Card: tests only


def mid_game(key: str, members: list, moves: int) -> Match:
    engine = get_variant(key)
    players = min(engine.player_counts)
    match = services.match_create(creator=members[0], variant=key, players=players)
    for member in members[1:players]:
        services.match_join(match_id=match.pk, user=member)
    match = fresh(match)
    by_seat = {seat.index: seat.user for seat in match.seats.all()}
    rng = random.Random(3)
    for _ in range(moves):
        if match.status != Match.Status.ACTIVE:
            break
        seat = match.to_move[0]
        services.match_play(
            match_id=match.pk, user=by_seat[seat], seq=match.seq, move=any_move(match, seat, rng)
        )
        match = fresh(match)
    return match


@pytest.mark.parametrize("key", GAMES)
@pytest.mark.parametrize("moves", [0, 7, 5000])
def test_a_match_page_reads_in_spanish_from_start_to_end(client, key, moves, alice, bob):
    members = [alice, bob]
    if min(get_variant(key).player_counts) > 2:
        members += [_member(f"m{i}") for i in range(2)]
    match = mid_game(key, members, moves)
    client.force_login(alice)
    html = client.get(f"/matches/{match.pk}/", **ES).content.decode()
    left = english_left(html, allowed=NAMES)
    assert left == [], (key, match.status, left)


@pytest.mark.parametrize("key", GAMES)
def test_a_games_rules_and_the_lobby_read_in_spanish(client, key, alice):
    client.force_login(alice)
    for path in (f"/rules/{key}/", "/play/", "/"):
        answer = client.get(path, **ES)
        assert answer.status_code == 200, path
        left = english_left(without_high_card(answer.content.decode()), allowed=NAMES)
        assert left == [], (path, left)


def without_high_card(html: str) -> str:
    """The page less High Card, the English-only game that exists in the tests alone."""
    html = re.sub(r'<fieldset[^>]*data-game="testgame".*?</fieldset>', " ", html, flags=re.S)
    html = re.sub(r'<option value="testgame"[^>]*>.*?</option>', " ", html, flags=re.S)
    return html.replace(">High Card<", "><")


NAMES = frozenset({"alice", "bob", "m0", "m1"})


def _member(username: str):
    from accounts.models import User

    return User.objects.create_user(username=username, email=f"{username}@example.org")
