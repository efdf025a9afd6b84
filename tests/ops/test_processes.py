"""Real daphne processes: a crash with moves in flight, and two processes sharing Redis.

These start daphne the way production runs it, on the test database, and play over HTTP and
sockets as the match page does. In CI a missing Redis is a failure, not a skip.
"""

from __future__ import annotations

import json
import os
import random
import re
import secrets
import signal
import threading
import time
import urllib.parse
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from games import services
from games.engine import computer_move, get_variant
from games.models import Match, Move
from tests.conftest import redis_url_on
from tests.live_server import daphne, log_path

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
SEQ = re.compile(r'id="match-seq" data-seq="(\d+)"')
REDIS_DB = 7  # a database of its own, so nothing else on the server hears these matches


@pytest.fixture
def redis_url() -> str:
    return redis_url_on(REDIS_DB)


def warm_up(port: int, path: str, cookie: str) -> None:
    """Load a page first, as a member does before the page opens its socket: a new process
    imports and compiles its templates on the first request."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path, headers={"Cookie": cookie, "Host": "127.0.0.1"})
    assert conn.getresponse().status == 200
    conn.close()


def cookie_for(user) -> str:
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "accounts.backends.MemberBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}; csrftoken={'c' * 32}"


def post_move(port: int, match_id: int, seq: int, move: dict, cookie: str) -> int:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(
            "POST",
            f"/matches/{match_id}/move/",
            body=urllib.parse.urlencode({"seq": seq, "move": json.dumps(move)}),
            headers={
                "Cookie": cookie,
                "X-CSRFToken": "c" * 32,
                "HX-Request": "true",
                "X-Match-Socket": "open",
                "Content-Type": "application/x-www-form-urlencoded",
                "Host": "127.0.0.1",
            },
        )
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


class Watcher:
    """A match socket read on a thread: the highest seq it was told about."""

    def __init__(self, port: int, match_id: int, cookie: str) -> None:
        self.ws = connect(
            f"ws://127.0.0.1:{port}/ws/matches/{match_id}/",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": cookie},
            max_size=None,
            open_timeout=30,
            legacy=True,  # a connection held open past this call, read on a thread
        )
        self.seq, self.closed = -1, None
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for message in self.ws:
                found = SEQ.search(message)
                if found:
                    with self.changed:
                        self.seq = max(self.seq, int(found.group(1)))
                        self.changed.notify_all()
        except ConnectionClosed as closed:
            self.closed = closed

    def until(self, seq: int, timeout: float = 10) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.seq >= seq, timeout)

    def close(self) -> None:
        self.ws.close()
        self.thread.join(timeout=5)


def a_move(match: Match, seat: int, rng: random.Random) -> dict:
    engine = get_variant(match.variant)
    return computer_move(engine, engine.load(match.snapshot), seat, "random", rng)


def test_moves_through_one_process_reach_sockets_held_by_the_other(alice, bob, redis_url):
    """Two daphne processes share Redis: every move posted to one is pushed by the other, and a
    socket that hears nothing for a minute is still open and still told of the next move."""
    env = {"REDIS_URL": redis_url, "REDIS_PREFIX": f"ops-{secrets.token_hex(4)}"}  # ours alone
    with daphne("ops-first", env) as (first, _), daphne("ops-second", env) as (second, _):
        cookies = {0: cookie_for(alice), 1: cookie_for(bob)}
        quiet_match = services.match_create(creator=alice, variant="cribbage", players=2)
        services.match_join(match_id=quiet_match.pk, user=bob)
        for port in (first, second):
            warm_up(port, f"/matches/{quiet_match.pk}/", cookies[1])
        quiet = Watcher(second, quiet_match.pk, cookies[1])  # left alone while the rest plays
        began_quiet = time.monotonic()

        match = services.match_create(creator=alice, variant="cribbage", players=2)
        services.match_join(match_id=match.pk, user=bob)
        watchers = {seat: Watcher(second, match.pk, cookies[seat]) for seat in (0, 1)}
        rng, moves, missed = random.Random(7), 0, []
        while moves < 200:
            match = Match.objects.get(pk=match.pk)
            if match.status != Match.Status.ACTIVE:
                match = services.match_create(creator=alice, variant="cribbage", players=2)
                services.match_join(match_id=match.pk, user=bob)
                for watcher in watchers.values():
                    watcher.close()
                watchers = {s: Watcher(second, match.pk, cookies[s]) for s in (0, 1)}
                continue
            seat = match.to_move[0]
            status = post_move(first, match.pk, match.seq, a_move(match, seat, rng), cookies[seat])
            assert status == 200, f"move {moves} was answered {status}"
            moves += 1
            for other, watcher in watchers.items():
                if not watcher.until(match.seq + 1):
                    missed.append((match.pk, match.seq + 1, other))
        assert not missed, f"pushes that never crossed to the other process: {missed[:5]}"

        time.sleep(max(0.0, 60 - (time.monotonic() - began_quiet)))
        assert quiet.closed is None, f"an idle socket was closed: {quiet.closed}"
        quiet_match = Match.objects.get(pk=quiet_match.pk)
        seat = quiet_match.to_move[0]
        move = a_move(quiet_match, seat, rng)
        assert post_move(first, quiet_match.pk, quiet_match.seq, move, cookies[seat]) == 200
        assert quiet.until(quiet_match.seq + 1), "the idle socket missed the move after its rest"
        quiet.close()
        for watcher in watchers.values():
            watcher.close()


def test_a_killed_process_loses_no_acknowledged_move_and_the_computer_resumes(alice, bob):
    """kill -9 with matches in flight: after a restart every move that was answered 200 is in
    the log, none is there twice, every log replays, and the computer seats play on."""
    matches = []
    for member in (alice, bob, alice, bob):
        match = services.match_create(
            creator=member, variant="cribbage", players=2, computer_seats=[1]
        )
        matches.append(match.pk)
    cookies = {alice.pk: cookie_for(alice), bob.pk: cookie_for(bob)}
    owners = {pk: Match.objects.get(pk=pk).seats.get(index=0).user_id for pk in matches}
    acknowledged: dict[int, list[int]] = {pk: [] for pk in matches}
    stop = threading.Event()

    def play(port: int, match_id: int) -> None:
        rng = random.Random(match_id)
        while not stop.is_set():
            match = Match.objects.get(pk=match_id)
            if match.status != Match.Status.ACTIVE:
                return
            if 0 not in match.to_move:
                time.sleep(0.02)
                continue
            try:
                status = post_move(
                    port, match_id, match.seq, a_move(match, 0, rng), cookies[owners[match_id]]
                )
            except OSError:
                return  # the server is gone
            if status == 200:
                acknowledged[match_id].append(match.seq + 1)
        connection.close()

    with daphne("ops-killed") as (port, proc):
        warm_up(port, f"/matches/{matches[0]}/", cookies[alice.pk])
        players = [threading.Thread(target=play, args=(port, pk)) for pk in matches]
        for player in players:
            player.start()
        deadline = time.monotonic() + 60
        while sum(map(len, acknowledged.values())) < 16 and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        stop.set()
        for player in players:
            player.join(timeout=30)
    assert sum(map(len, acknowledged.values())) >= 16, "play was too slow to test anything"

    for pk in matches:
        seqs = list(Move.objects.filter(match_id=pk).values_list("seq", flat=True))
        assert len(seqs) == len(set(seqs)), f"match {pk} holds a move twice"
        assert set(acknowledged[pk]) <= set(seqs), f"match {pk} lost an acknowledged move"
        from django.core.management import call_command

        call_command("verify_match", pk, stdout=open(os.devnull, "w"))  # noqa: SIM115

    waiting = {pk: Match.objects.get(pk=pk).seq for pk in matches
               if 1 in Match.objects.get(pk=pk).to_move}  # fmt: skip
    with daphne("ops-restarted") as (port, _):
        import urllib.request

        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10).read()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if all(Match.objects.get(pk=pk).seq > seq for pk, seq in waiting.items()):
                break
            time.sleep(0.2)
        stuck = [pk for pk, seq in waiting.items() if Match.objects.get(pk=pk).seq <= seq]
        assert not stuck, f"the computer did not resume in matches {stuck}"


@pytest.mark.parametrize("layer", ["in-memory", "redis"])
def test_sigterm_stops_a_busy_server_within_5_seconds_closing_sockets_with_1012(
    alice, bob, layer, request
):
    """A restart while matches play: daphne exits within 5 s of SIGTERM, every page's socket is
    closed with 1012 (service restart), the code on which pages reconnect, and nothing goes
    wrong on the way out (on Redis the sockets' clean-up used to be logged as errors)."""
    env = {}
    if layer == "redis":
        prefix = f"ops-{secrets.token_hex(4)}"
        env = {"REDIS_URL": request.getfixturevalue("redis_url"), "REDIS_PREFIX": prefix}
    cookies = {0: cookie_for(alice), 1: cookie_for(bob)}
    matches = []
    for _ in range(3):
        match = services.match_create(creator=alice, variant="cribbage", players=2)
        services.match_join(match_id=match.pk, user=bob)
        matches.append(match.pk)
    with daphne(f"ops-sigterm-{layer}", env) as (port, proc):
        warm_up(port, f"/matches/{matches[0]}/", cookies[0])
        watchers = [Watcher(port, pk, cookies[seat]) for pk in matches for seat in (0, 1)]
        rng, stop = random.Random(3), threading.Event()

        def play() -> None:  # moves keep coming while the server is told to stop
            while not stop.is_set():
                match = Match.objects.get(pk=rng.choice(matches))
                if not match.to_move:  # this one is over (a match of random moves is quick)
                    time.sleep(0.01)
                    continue
                seat = match.to_move[0]
                move = a_move(match, seat, rng)
                try:
                    post_move(port, match.pk, match.seq, move, cookies[seat])
                except OSError:
                    break
            connection.close()

        player = threading.Thread(target=play)
        player.start()
        time.sleep(1.5)
        began = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=15)
        took = time.monotonic() - began
        stop.set()
        player.join(timeout=30)
        for watcher in watchers:
            watcher.thread.join(timeout=5)
    assert took < 5, f"daphne took {took:.1f} s to stop"
    codes = [w.ws.close_code for w in watchers]
    assert codes == [1012] * len(watchers), codes
    log = log_path(f"ops-sigterm-{layer}").read_text()
    assert "Traceback" not in log and "ERROR" not in log, log[-3000:]


