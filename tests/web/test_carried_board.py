"""The board a move's message carries to the site's other processes (games.carried): made again
there with no query, it is the board the database gives (every field the read loads, the same
left unread), and every seat and spectator of every game is drawn from it as from a read."""

from __future__ import annotations

import random

import msgpack
import pytest
from channels.layers import InMemoryChannelLayer
from channels_redis.serializers import registry
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import carried, presenters, realtime, services
from games.engine import get_variant
from games.models import Match, Seat
from games.variants import web_games
from tests.games.helpers import any_move
from tests.web.test_kept_board import as_read

pytestmark = pytest.mark.django_db


class Layer:
    """A stand-in for the Redis layer: its messages reach other processes."""

    carries_boards = True


@pytest.fixture
def messages(monkeypatch) -> list[dict]:
    """The group messages sent, as another process would hear them (through channels-redis'
    own serializer), the layer's send itself left out."""
    heard: list[dict] = []

    def send(_, layer, group, message):
        heard.append(_through_redis(message))

    monkeypatch.setattr(realtime, "get_channel_layer", Layer)
    monkeypatch.setattr(realtime, "run_soon", send)
    return heard


def _through_redis(message: dict) -> dict:
    serializer = registry.get_serializer("msgpack")
    return serializer.deserialize(serializer.serialize(message))


def _draw(board: Match, viewers) -> dict:
    return {
        None if viewer is None else viewer.pk: presenters.viewer_regions(board, viewer)
        for viewer in viewers
    }


def _play(match: Match, members: list, capture, rng: random.Random, moves: int = 1) -> None:
    """Make `moves` moves (fewer if the match ends), each message sent as after a commit."""
    for _ in range(moves):
        board = services.read_match(match.pk)
        if not board.to_move:
            return
        seat = min(board.to_move)
        move = any_move(board, seat, rng)
        with capture(execute=True):
            services.match_play(match_id=match.pk, user=members[seat], seq=board.seq, move=move)


def _started(members: list, variant: str = "cribbage") -> Match:
    return services.match_create_seated(creator=members[0], players=members, variant=variant)


@pytest.mark.parametrize("web", web_games(), ids=lambda web: web.key)
def test_the_carried_board_is_the_database_s_and_draws_the_same(
    web, make_member, django_capture_on_commit_callbacks, messages
):
    players = max(get_variant(web.key).player_counts)
    members = [make_member(f"c{web.key}{i}", display_name=f"Player {i}") for i in range(players)]
    match = _started(members, web.key)
    Seat.objects.filter(match_id=match.pk).update(connections=1, away_since=timezone.now())
    _play(match, members, django_capture_on_commit_callbacks, random.Random(5), moves=5)
    last = [m for m in messages if m.get("type") == "match.changed"][-1]
    assert "board" in last
    presenters.forget_kept()
    with CaptureQueriesContext(connection) as queries:
        board = carried.unpack(last["board"])
    assert not queries
    read = services.read_match(match.pk)
    # the same fields loaded (compared first: reading a field left unread would load it)
    assert board.get_deferred_fields() == read.get_deferred_fields()
    assert board.created_by.get_deferred_fields() == read.created_by.get_deferred_fields()
    for mine, theirs in zip(board.seats.all(), read.seats.all(), strict=True):
        assert mine.get_deferred_fields() == theirs.get_deferred_fields() == set()
        assert mine.user.get_deferred_fields() == theirs.user.get_deferred_fields()
        assert mine.match is board
    assert board.seq == read.seq == last["seq"]
    assert as_read(board) == as_read(read)
    assert not board._state.adding and board._state.db == read._state.db

    viewers = [*members, None]
    presenters.forget_kept()
    expected = _draw(read, viewers)
    presenters.forget_kept()
    with CaptureQueriesContext(connection) as queries:
        drawn = _draw(board, viewers)
    assert drawn == expected
    assert not queries  # what a socket draws on the event loop, where Django allows none


