"""Live matches under load: N Cribbage matches played at once over HTTP + sockets against a real
daphne on 127.0.0.1 (SQLite, in-memory channel layer), each with two seats and a spectator.

For each server tree it prints moves/s, the latency from a seat's POST to the other seat's
socket showing the new seq (median, p95, p99 and a bootstrap 95% interval of the median), the
server's CPU per move (all pushes included), the bytes of a socket message and of the mover's
POST answer, and how long daphne takes to stop on SIGTERM. With --before REF (default: main)
the same load runs first against that git revision, so before and after sit side by side.

Run from the project root: .venv/bin/python tests/bench/bench_load.py [--matches 20]
[--seconds 20] [--pace 0] [--before main|none]. Bounded: at most --seconds of play per tree.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
WORK = Path(tempfile.mkdtemp(prefix="crib-load-"))
ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "HTTPS": "0",
    "STATIC_MANIFEST": "0",
    "DATABASE_URL": f"sqlite:///{WORK / 'load.sqlite3'}",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "COMPUTER_MODE": "thread",
    "LOG_LEVEL": "WARNING",
}
os.environ.update(ENV)
os.environ.pop("REDIS_URL", None)
os.environ["DJANGO_SETTINGS_MODULE"] = "cribsite.settings"

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
CLK = os.sysconf("SC_CLK_TCK")


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    message_bytes: list[int] = field(default_factory=list)
    answer_bytes: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    moves: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    stop_seconds: float | None = None


class Watched:
    """A socket read all the time: the highest seq seen, with a wake-up for waiters."""

    def __init__(self, ws, figures: Figures) -> None:
        self.ws, self.figures, self.seq = ws, figures, -1
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for message in self.ws:
                self.figures.message_bytes.append(len(message.encode()))
                found = SEQ.search(message)
                if found:
                    self.seq = max(self.seq, int(found.group(1)))
                    self.changed.set()
        except websockets.ConnectionClosed as closed:
            if closed.rcvd is None or closed.rcvd.code not in (1000, 1012):
                self.figures.errors.append(f"socket closed: {closed}")

    async def until(self, seq: int, timeout: float = 15) -> None:
        deadline = time.monotonic() + timeout
        while self.seq < seq:
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"seq {seq} never arrived")
            await asyncio.wait_for(self.changed.wait(), left)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--pace", type=float, default=0.0, help="seconds a seat thinks (0-2x)")
    parser.add_argument("--before", default="main", help="git revision to compare, or none")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    users = [_member(name) for name in ("alice", "bob", "carol")]
    cookies = [_session(user) for user in users]
    trees = [("after (this tree)", ROOT)]
    if args.before != "none":
        trees.insert(0, (f"before ({args.before})", _export(args.before)))
    results = []
    for label, tree in trees:
        print(f"== {label}: {args.matches} matches, {args.seconds:.0f} s", flush=True)
        results.append((label, _run(tree, users, cookies, args)))
    print()
    print(
        f"{args.matches} concurrent Cribbage matches, 2 seats + 1 spectator socket each, "
        f"pace {args.pace} s; one daphne, SQLite, in-memory layer"
    )
    for label, figures in results:
        _report(label, figures)
    if any(figures.errors for _, figures in results):
        print(f"(daphne logs kept in {WORK})")
    else:
        shutil.rmtree(WORK, ignore_errors=True)


def _export(revision: str) -> Path:
    """The tree of `revision` (git archive), to serve the 'before' figures from."""
    target = WORK / "before"
    target.mkdir()
    archive = subprocess.run(
        ["git", "archive", revision], cwd=ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def _run(tree: Path, users, cookies, args) -> Figures:
    figures = Figures()
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(tree)}
    log_path = WORK / f"daphne-{port}.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "cribsite.asgi:application"],
        cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=log_path.open("wb"),
    )  # fmt: skip
    try:
        _wait_for(port)
        asyncio.run(_play(port, users, cookies, args, server.pid, figures))
    except Exception:
        print(log_path.read_text(errors="replace")[-3000:])
        raise
    finally:
        server.terminate()
        began = time.monotonic()
        try:
            server.wait(timeout=30)
            figures.stop_seconds = time.monotonic() - began
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log = log_path.read_text(errors="replace").splitlines()
        errors = [line for line in log if line and not line.startswith((" ", "Traceback"))]
        figures.errors += [line for line in errors if "Error" in line or "Exception" in line][:5]
    return figures


async def _play(port, users, cookies, args, pid, figures: Figures) -> None:
    matches = [await asyncio.to_thread(_new_match, users) for _ in range(args.matches)]
    for cookie in cookies:  # a fresh process compiles its templates on first use: not measured
        await asyncio.to_thread(_get, port, f"/matches/{matches[0].pk}/", cookie)
    tables = [await _open_table(port, match.pk, cookies, figures) for match in matches]
    await asyncio.sleep(0.5)
    cpu0, began = _cpu(pid), time.monotonic()
    stop = began + args.seconds
    players = [
        _play_match(port, match.pk, table, cookies, args, stop, figures)
        for match, table in zip(matches, tables, strict=True)
    ]
    await asyncio.gather(*players)
    figures.seconds = time.monotonic() - began
    figures.cpu_seconds = _cpu(pid) - cpu0
    for table in tables:
        for watched in table:
            await watched.ws.close()


async def _open_table(port, match_id, cookies, figures) -> list[Watched]:
    table = []
    for cookie in cookies:  # two seats, then the spectator
        for attempt in range(3):
            try:
                ws = await websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/matches/{match_id}/",
                    origin=f"http://127.0.0.1:{port}",
                    additional_headers={"Cookie": cookie},
                    max_size=None,
                    open_timeout=60,
                )
                break
            except (websockets.InvalidMessage, OSError) as failed:
                figures.errors.append(f"handshake failed ({attempt + 1}): {failed}")
        else:
            raise SystemExit("a socket could not be opened three times running")
        table.append(Watched(ws, figures))
    return table


def _get(port: int, path: str, cookie: str) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.request("GET", path, headers={"Cookie": cookie, "Host": "127.0.0.1"})
    conn.getresponse().read()
    conn.close()


async def _play_match(port, match_id, table, cookies, args, stop, figures: Figures) -> None:
    engine = get_variant("cribbage")
    conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in range(2)]
    rng = random.Random(match_id)
    try:
        while time.monotonic() < stop:
            match = await asyncio.to_thread(Match.objects.get, pk=match_id)
            if match.status != Match.Status.ACTIVE:
                return
            if args.pace:
                await asyncio.sleep(rng.uniform(0, 2 * args.pace))
            seat = match.to_move[0]
            move = computer_move(engine, engine.load(match.snapshot), seat, "random", rng=rng)
            body = urlencode({"seq": match.seq, "move": json.dumps(move)})
            start = time.perf_counter()
            status, size = await asyncio.to_thread(
                _post, conns[seat], match_id, body, cookies[seat]
            )
            if status != 200:
                figures.errors.append(f"a move was answered with {status}")
                return
            figures.answer_bytes.append(size)
            try:
                await table[1 - seat].until(match.seq + 1)
            except TimeoutError as lost:
                figures.errors.append(f"match {match_id}: {lost}")
                return
            figures.latencies.append((time.perf_counter() - start) * 1000)
            figures.moves += 1
    finally:
        for conn in conns:
            conn.close()


def _new_match(users) -> Match:
    match = services.match_create(creator=users[0], variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=users[1])
    return match


def _post(conn, match_id, body, cookie) -> tuple[int, int]:
    token = re.search(r"csrftoken=([^;]+)", cookie).group(1)
    conn.request(
        "POST",
        f"/matches/{match_id}/move/",
        body=body,
        headers={
            "Cookie": cookie,
            "X-CSRFToken": token,
            "HX-Request": "true",
            "X-Match-Socket": "open",
            "Content-Type": "application/x-www-form-urlencoded",
            "Host": "127.0.0.1",
        },
    )
    response = conn.getresponse()
    return response.status, len(response.read())


def _cpu(pid: int) -> float:
    """User + system CPU seconds of the process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def _report(label: str, f: Figures) -> None:
    print(f"-- {label}")
    if not f.latencies:
        print("   no moves measured", f.errors[:3])
        return
    times = sorted(f.latencies)
    low, high = _median_interval(times)
    print(
        f"   {f.moves} moves in {f.seconds:.1f} s = {f.moves / f.seconds:.1f} moves/s; "
        f"server CPU {1000 * f.cpu_seconds / f.moves:.1f} ms a move (all pushes)"
    )
    print(
        f"   POST -> other seat's socket: median {statistics.median(times):.1f} ms "
        f"(95% CI {low:.1f}-{high:.1f}), p95 {_pct(times, 95):.1f}, p99 {_pct(times, 99):.1f}, "
        f"max {times[-1]:.1f} ms"
    )
    sizes = sorted(f.message_bytes)
    print(
        f"   socket message: median {statistics.median(sizes) / 1024:.1f} KB, "
        f"p95 {_pct(sizes, 95) / 1024:.1f} KB; mover's POST answer: median "
        f"{statistics.median(f.answer_bytes) / 1024:.1f} KB"
    )
    stop = "did not stop in 30 s" if f.stop_seconds is None else f"{f.stop_seconds:.1f} s"
    print(f"   SIGTERM to exit: {stop}; errors: {len(f.errors)} {f.errors[:3]}")


def _pct(values, p: int):
    return values[min(len(values) - 1, max(0, round(len(values) * p / 100) - 1))]


def _median_interval(values: list[float], rounds: int = 500) -> tuple[float, float]:
    rng = random.Random(7)
    medians = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(rounds))
    return medians[int(rounds * 0.025)], medians[int(rounds * 0.975) - 1]


def _member(username: str):
    user, _ = get_user_model().objects.get_or_create(username=username)
    return user


def _session(user) -> str:
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}; csrftoken={'b' * 32}"


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