def test_a_process_cut_off_from_redis_hands_its_pages_the_board_once_back(alice, bob, redis_url):
    """Redis keeps nothing for a subscriber that is away: a move published while a process's
    connection is down never reaches its sockets. Here Redis drops the process's subscriber
    connection (CLIENT KILL, as it does to one that falls too far behind) while a move is made:
    redis-py subscribes again by itself, and the process then closes its sockets with 1012. The
    page reconnects, is handed the board with that move, and hears the moves after it."""
    import redis

    prefix = f"ops-{secrets.token_hex(4)}"
    env = {"REDIS_URL": redis_url, "REDIS_PREFIX": prefix}
    cookies = {0: cookie_for(alice), 1: cookie_for(bob)}
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    rng = random.Random(11)
    client = redis.Redis.from_url(redis_url)
    with daphne("ops-cut", env) as (port, _):
        warm_up(port, f"/matches/{match.pk}/", cookies[1])
        watcher = Watcher(port, match.pk, cookies[1])
        assert watcher.until(match.seq), "the socket was not handed the board"
        subscribers = [
            c["id"]
            for c in client.client_list()
            if c["name"] == f"{prefix}-channels" and int(c.get("sub", 0)) > 0
        ]
        assert len(subscribers) == 1, client.client_list()
        client.client_kill_filter(_id=subscribers[0])
        match = Match.objects.get(pk=match.pk)
        seat = match.to_move[0]
        assert post_move(port, match.pk, match.seq, a_move(match, seat, rng), cookies[seat]) == 200
        watcher.thread.join(timeout=15)
        assert watcher.ws.close_code == 1012, watcher.ws.close_code
        again = Watcher(port, match.pk, cookies[1])  # as the page does on 1012
        assert again.until(match.seq + 1), "the reconnected page was not handed the move"
        match = Match.objects.get(pk=match.pk)
        seat = match.to_move[0]
        assert post_move(port, match.pk, match.seq, a_move(match, seat, rng), cookies[seat]) == 200
        assert again.until(match.seq + 1), "a move after the cut did not reach the page"
        again.close()
    client.close()
    log = log_path("ops-cut").read_text()
    assert "Subscribed to Redis again after a cut" in log, log[-3000:]


@pytest.mark.parametrize("setting", ["1", "0"])
def test_sockets_are_compressed_when_offered_unless_ws_compression_is_off(alice, bob, setting):
    """permessage-deflate (every browser offers it) is agreed by default and the pushes arrive
    whole; WS_COMPRESSION=0 declines it."""
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    cookie = cookie_for(alice)
    with daphne(f"compression-{setting}", {"WS_COMPRESSION": setting}) as (port, _):
        warm_up(port, f"/matches/{match.pk}/", cookie)
        watcher = Watcher(port, match.pk, cookie)
        try:
            agreed = watcher.ws.response.headers.get("Sec-WebSocket-Extensions", "")
            assert ("permessage-deflate" in agreed) == (setting == "1"), agreed
            assert watcher.until(match.seq)  # the whole table, read as sent
        finally:
            watcher.close()