def test_a_tournament_game_travels_with_its_match(make_member):
    from games.tournaments.models import Game

    match = _started([make_member("ta"), make_member("tb")])
    read = services.read_match(match.pk)
    game = Game(match_id=match.pk, number=2)
    type(read).tournament_game.related.set_cached_value(read, game)
    board = carried.unpack(_through_redis({"board": carried.pack(read)})["board"])
    assert board.tournament_game.number == 2 and board.tournament_game.match is board
    assert board.tournament_game.points_a == game.points_a  # a decimal, sent as text

    plain = carried.unpack(carried.pack(services.read_match(match.pk)))
    with pytest.raises(Match.tournament_game.RelatedObjectDoesNotExist):
        plain.tournament_game  # noqa: B018 - known to have none: no query either


def test_a_socket_of_another_process_draws_the_carried_board_without_reading(
    alice, bob, django_capture_on_commit_callbacks, messages
):
    match = _started([alice, bob])
    _play(match, [alice, bob], django_capture_on_commit_callbacks, random.Random(2))
    message = messages[-1]
    presenters.forget_kept()  # another process: nothing kept for this match
    reads = presenters.board_reads[match.pk]
    stamp = message["stamp"]
    first = presenters.carried_board(match.pk, stamp=stamp, data=message["board"])
    # its other sockets hearing that message take the same board; one that heard another does not
    assert presenters.kept_board(match.pk, stamp=stamp, heard=0.0) is first
    assert presenters.kept_board(match.pk, stamp="another-1", heard=-1e9) is None
    assert presenters.board_reads[match.pk] == reads
    assert first.seq == message["seq"]
    # a message about another match, or carrying no board, gives none
    assert presenters.carried_board(match.pk + 1, stamp=stamp, data=message["board"]) is None
    assert presenters.carried_board(match.pk, stamp=stamp, data={"format": 0}) is None


def test_a_board_packed_otherwise_or_broken_is_read_instead(alice, bob):
    """A process meeting a board of another format (one not yet upgraded) or bytes that are no
    board makes none, and its socket reads the match from the database as before."""
    packed = carried.pack(services.read_match(_started([alice, bob]).pk))
    assert isinstance(packed, bytes) and carried.unpack(packed) is not None
    old = msgpack.unpackb(packed)
    assert carried.unpack(old) is None  # the first format: the values themselves, not packed
    assert carried.unpack(msgpack.packb({**old, "format": carried.FORMAT - 1})) is None
    for broken in (packed[:-3], b"\xc1", packed + b"\x00", b"", None, 7):
        assert carried.unpack(broken) is None


def test_the_board_travels_packed_and_is_not_decoded_with_its_message(
    alice, bob, django_capture_on_commit_callbacks, messages
):
    """The mover's own process hears its message back, its sockets holding the board already:
    decoding the message must not decode the board (a few hundred objects) along with it."""
    match = _started([alice, bob])
    _play(match, [alice, bob], django_capture_on_commit_callbacks, random.Random(6))
    message = messages[-1]
    assert isinstance(message["board"], bytes)
    assert carried.unpack(message["board"]).seq == message["seq"]


def test_an_older_carried_board_leaves_a_newer_one_kept(
    alice, bob, django_capture_on_commit_callbacks, messages
):
    match = _started([alice, bob])
    _play(match, [alice, bob], django_capture_on_commit_callbacks, random.Random(4), moves=2)
    older, newer = [m for m in messages if m.get("type") == "match.changed"][-2:]
    presenters.forget_kept()
    kept = presenters.carried_board(match.pk, stamp=newer["stamp"], data=newer["board"])
    late = presenters.carried_board(match.pk, stamp=older["stamp"], data=older["board"])
    assert late.seq < kept.seq
    assert presenters.kept_board(match.pk, stamp=newer["stamp"], heard=0.0) is kept


def test_one_process_layers_carry_no_board(
    alice, bob, django_capture_on_commit_callbacks, monkeypatch
):
    """The in-memory layer's messages stay in the process, which keeps the board it wrote."""
    sent: list[dict] = []
    monkeypatch.setattr(realtime, "get_channel_layer", InMemoryChannelLayer)
    monkeypatch.setattr(realtime, "run_soon", lambda _, layer, group, m: sent.append(m))
    members = [alice, bob]
    _play(_started(members), members, django_capture_on_commit_callbacks, random.Random(3))
    changed = [m for m in sent if m.get("type") == "match.changed"]
    assert changed and all("board" not in m for m in changed)
