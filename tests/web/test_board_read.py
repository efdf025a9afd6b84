"""A board is read with its members' identity only (games.services.MEMBER_FIELDS): the page, the
board fragment, a move, the sockets' drawing and the API of every game never ask the database
for the rest of a member read with the board (each such read would be a query of its own), and
leave the board they share (games.presenters.load_match) as the database has it."""

from __future__ import annotations

import random

import pytest

from accounts.models import User
from games import presenters, services
from games.engine import get_variant
from games.models import Seat
from games.variants import web_games
from tests.api.conftest import ApiClient, token_of
from tests.conftest import signed_in
from tests.games.helpers import any_move
from tests.web.test_kept_board import as_read

pytestmark = pytest.mark.django_db


@pytest.fixture
def late_reads(monkeypatch) -> list[tuple[str, list[str]]]:
    """Every member field read after the member was: (username, fields)."""
    reads: list[tuple[str, list[str]]] = []
    original = User.refresh_from_db

    def refresh(self, using=None, fields=None, from_queryset=None):
        reads.append((self.__dict__.get("username", "?"), list(fields or [])))
        return original(self, using=using, fields=fields, from_queryset=from_queryset)

    monkeypatch.setattr(User, "refresh_from_db", refresh)
    return reads


def test_the_read_leaves_the_rest_of_each_member_unread(alice, bob):
    match = services.match_create_seated(creator=alice, players=[alice, bob], variant="cribbage")
    board = services.read_match(match.pk)
    seat_user = board.seats.all()[0].user
    deferred = seat_user.get_deferred_fields()
    assert {"password", "email", "last_login", "date_joined"} <= deferred
    assert not deferred & services.MEMBER_FIELDS
    assert board.created_by.get_deferred_fields() == deferred
    assert seat_user.name == alice.name and board.created_by.username == "alice"


@pytest.mark.parametrize("web", web_games(), ids=lambda web: web.key)
def test_no_member_field_is_read_afterwards_by_any_game(web, late_reads, make_member):
    players = max(get_variant(web.key).player_counts)
    members = [make_member(f"p{web.key}{i}", display_name=f"Player {i}") for i in range(players)]
    spectator = make_member(f"s{web.key}")
    match = services.match_create_seated(creator=members[0], players=members, variant=web.key)
    Seat.objects.filter(match_id=match.pk).update(connections=1)
    rng = random.Random(3)
    clients = {member.pk: signed_in(member) for member in [*members, spectator]}
    api = ApiClient(token_of(members[0], name="board read"))
    for _ in range(6):  # a few moves
        board = services.read_match(match.pk)
        if board.status != "active":
            break
        seat = min(board.to_move)
        move = any_move(board, seat, rng)
        services.match_play(match_id=match.pk, user=members[seat], seq=board.seq, move=move)
        shared = presenters.load_match(match.pk)  # the board every reader below is handed
        stale = clients[members[seat].pk].post(  # no move given: refused, with the regions
            f"/matches/{match.pk}/move/", {"seq": board.seq}, headers={"HX-Request": "true"}
        )
        assert stale.status_code == 400 and b'id="players"' in stale.content, stale.content[:300]
        for member in [*members, spectator]:
            client = clients[member.pk]
            assert client.get(f"/matches/{match.pk}/").status_code == 200
            assert client.get(f"/matches/{match.pk}/board/").status_code == 200
            presenters._render_cache.clear()  # drawn afresh, as another process's socket does
            presenters.viewer_regions(services.read_match(match.pk), member)
        assert api.get(f"/matches/{match.pk}").status_code == 200
        # and none of them changed it (tests/web/test_kept_board.py)
        assert presenters.load_match(match.pk) is shared
        assert as_read(shared) == as_read(services.read_match(match.pk))
    assert late_reads == []


def test_the_lobby_reads_no_member_field_afterwards(late_reads, make_member, client):
    """Its lists (open matches with their creators, the member's own in play) and its socket."""
    from games.consumers import LobbyConsumer

    host, guest, me = (make_member(name, display_name=name.title()) for name in ("hu", "gu", "me"))
    services.match_create(creator=host, variant="cribbage", players=2)
    services.match_create(creator=host, variant="kings", players=3)
    services.match_create_seated(creator=guest, players=[guest, me], variant="tabletop")
    client.force_login(me)
    page = client.get("/play/").content.decode()
    assert "Hu" in page and "Gu" in page
    consumer = LobbyConsumer()
    consumer.user, consumer.language = me, "en"
    assert "Hu" in consumer._lists()
    assert late_reads == []


def test_a_finished_match_and_its_rematch_read_no_member_field_afterwards(late_reads, make_member):
    """The end of a match: the listeners (ratings, notices), the end panel's rematch offer, the
    replay and the API, with both players' pages."""
    from tests.games.helpers import play_out

    ann, ben = make_member("ann", display_name="Ann"), make_member("ben", display_name="Ben")
    match = services.match_create_seated(creator=ann, players=[ann, ben], variant="testgame")
    play_out(match, {0: ann, 1: ben})
    clients = {member.pk: signed_in(member) for member in (ann, ben)}
    ann_page = clients[ann.pk].get(f"/matches/{match.pk}/").content.decode()
    assert "Ben" in ann_page
    rematch = clients[ann.pk].post(f"/matches/{match.pk}/rematch/")
    assert rematch.status_code in (200, 302)
    ben_page = clients[ben.pk].get(f"/matches/{match.pk}/").content.decode()
    assert "Ann" in ben_page  # the offer names who made it
    assert clients[ben.pk].get(f"/matches/{match.pk}/replay/").status_code == 200
    api = ApiClient(token_of(ben, name="finished"))
    assert api.get(f"/matches/{match.pk}").status_code == 200
    assert late_reads == []
