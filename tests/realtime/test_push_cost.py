"""What a move costs the server: regions drawn once per kind of viewer (each seat, and one for
all spectators), not once per socket; a lean answer to the mover when the socket brings the
board; few queries per push; no lock on the match when a page connects; settings that keep
database connections and quiet Redis sockets alive."""

from __future__ import annotations

import asyncio
import gc
import os
import re
import time
import weakref

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext

from games import fragments, presenters, realtime, services
from games.consumers import MatchConsumer
from games.models import Match
from games.players import players_html
from games.variants.cribbage.templatetags import cribbage_table
from tests.conftest import signed_in
from tests.games.helpers import any_move, fresh
from tests.realtime.test_match_socket import drain, open_socket, play, start_two_player

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.mark.asyncio
async def test_a_move_draws_each_region_once_per_seat_and_once_for_all_spectators(
    alice, bob, charlie, dana
):
    match = await start_two_player(alice, bob)
    sockets = [(await open_socket(match.pk, user))[0] for user in (alice, bob, charlie, dana)]
    for sock in sockets:
        await drain(sock)
    seat = match.to_move[0]
    await play(match, alice if seat == 0 else bob, seat)
    pushed = [await drain(sock) for sock in sockets]
    drawn = {
        viewer: presenters.renders[(match.pk, match.seq + 1, viewer, presenters.REGIONS)]
        for viewer in (0, 1, None)
    }
    assert drawn == {0: 1, 1: 1, None: 1}  # once per seat, once for both spectators
    assert all('id="match-seq"' in html for html in pushed)
    assert pushed[2] == pushed[3]  # both spectators got the same fragments
    assert pushed[0] != pushed[2] and pushed[1] != pushed[2]
    for sock in sockets:
        await sock.disconnect()


@pytest.mark.asyncio
async def test_the_sockets_of_a_process_share_one_read_of_the_board_per_message(
    alice, bob, charlie, dana
):
    """A member's move hands the board it wrote to the sockets of its process (no read at all);
    any other message (here a page going away) costs the four sockets one read."""
    match = await start_two_player(alice, bob)
    sockets = [(await open_socket(match.pk, user))[0] for user in (alice, bob, charlie, dana)]
    for sock in sockets:
        await drain(sock)
    reads = presenters.board_reads[match.pk]
    seat = match.to_move[0]
    await play(match, alice if seat == 0 else bob, seat)
    pushed = [await drain(sock) for sock in sockets]
    assert all(f'data-seq="{match.seq + 1}"' in html for html in pushed)
    assert presenters.board_reads[match.pk] - reads == 0
    await sync_to_async(services.seat_disconnected)(match_id=match.pk, user=alice)
    pushed = [await drain(sock) for sock in sockets]
    assert presenters.board_reads[match.pk] - reads == 1  # four sockets, one read
    assert "is-away" in pushed[2]  # the spectator sees alice's page gone
    for sock in sockets:
        await sock.disconnect()


@pytest.mark.asyncio
async def test_a_board_at_hand_is_drawn_on_the_event_loop_without_a_hop_to_the_database_thread(
    alice, bob, charlie, monkeypatch
):
    """A move made through this process hands its board over: the sockets draw it where they
    are. A message with no board at hand (a page going away) is drawn in the thread, where the
    sockets share one read of it."""
    match = await start_two_player(alice, bob)
    sockets = [(await open_socket(match.pk, user))[0] for user in (alice, bob, charlie)]
    for sock in sockets:
        await drain(sock)
    hops = []
    changes = MatchConsumer._changes
    monkeypatch.setattr(
        MatchConsumer, "_changes", lambda self, *args: hops.append(self) or changes(self, *args)
    )
    seat = match.to_move[0]
    await play(match, alice if seat == 0 else bob, seat)
    pushed = [await drain(sock) for sock in sockets]
    assert all(f'data-seq="{match.seq + 1}"' in html for html in pushed)
    assert hops == []
    await sync_to_async(services.seat_disconnected)(match_id=match.pk, user=alice)
    pushed = [await drain(sock) for sock in sockets]
    assert hops and "is-away" in pushed[2]
    for sock in sockets:
        await sock.disconnect()


