"""Move round trip: from one player's HTTP POST to the other player's socket receiving the new
board, on one daphne process with SQLite, beside a bare WebSocket echo in the same run.

Run from the project root: .venv/bin/python tests/bench/bench_realtime.py [--moves 200]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
WORK = Path(tempfile.mkdtemp(prefix="crib-bench-"))
ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "HTTPS": "0",
    "STATIC_MANIFEST": "0",
    "DATABASE_URL": f"sqlite:///{WORK / 'bench.sqlite3'}",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "COMPUTER_MODE": "thread",
    "LOG_LEVEL": "WARNING",
}
os.environ.update(ENV)
os.environ.pop("REDIS_URL", None)
os.environ["DJANGO_SETTINGS_MODULE"] = "cribsite.settings"
SERVER_ENV = dict(os.environ)

import django  # noqa: E402

django.setup()

import websockets  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.core.management import call_command  # noqa: E402

from games import services  # noqa: E402
from games.engine import computer_move, get_variant  # noqa: E402
from games.models import Match  # noqa: E402

SEQ = re.compile(r'id="match-seq" data-seq="(\d+)"')


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    users = [_member(name) for name in ("alice", "bob")]
    cookies = [_session(user) for user in users]
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "cribsite.asgi:application"],
        cwd=ROOT, env=SERVER_ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        _wait_for(port)
        echo = asyncio.run(_echo_round_trips(port, args.moves))
        cpu_before = _cpu_seconds(server.pid)
        moves = asyncio.run(_move_round_trips(port, users, cookies, args.moves))
        cpu_per_move = 1000 * (_cpu_seconds(server.pid) - cpu_before) / max(1, len(moves))
    finally:
        server.terminate()
        began = time.monotonic()
        try:
            server.wait(timeout=30)
            print(f"(daphne stopped {time.monotonic() - began:.1f} s after SIGTERM)")
        except subprocess.TimeoutExpired:
            server.kill()
            print("(daphne did not stop within 30 s of SIGTERM)")
    print(f"move round trip, POST -> other player's socket, {len(moves)} moves")
    print("(one daphne process, SQLite, in-memory channel layer)")
    _report("  move", moves, target=50)
    _report("  bare WebSocket echo", echo, target=None)
    print(f"  server CPU per move     {cpu_per_move:6.1f} ms (2 seat sockets, all pushes; goal 5)")


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds the process has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _echo_round_trips(port: int, count: int) -> list[float]:
    times = []
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/ping/", origin=_origin(port)) as ws:
        for i in range(count):
            start = time.perf_counter()
            await ws.send(f"ping {i}")
            await ws.recv()
            times.append((time.perf_counter() - start) * 1000)
    return times


async def _move_round_trips(port, users, cookies, count) -> list[float]:
    engine = get_variant("cribbage")
    times: list[float] = []
    while len(times) < count:
        match = await asyncio.to_thread(_new_match, users)
        sockets = [
            await websockets.connect(
                f"ws://127.0.0.1:{port}/ws/matches/{match.pk}/",
                origin=_origin(port),
                additional_headers={"Cookie": cookie},
            )
            for cookie in cookies
        ]
        for ws in sockets:
            await _drain(ws)
        conns = [http.client.HTTPConnection("127.0.0.1", port) for _ in users]
        while len(times) < count:
            match = await asyncio.to_thread(Match.objects.get, pk=match.pk)
            if match.status != Match.Status.ACTIVE:
                break
            seat = match.to_move[0]
            other = 1 - seat
            move = computer_move(engine, engine.load(match.snapshot), seat, "easy")
            body = urlencode({"seq": match.seq, "move": __import__("json").dumps(move)})
            start = time.perf_counter()
            status = await asyncio.to_thread(_post, conns[seat], match.pk, body, cookies[seat])
            if status != 200:
                raise SystemExit(f"a move was refused with {status}")
            await _until_seq(sockets[other], match.seq + 1)
            times.append((time.perf_counter() - start) * 1000)
            await _drain(sockets[seat])
        for ws in sockets:
            await ws.close()
        for conn in conns:
            conn.close()
    return times


def _new_match(users) -> Match:
    match = services.match_create(creator=users[0], variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=users[1])
    return match


def _post(conn, match_id, body, cookie) -> int:
    token = re.search(r"csrftoken=([^;]+)", cookie).group(1)
    conn.request(
        "POST",
        f"/matches/{match_id}/move/",
        body=body,
        headers={
            "Cookie": cookie,
            "X-CSRFToken": token,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
            "Host": "127.0.0.1",
        },
    )
    response = conn.getresponse()
    response.read()
    return response.status


async def _until_seq(ws, seq: int) -> None:
    while True:
        message = await asyncio.wait_for(ws.recv(), timeout=10)
        found = SEQ.search(message)
        if found and int(found.group(1)) >= seq:
            return


async def _drain(ws) -> None:
    while True:
        try:
            await asyncio.wait_for(ws.recv(), timeout=0.05)
        except TimeoutError:
            return


def _member(username: str):
    user, _ = get_user_model().objects.get_or_create(username=username)
    return user


def _session(user) -> str:
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "accounts.backends.MemberBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    token = "b" * 32
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}; csrftoken={token}"


def _report(label: str, times: list[float], target: float | None) -> None:
    times = sorted(times)
    p50 = statistics.median(times)
    p95 = times[int(len(times) * 0.95) - 1]
    goal = f"   (target p95 < {target} ms)" if target else ""
    print(f"{label:24} median {p50:6.1f} ms   p95 {p95:6.1f} ms{goal}")


def _origin(port: int) -> str:
    return f"http://127.0.0.1:{port}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("daphne did not start")


if __name__ == "__main__":
    main()