@pytest.mark.asyncio
async def test_a_move_made_through_another_process_is_drawn_from_the_board_its_message_carries(
    alice, bob, charlie, monkeypatch
):
    """As on the Redis layer, where the move's message reaches the other processes: one that
    did not make the move (here: this one, with nothing handed over) draws the board the message
    carries (games.carried), on the event loop, with no read and no hop to a database thread."""
    match = await start_two_player(alice, bob)
    sockets = [(await open_socket(match.pk, user))[0] for user in (alice, bob, charlie)]
    for sock in sockets:
        await drain(sock)
    monkeypatch.setattr(realtime, "board_keeper", None)  # the move is another process's
    monkeypatch.setattr(get_channel_layer(), "carries_boards", True, raising=False)
    hops = []
    changes = MatchConsumer._changes
    monkeypatch.setattr(
        MatchConsumer, "_changes", lambda self, *args: hops.append(self) or changes(self, *args)
    )
    reads = presenters.board_reads[match.pk]
    seat = match.to_move[0]
    await play(match, alice if seat == 0 else bob, seat)
    pushed = [await drain(sock) for sock in sockets]
    assert all(f'data-seq="{match.seq + 1}"' in html for html in pushed)
    assert hops == [] and presenters.board_reads[match.pk] == reads
    for sock in sockets:
        await sock.disconnect()


@pytest.mark.asyncio
async def test_a_drawing_that_wants_the_database_is_made_in_the_thread_instead(
    alice, bob, monkeypatch
):
    match = await start_two_player(alice, bob)
    sockets = [(await open_socket(match.pk, user))[0] for user in (alice, bob)]
    for sock in sockets:
        await drain(sock)
    regions = presenters.viewer_regions

    def wanting_the_database(match, user, *args, **kwargs):
        Match.objects.filter(pk=match.pk).exists()  # refused on the event loop
        return regions(match, user, *args, **kwargs)

    monkeypatch.setattr(presenters, "viewer_regions", wanting_the_database)
    seat = match.to_move[0]
    moved = await play(match, alice if seat == 0 else bob, seat)
    pushed = [await drain(sock) for sock in sockets]
    assert all(f'data-seq="{moved.seq}"' in html for html in pushed)
    assert all('id="hand"' in html for html in pushed)  # the whole change, not half of it
    for sock in sockets:
        await sock.disconnect()


@pytest.mark.asyncio
async def test_a_region_a_move_leaves_alone_is_not_drawn_again_and_the_pegboard_once(
    alice, bob, charlie, monkeypatch
):
    pegboards = []
    draw_pegboard = cribbage_table._pegboard
    monkeypatch.setattr(
        cribbage_table, "_pegboard", lambda *args: pegboards.append(args) or draw_pegboard(*args)
    )
    match = await start_two_player(alice, bob)
    sockets = [(await open_socket(match.pk, user))[0] for user in (alice, bob, charlie)]
    for sock in sockets:
        await drain(sock)
    for _ in range(2):  # the first move takes "call the match off" away; the second changes less
        match = await sync_to_async(fresh)(match)
        seat = match.to_move[0]
        drawn, pegboards[:] = dict(fragments.drawn), []
        await play(match, alice if seat == 0 else bob, seat)
        pushed = [await drain(sock) for sock in sockets]
        assert all(f'data-seq="{match.seq + 1}"' in html for html in pushed)
        assert len(pegboards) <= 1  # one drawing for every viewer, none when no peg moved
    assert fragments.drawn["actions"] == drawn.get("actions", 0)
    assert fragments.drawn["error"] == drawn.get("error", 0)
    assert all('id="actions"' not in html for html in pushed)
    for sock in sockets:
        await sock.disconnect()


def test_a_move_post_makes_few_queries(alice, bob):
    """The session comes from the cache, the move is read for the game of the locked match (no
    query of its own), the seats are read once, and a member whose page is open is not written
    to."""
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    clients = {}
    for user in (alice, bob):
        services.seat_connected(match_id=match.pk, user=user)
        clients[user.pk] = signed_in(user)
        clients[user.pk].get(f"/matches/{match.pk}/")
    for _ in range(2):  # the second as every move after the first of a match
        match = fresh(match)
        seat = match.to_move[0]
        client = clients[(alice if seat == 0 else bob).pk]
        with CaptureQueriesContext(connection) as queries:
            answer = _move_post(client, match, seat, HTTP_X_MATCH_SOCKET="open")
        assert answer.status_code == 200
    framing = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")
    sql = [q["sql"] for q in queries if not q["sql"].startswith(framing)]
    # the member, the match, its seats, the move, the new board
    assert len(sql) <= 5, "\n".join(q[:90] for q in sql)


def test_the_match_page_draws_its_regions_once_and_gives_each_request_its_csrf_token(alice, bob):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    match = fresh(match)
    seat = 0 if match.seats.get(user=alice).index == 0 else 1
    pages = [signed_in(alice).get(f"/matches/{match.pk}/") for _ in range(2)]
    tokens = []
    for page in pages:
        html = page.content.decode()
        assert fragments.CSRF_SLOT not in html
        hand = html[html.index('<section id="hand"') :]
        tokens.append(set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', hand)))
        assert tokens[-1]  # the move forms and the resign form hold one
        # ... the very token the header's forms and htmx's X-CSRFToken hold: one a page
        everywhere = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        everywhere += re.findall(r'"X-CSRFToken": "([^"]+)"', html)
        assert len(everywhere) > len(tokens[-1]) and set(everywhere) == tokens[-1]
        assert len(tokens[-1]) == 1
        assert '<section id="board"' in html and "hx-swap-oob" not in html
    assert tokens[0] != tokens[1]  # each request its own (masked) token
    drawn = presenters.renders[(match.pk, match.seq, seat, presenters.REGIONS, "page")]
    assert drawn == 1


def test_a_seat_is_never_handed_another_viewers_render(alice, bob, charlie):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    match = presenters.load_match(match.pk)
    hands = {
        user.username: presenters.viewer_regions(match, user)["hand"]
        for user in (alice, bob, charlie)
    }
    assert len(set(hands.values())) == 3
    fresh_alice = presenters.render_regions(presenters.match_context(match, alice))["hand"]
    assert hands["alice"] == fresh_alice


def _move_post(client, match, seat, **headers):
    import json

    move = any_move(match, seat)
    return client.post(
        f"/matches/{match.pk}/move/",
        {"seq": match.seq, "move": json.dumps(move)},
        HTTP_HX_REQUEST="true",
        **headers,
    )


def test_the_movers_answer_carries_no_region_the_socket_sends(alice, bob):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    match = fresh(match)
    seat = match.to_move[0]
    mover = signed_in(alice if seat == 0 else bob)
    answer = _move_post(mover, match, seat, HTTP_X_MATCH_SOCKET="open")
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'id="move-error"' in html
    for region in ("board", "hand", "players", "status", "events", "actions", "match-seq"):
        assert f'id="{region}"' not in html
    assert len(answer.content) < 512
    assert int(answer["X-Match-Seq"]) == match.seq + 1


def test_a_page_without_a_socket_still_gets_the_whole_board(alice, bob):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    match = fresh(match)
    seat = match.to_move[0]
    answer = _move_post(signed_in(alice if seat == 0 else bob), match, seat)
    html = answer.content.decode()
    assert answer.status_code == 200
    assert 'id="board"' in html and 'id="hand"' in html and 'id="match-seq"' in html


def test_a_refused_move_still_answers_with_the_board_to_heal_from(alice, bob):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    match = fresh(match)
    seat = match.to_move[0]
    match.seq -= 1  # a move from an old board
    mover = signed_in(alice if seat == 0 else bob)
    answer = _move_post(mover, match, seat, HTTP_X_MATCH_SOCKET="open")
    assert answer.status_code == 409
    assert 'id="board"' in answer.content.decode()


def test_a_push_reads_the_match_in_one_query_and_draws_from_the_cache(alice, bob):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    presenters.viewer_regions(presenters.load_match(match.pk), alice)
    with CaptureQueriesContext(connection) as queries:
        again = presenters.load_match(match.pk)
        presenters.viewer_regions(again, alice)
    assert len(queries) == 1, [q["sql"] for q in queries]


def _read_and_drop(match_id: int, stamp: str):
    """A board read for a message and kept, then dropped when the next message's board is
    kept; the first board, with a weak reference to it."""
    board = presenters.shared_board(match_id, stamp=stamp, heard=0.0)
    return board, weakref.ref(board)


def test_a_board_no_longer_kept_is_freed_without_the_cyclic_collector(alice, bob):
    """A kept board, read with its seats, is let go of when the next is kept: it is freed at
    once, not left for Python's cyclic collector (whose pauses stalled every socket)."""
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    board, gone = _read_and_drop(match.pk, "first")
    presenters.viewer_regions(board, alice)  # drawn, as a socket does
    assert [s.user_id for s in board.seats.all()] == [alice.pk, bob.pk]
    del board
    services.seat_connected(match_id=match.pk, user=alice)  # the next read is another board
    gc.collect()
    gc.disable()
    try:
        assert gone() is not None  # still kept
        presenters.shared_board(match.pk, stamp="next", heard=time.monotonic() + 1)
        assert gone() is None
    finally:
        gc.enable()


def test_a_drawing_on_a_board_let_go_of_reads_its_seats_again(alice, bob):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    board, _ = _read_and_drop(match.pk, "first")
    drawn = presenters.viewer_regions(board, alice)
    services.seat_connected(match_id=match.pk, user=bob)  # the next read is another board
    presenters.shared_board(match.pk, stamp="next", heard=time.monotonic() + 1)
    presenters.forget_kept()  # nothing drawn at hand: the drawing is made from the board itself
    with CaptureQueriesContext(connection) as queries:
        again = presenters.viewer_regions(board, alice)
    assert queries, "the seats were read again"
    assert {k: v for k, v in again.items() if k != "players"} == {
        k: v for k, v in drawn.items() if k != "players"
    }
    assert again["players"] != drawn["players"]  # as they are now: Bob is back at the table


def test_counting_a_page_in_takes_no_lock_on_the_match(alice, bob):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    with CaptureQueriesContext(connection) as queries:
        services.seat_connected(match_id=match.pk, user=alice)
    framing = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")
    sql = [q["sql"] for q in queries if not q["sql"].startswith(framing)]
    assert len(sql) == 1 and sql[0].startswith("UPDATE"), sql
    assert "FOR UPDATE" not in " ".join(sql)
    seat = fresh(match).seats.get(user=alice)
    assert seat.connections == 1 and seat.away_since is None
    services.seat_connected(match_id=match.pk, user=alice)
    services.seat_disconnected(match_id=match.pk, user=alice)
    assert fresh(match).seats.get(user=alice).away_since is None  # one page still open
    services.seat_disconnected(match_id=match.pk, user=alice)
    services.seat_disconnected(match_id=match.pk, user=alice)  # never below zero
    seat = fresh(match).seats.get(user=alice)
    assert seat.connections == 0 and seat.away_since is not None


def test_database_connections_are_kept_and_checked_by_default():
    """The site's own settings (the test settings turn keeping off between test cases)."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "DB_CONN_MAX_AGE"}
    env["DJANGO_SETTINGS_MODULE"] = "cribsite.settings"
    code = "from django.conf import settings as s; d = s.DATABASES['default'];"
    code += "print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'])"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    max_age, checks = out.stdout.split()
    assert int(max_age) > 0 and checks == "True"


def test_redis_connections_are_kept_alive_and_read_with_a_long_timeout():
    """redis-py 8 reads with a 5 s timeout by default: the site's Redis reads wait longer, and
    TCP keepalive and a health check keep a quiet connection alive."""
    assert settings.REDIS_HOST["socket_timeout"] >= 10
    assert settings.REDIS_HOST["socket_keepalive"] is True
    assert settings.REDIS_HOST["health_check_interval"] > 0


@pytest.mark.asyncio
async def test_a_quiet_redis_socket_outlives_the_read_timeout(caplog):
    """Against a real Redis (REDIS_URL), through the site's own channel layer: a receive left
    waiting longer than redis-py's default 5 s read timeout gets no error, nothing is logged,
    and a message after the quiet spell still arrives."""
    if not os.environ.get("REDIS_URL"):  # this pass runs on the in-memory layer
        pytest.skip("REDIS_URL is not set: this run uses the in-memory channel layer")
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("quiet", channel)
    waiting = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(12)  # more than twice redis-py 8's default read timeout
    assert not waiting.done() or waiting.exception() is None
    await layer.group_send("quiet", {"type": "after.quiet"})
    message = await asyncio.wait_for(waiting, 5)
    assert message["type"] == "after.quiet"
    await layer.group_discard("quiet", channel)
    await layer.flush()
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


# The pegboard's fixed drawing is a static file: tests/web/test_drawing.py checks the pegs land
# in its holes and that the files are up to date.


def test_pushed_fragments_carry_no_indentation_but_keep_their_words(alice, bob):
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    match = presenters.load_match(match.pk)
    context = presenters.match_context(match, alice)
    for region, html in presenters.render_regions(context).items():
        assert "\n " not in html and " \n" not in html, region
        words = re.sub(r"\s+", " ", html)
        drawer = context["web"].region_drawer(region)  # a region the game draws in Python
        if region == "players":
            drawer = players_html  # every game's, in Python too
        drawer = presenters.DRAWN_IN_PYTHON.get(region, drawer)  # the status line and the log
        template = context["board_template"] if region in ("board", "hand") else "games/match.html"
        loose = (
            drawer({**context, "oob": True})
            if drawer is not None
            else render_to_string(
                f"{template}#{region}",
                {**context, "oob": True},
            )
        )
        for seat in context["seats"]:  # the players region's slots, filled for Alice
            tag = render_to_string("games/match.html#you_tag") if seat.is_you else ""
            loose = loose.replace(fragments.seat_tag_slot(seat.index), tag)
        assert words == re.sub(r"\s+", " ", loose), region  # only white space differs


@pytest.mark.asyncio
async def test_a_kings_lay_is_pushed_as_the_parts_of_the_board_it_changed(alice, bob, charlie):
    match = await sync_to_async(services.match_create_seated)(
        creator=alice, players=[alice, bob], variant="kings"
    )
    sockets = [(await open_socket(match.pk, user))[0] for user in (alice, bob, charlie)]
    first = [await drain(sock) for sock in sockets]
    for html in first:
        assert '<section id="board"' in html and html.count('class="sq ') == 169
    rows = re.compile(r'<div id="kings-row-\d+" class="kings-row" role="row" hx-swap-oob="true">')
    for move in range(3):  # the first lay may take the centre's mark away: the whole board
        match = await sync_to_async(fresh)(match)
        seat = match.to_move[0]
        await play(match, alice if seat == 0 else bob, seat)
        pushed = [await drain(sock) for sock in sockets]
        if move == 0:
            continue
        for html in pushed:
            assert '<section id="board"' not in html  # not the whole board
            assert re.search(r'<ul id="kings-info"[^>]* hx-swap-oob="true">', html)
            assert 0 < len(rows.findall(html)) < 13
            assert html.count('class="sq ') <= 13 * len(rows.findall(html)) < 169
    for sock in sockets:
        await sock.disconnect()


@pytest.mark.asyncio
async def test_a_page_that_asks_to_resync_gets_every_region_whole_with_the_next_push(alice, bob):
    match = await sync_to_async(services.match_create_seated)(
        creator=alice, players=[alice, bob], variant="kings"
    )
    sock = (await open_socket(match.pk, alice))[0]
    await drain(sock)

    async def next_push(said: str | None = None) -> str:
        nonlocal match
        if said is not None:
            await sock.send_to(text_data=said)
        match = await sync_to_async(fresh)(match)
        seat = match.to_move[0]
        await play(match, alice if seat == 0 else bob, seat)
        return await drain(sock)

    await next_push()  # the first lay may take the centre's mark away: the whole board
    for said in (None, "hello", '{"move": "x"}'):  # nothing, or words it does not know
        pushed = await next_push(said)
        assert '<section id="board"' not in pushed and 'id="kings-row-' in pushed
        assert 'id="actions"' not in pushed  # a region the move left alone
    pushed = await next_push("resync")
    assert '<section id="board"' in pushed and pushed.count('class="sq ') == 169
    assert 'id="actions"' in pushed  # every region, whole
    pushed = await next_push()
    assert '<section id="board"' not in pushed and 'id="actions"' not in pushed
    await sock.disconnect()
