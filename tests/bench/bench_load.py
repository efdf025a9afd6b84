"""Live play under load, through real daphne processes: the figures of issue 13.

Four parts, each printed with its spread:

- move: Cribbage matches with two seats and a spectator socket each, seats thinking 0.3-0.6 s
  (`--game` plays other games of the site, or other numbers of seats, in every part; `all`
  every game at each number of seats it is played with).
  Server CPU per move (every push included; the median over 2-second windows, with the
  quartiles), bytes per socket message (median, p95, max; the first message of a socket, the
  whole table, is counted apart), the mover's POST answer, and whether that answer carries any
  region the socket also sends.
- scale: a ramp of matches at a human pace. Each seat to move thinks 2-4 s, posts its move over
  HTTP as the page does (keep-alive, htmx headers, X-Match-Socket: open), and holds its socket
  open. For each step: the latency from the POST to the other seat's socket showing the new seq
  (median with a bootstrap 95% interval, p95, p99, max; and of it the POST's own answer, median
  and p95, so that a bend shows on which side of the move it is), moves/s, the servers' CPU per
  move and in all, this load generator's own CPU, the machine's (and on PostgreSQL, what the
  database and Redis processes on this machine spent a move), and every failed handshake, lost
  push (the other seat's socket not told within 10 s, or a socket short of the last seq at the
  end) and error. SQLite + the in-memory layer on one daphne; with --database-url/--redis-url
  (PostgreSQL + Redis) also two daphne processes, seat 0 on one and seat 1 on the other, so that
  every move crosses processes. The ramp stops once a step's p95 passes 4x its target, and prints
  where it bent.
- pages: the match page, the lobby and a trivial view (/healthz) fetched in turns over the same
  server, requests/s and server CPU per request for each, side by side.
- restart: with the last step still playing, SIGTERM to a daphne: seconds to exit, and how its
  sockets were closed (1012 asked for); with two processes the pages that lost theirs reconnect
  to the other process and must be handed the current board.

Profiles: quick (about 2 minutes, small numbers: checks that it all works) and scale (the
issue's 200 and 500 matches, about 10 minutes). With --before REV the parts asked for run
against that git revision first (git archive), so before and after sit side by side (a ramp
then takes twice as long: ask for --parts scale alone, or move,pages). --rounds N runs each
part N times, the trees taking turns in alternating order (before, this, this, before, ...),
and ends with each tree's figures from every round together (for the ramps, every step's p95
and CPU a move): the machines drift from minute to minute, and one pair of runs says little.

One asyncio process plays every seat (matches are made beforehand, and each seat keeps its own
copy of the engine state, so no database is touched while playing); each setup runs in a child
process of its own. Run from the project root:

    .venv/bin/python tests/bench/bench_load.py --profile quick
    .venv/bin/python tests/bench/bench_load.py --profile scale \\
        --database-url postgres://postgres@127.0.0.1:5432/NAME --redis-url redis://127.0.0.1:6379/K
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import secrets
import shutil
import signal
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
SEQ = re.compile(rb'id="match-seq" data-seq="(\d+)"')
OOB_ID = re.compile(rb'<[a-z]+ id="([^"]+)"[^>]*hx-swap-oob')
CLK = os.sysconf("SC_CLK_TCK")
SERVICE_RESTART = 1012
LOST_AFTER = 10.0  # seconds: a push not seen by then is lost

PROFILES = {
    "quick": {
        "move_matches": 8, "move_seconds": 20, "yardstick_seconds": 8,
        "sqlite_steps": [20, 50], "pg_steps": [40, 100], "step_seconds": 20,
        "page_rounds": 3, "page_requests": 400,  # about 1.5 s a figure: 40 gave 0.15 s, too noisy
    },
    "scale": {
        "move_matches": 20, "move_seconds": 40, "yardstick_seconds": 10,
        "sqlite_steps": [50, 100, 200, 300], "pg_steps": [100, 250, 500, 700], "step_seconds": 40,
        "page_rounds": 5, "page_requests": 800,
    },
}  # fmt: skip
TARGETS = {"sqlite": 150.0, "postgres": 250.0}  # p95 in ms, POST -> other seat's socket
SCALE_AT = {"sqlite": 200, "postgres": 500}  # matches at which the target applies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", choices=sorted(PROFILES), default="quick")
    parser.add_argument("--parts", default="move,scale,pages,restart")
    parser.add_argument("--before", default="none", help="git revision to compare, or none")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", ""))
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", ""))
    parser.add_argument("--steps", default="", help="matches per step, e.g. 50,100,200")
    parser.add_argument("--setups", default="sqlite,postgres", help="the ramps to run")
    parser.add_argument("--step-seconds", type=float, default=0)
    parser.add_argument("--rounds", type=int, default=1, help="each part N times, trees in turns")
    parser.add_argument(
        "--game",
        default="cribbage:2",
        help="the games played and their seats, e.g. kings:3 or cribist:4,tabletop:2, or all",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child = Child(json.loads(args.child))
        child.prepare()
        asyncio.run(child.run())
        return
    _raise_file_limit()
    profile = PROFILES[args.profile]
    parts = set(args.parts.split(","))
    work = Path(tempfile.mkdtemp(prefix="crib-load-"))
    print(f"bench_load --profile {args.profile}: {time.strftime('%Y-%m-%d %H:%M')}, "
          f"{os.cpu_count()} cores, load average {_loadavg()}", flush=True)  # fmt: skip
    trees = [("this tree", ROOT)]
    if args.before != "none":
        trees.insert(0, (f"before ({args.before})", _export(args.before, work)))
    games = _games(args.game)
    # Every tree plays every game; with several games, each label names its game too.
    runs = [
        (f"{label} {game['variant']}:{game['players']}" if len(games) > 1 else label, tree, game)
        for game in games
        for label, tree in trees
    ]
    labels = [label for label, _, _ in runs]
    failed = False
    results = work / "results.jsonl"  # each child's move and pages figures, for the summary
    rounds = max(1, args.rounds)
    for turn in range(rounds if parts & {"move", "pages"} else 0):
        for label, tree, game in runs if turn % 2 == 0 else runs[::-1]:
            if rounds > 1:
                print(f"\n## round {turn + 1} of {rounds}: {label}", flush=True)
            failed |= _child(label, tree, work, "sqlite", args, profile, {
                "parts": sorted(parts & {"move", "pages"}), "steps": [],
                "results": str(results), **game})  # fmt: skip
    if rounds > 1 or len(runs) > 1:
        _summary(results, labels)
    setups = set(args.setups.split(","))
    have_services = args.database_url and args.redis_url
    ramps = results.with_name("ramps.jsonl")  # each step of each ramp, for the ramps' summary
    for turn in range(rounds if parts & {"scale", "restart"} else 0):
        for label, tree, game in runs if turn % 2 == 0 else runs[::-1]:
            if rounds > 1:
                print(f"\n## ramps, round {turn + 1} of {rounds}: {label}", flush=True)
            if "sqlite" in setups:
                steps = _steps(args.steps, profile["sqlite_steps"])
                failed |= _child(label, tree, work, "sqlite", args, profile, {
                    "parts": sorted(parts & {"scale", "restart"}), "steps": steps,
                    "results": str(ramps), **game})  # fmt: skip
            if "postgres" in setups and have_services:
                steps = _steps(args.steps, profile["pg_steps"])
                failed |= _child(label, tree, work, "postgres", args, profile, {
                    "parts": sorted(parts & {"scale", "restart"}), "steps": steps,
                    "results": str(ramps), **game})  # fmt: skip
    if parts & {"scale", "restart"} and "postgres" in setups and not have_services:
        print("\n(two daphne processes on PostgreSQL + Redis: skipped, give "
              "--database-url and --redis-url)")  # fmt: skip
    if rounds > 1 or len(runs) > 1:
        _ramps_summary(ramps, labels)
    print(f"\nload average at the end: {_loadavg()}")
    if failed:
        print(f"daphne logs kept in {work}")
        sys.exit(1)
    shutil.rmtree(work, ignore_errors=True)


def _summary(results: Path, labels: list[str]) -> None:
    """Each tree's move and pages figures from every round, side by side."""
    if not results.exists():
        return
    rows = [json.loads(line) for line in results.read_text().splitlines() if line]
    print("\n== every round together (each figure: one round's median)")
    for label in labels:
        mine = [row for row in rows if row["label"] == label]
        moves = sorted(row["move_ms"] for row in mine if row.get("move_ms") is not None)
        if moves:
            shown = " ".join(f"{ms:.1f}" for ms in moves)
            print(f"   {label:<24} server CPU per move, ms: {shown} (median "
                  f"{statistics.median(moves):.1f})")  # fmt: skip
        yard = sorted(row["move_in_trivial"] for row in mine if row.get("move_in_trivial"))
        if yard:
            shown = " ".join(f"{n:.1f}" for n in yard)
            print(f"   {label:<24} a move in paced /healthz requests: {shown} (median "
                  f"{statistics.median(yard):.1f})")  # fmt: skip
        wire = sorted(row["wire_max_kb"] for row in mine if row.get("wire_max_kb"))
        if wire:
            shown = " ".join(f"{kb:.2f}" for kb in wire)
            print(f"   {label:<24} largest socket message on the wire, KB: {shown}")
        for page in ("match page", "lobby"):
            ratios = sorted(row["pages"][page] for row in mine if page in row.get("pages", {}))
            if ratios:
                shown = " ".join(f"{r:.2f}x" for r in ratios)
                print(f"   {label:<24} {page} against /healthz: {shown} (median "
                      f"{statistics.median(ratios):.2f}x)")  # fmt: skip


def _ramps_summary(ramps: Path, labels: list[str]) -> None:
    """Each tree's p95 (and CPU a move) at every step, from every round, side by side: at the
    tail a single ramp says little, the machines drifting from minute to minute."""
    if not ramps.exists():
        return
    rows = [json.loads(line) for line in ramps.read_text().splitlines() if line]
    print("\n== every ramp together (each figure: one round's)")
    for setup in ("sqlite", "postgres"):
        counts = sorted({row["matches"] for row in rows if row["setup"] == setup})
        for count, label in [(count, label) for count in counts for label in labels]:
            key = (setup, count, label)
            mine = [row for row in rows if (row["setup"], row["matches"], row["label"]) == key]
            if not mine:
                continue
            p95 = sorted(row["p95"] for row in mine)
            cpu = sorted(row["cpu_ms"] for row in mine)
            target = TARGETS[setup]
            print(f"   {setup:<8} {count:4d} matches  {label:<24} p95 ms: "
                  f"{' '.join(f'{v:.0f}' for v in p95)} (median {statistics.median(p95):.0f}; "
                  f"{sum(v < target for v in p95)} of {len(p95)} under {target:.0f}); CPU a "
                  f"move {cpu[0]:.1f}-{cpu[-1]:.1f} ms")  # fmt: skip


def _steps(given: str, default: list[int]) -> list[int]:
    return [int(n) for n in given.split(",")] if given else default


def _child(label, tree, work, setup, args, profile, extra) -> bool:
    """Run one setup in a child process (its own Django, its own database); True if it failed."""
    config = {
        "label": label, "tree": str(tree), "work": str(work), "setup": setup,
        "database_url": args.database_url if setup == "postgres" else
        f"sqlite:///{work / (secrets.token_hex(4) + '.sqlite3')}",
        "redis_url": args.redis_url if setup == "postgres" else "",
        "redis_prefix": f"bench-{secrets.token_hex(4)}",  # its own channel names on the server
        **profile, "step_seconds": args.step_seconds or profile["step_seconds"], **extra,
    }  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONUNBUFFERED": "1"}
    code = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(config)],
        cwd=tree,
        env=env,
        check=False,
    ).returncode
    return code != 0


def _games(given: str) -> list[dict]:
    """--game's value as the children's configs: each game's key and how many seats ("all":
    every game of the engine, at each number of seats it is played with)."""
    sys.path.insert(0, str(ROOT))
    from games.engine import GAMES, get_variant

    if given == "all":
        return [
            {"variant": key, "players": count}
            for key in GAMES
            for count in get_variant(key).player_counts
        ]
    games = []
    for spec in given.split(","):
        key, _, seats = spec.partition(":")
        if key not in GAMES or not (seats or "2").isdigit():
            raise SystemExit(f"--game takes games and their seats, such as kings:3: {spec!r}")
        players = int(seats or 2)
        if players not in get_variant(key).player_counts:
            raise SystemExit(f"--game: {key} is not played by {players}")
        games.append({"variant": key, "players": players})
    return games


def _export(revision: str, work: Path) -> Path:
    target = work / "before"
    target.mkdir()
    archive = subprocess.run(
        ["git", "archive", revision], cwd=ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


# -- the load generator (a child process) --------------------------------------------------------


@dataclass
class Step:
    matches: int
    latencies: list[float] = field(default_factory=list)
    answers: list[float] = field(default_factory=list)  # ms from the POST to its answer
    moves: int = 0
    lost: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    server_cpu: float = 0.0
    own_cpu: float = 0.0
    machine_busy: float = 0.0
    services_cpu: float | None = None  # PostgreSQL's and Redis' processes on this machine


class Child:
    def __init__(self, config: dict) -> None:
        self.config = config
        self.setup = config["setup"]
        self.servers: list[Server] = []
        self.step: Step | None = None
        self.handshake_failures: list[str] = []
        self.closes: list[tuple[int, int | None]] = []  # (server index, close code)
        self.message_bytes: list[int] = []  # as the page reads them (uncompressed)
        self.wire_bytes: list[int] = []  # as they crossed the network (compressed if offered)
        self.compressed: list[bool] = []  # each socket: permessage-deflate agreed
        self.first_bytes: list[int] = []
        self.answer_bytes: list[int] = []
        self.socket_ids: set[bytes] = set()
        self.answer_ids: set[bytes] = set()
        self.watch_ids = False
        self.stopping = False

    def prepare(self) -> None:
        """Migrate the database and make the matches, before any server runs."""
        c = self.config
        os.environ.update(_server_env(c))
        sys.path.insert(0, c["tree"])
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        call_command("migrate", verbosity=0)
        count = max([c["move_matches"], *c["steps"], 1])
        self.tables = _make_tables(count, c["variant"], c["players"])
        if connection.vendor == "postgresql":
            # A club's database has statistics (autovacuum keeps them); rows made a moment ago
            # have none, and PostgreSQL then guessed a hash join over every member for the
            # match's read (1 ms where 0.05 ms does).
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        connection.close()

    async def run(self) -> None:
        c = self.config
        processes = 2 if self.setup == "postgres" else 1
        title = {
            "sqlite": "one daphne, SQLite, in-memory channel layer",
            "postgres": "two daphne processes, PostgreSQL + Redis",
        }[self.setup]
        print(f"\n== {c['label']}: {title}", flush=True)
        for i in range(processes):
            self.servers.append(Server(c, f"{self.setup}-{i}"))
        try:
            for server in self.servers:
                await asyncio.to_thread(server.start)
            for server in self.servers:  # a fresh process compiles its templates on first use
                await _warm(server.port, self.tables[0])
            if "move" in c["parts"]:
                await self.part_move()
            if "pages" in c["parts"]:
                await self.part_pages()
            if "scale" in c["parts"] or "restart" in c["parts"]:
                await self.part_scale()
        finally:
            self.stopping = True
            for server in self.servers:
                server.stop()
        errors = [line for server in self.servers for line in server.log_errors()]
        if errors:
            print(f"   server log errors ({len(errors)}): {errors[:5]}")
        if errors or self.failed:
            sys.exit(1)

    failed = False

    def record(self, **figures) -> None:
        """Append a line of figures, labelled with this tree, to the parent's results file (its
        summary gathers each tree's lines from every round)."""
        path = self.config.get("results")
        if path:
            with open(path, "a") as out:
                out.write(json.dumps({"label": self.config["label"], **figures}) + "\n")

    # -- move: CPU and bytes per move -------------------------------------------------------

    async def part_move(self) -> None:
        c = self.config
        server = self.servers[0]
        tables = self.tables[: c["move_matches"]]
        self.watch_ids = True
        for table in tables:
            await table.open(self, [server], spectator=server)
        await asyncio.sleep(1)
        self.message_bytes.clear()
        self.wire_bytes.clear()
        step = self.step = Step(len(tables))
        windows: list[float] = []
        stop = time.monotonic() + c["move_seconds"]
        players = [asyncio.create_task(t.play(self, (0.3, 0.6), stop)) for t in tables]
        cpu0, moves0 = server.cpu(), 0
        all0, system0 = cpu0, server.cpu(system_only=True)
        while time.monotonic() < stop:
            await asyncio.sleep(2)
            cpu, moves = server.cpu(), step.moves
            if moves > moves0:
                windows.append(1000 * (cpu - cpu0) / (moves - moves0))
            cpu0, moves0 = cpu, moves
        await asyncio.gather(*players)
        in_kernel = (server.cpu(system_only=True) - system0) / max(server.cpu() - all0, 1e-9)
        # The yardstick: a trivial request at the moves' pace through the same server, its sockets
        # still open, so that figures from different machines (and hours) can be compared.
        pace = step.moves / c["move_seconds"]
        trivial = await _paced_trivial(server, tables[0].cookies[0], pace, c["yardstick_seconds"])
        await self.close_all(tables)
        self.watch_ids = False
        shared = sorted(i.decode() for i in self.answer_ids & self.socket_ids)
        print(
            f"-- per move ({len(tables)} {c['variant']} matches, {c['players']} seats + 1 "
            "spectator socket each, seats think "
            f"0.3-0.6 s): {step.moves} moves"
        )
        move_ms = statistics.median(windows) if windows else None
        trivial_ms = statistics.median(trivial) if trivial else None
        in_trivial = move_ms / trivial_ms if move_ms and trivial_ms else None
        wire = sorted(self.wire_bytes)
        self.record(
            move_ms=move_ms,
            trivial_ms=trivial_ms,
            move_in_trivial=in_trivial,
            wire_max_kb=wire[-1] / 1024 if wire else None,
        )
        if windows:
            q = statistics.quantiles(windows, n=4) if len(windows) > 1 else windows * 3
            print(
                f"   server CPU per move: median {move_ms:.1f} ms "
                f"(quartiles {q[0]:.1f}-{q[2]:.1f}, {len(windows)} windows of 2 s; target <= 5), "
                f"{100 * in_kernel:.0f}% of it in the kernel"
            )
        if in_trivial:
            t = statistics.quantiles(trivial, n=4) if len(trivial) > 1 else trivial * 3
            print(
                f"   yardstick: /healthz at the same pace, median {trivial_ms:.2f} ms of server "
                f"CPU (quartiles {t[0]:.2f}-{t[2]:.2f}); a move costs {in_trivial:.1f} of them"
            )
        deflate = f"{sum(self.compressed)} of {len(self.compressed)} sockets compressed"
        print(f"   {_sizes('socket message on the wire', self.wire_bytes)} (target <= 4 KB; "
              f"{deflate})")  # fmt: skip
        print(f"   {_sizes('socket message as read', self.message_bytes)}")
        print(f"   {_sizes('first message (whole table)', self.first_bytes)}")
        print(f"   {_sizes('mover POST answer', self.answer_bytes)}")
        print(
            f"   regions in both the POST answer and a socket push: {shared or 'none'}; "
            f"errors: {len(step.errors) + len(step.lost)} {(step.errors + step.lost)[:3]}",
            flush=True,
        )
        self.failed |= bool(step.errors or step.lost or shared)

    # -- pages ------------------------------------------------------------------------------

    async def part_pages(self) -> None:
        c = self.config
        server = self.servers[0]
        table = self.tables[0]
        paths = {
            "trivial view (/healthz)": "/healthz",
            "match page": f"/matches/{table.match_id}/",
            "lobby": "/play/",
        }
        clients = [Http(server.port) for _ in range(4)]
        figures: dict[str, list[tuple[float, float, int]]] = {name: [] for name in paths}
        for _ in range(c["page_rounds"]):
            for name, path in paths.items():  # in turns, so that noise falls on all alike
                per_client = c["page_requests"] // len(clients)
                cpu0, began = server.cpu(), time.perf_counter()
                sizes = await asyncio.gather(
                    *(_get_many(client, path, table.cookies[0], per_client) for client in clients)
                )
                wall = time.perf_counter() - began
                count = per_client * len(clients)
                figures[name].append((count / wall, 1000 * (server.cpu() - cpu0) / count,
                                      sizes[0]))  # fmt: skip
        for client in clients:
            await client.close()
        print(f"-- pages (4 keep-alive clients, {c['page_rounds']} rounds in turns, gzip asked)")
        base = statistics.median(rate for rate, _, _ in figures["trivial view (/healthz)"])
        self.record(pages={name.split(" (")[0]: statistics.median(rate for rate, _, _ in rows)
                           / base for name, rows in figures.items()})  # fmt: skip
        for name, rows in figures.items():
            rates = sorted(rate for rate, _, _ in rows)
            cpu = statistics.median(ms for _, ms, _ in rows)
            print(
                f"   {name:<24} {statistics.median(rates):7.0f} req/s (range {rates[0]:.0f}-"
                f"{rates[-1]:.0f}), server CPU {cpu:5.2f} ms a request, {rows[0][2] / 1024:5.1f}"
                f" KB on the wire; {statistics.median(rates) / base:4.2f}x the trivial view"
            )
        print(flush=True)

    # -- scale and restart ------------------------------------------------------------------

    async def part_scale(self) -> None:
        c = self.config
        target = TARGETS[self.setup]
        print(
            f"-- scale: seats think 2-4 s, a socket per seat"
            f"{', seat 0 on one process and seat 1 on the other' if len(self.servers) > 1 else ''}"
            f"; {c['step_seconds']:.0f} s a step; target p95 < {target:.0f} ms at "
            f"{SCALE_AT[self.setup]} matches",
            flush=True,
        )
        print(
            "   matches  moves/s  median (95% CI)       p95     p99     max  server CPU "
            "(ms/move, % of a core)  loadgen  machine  lost  errors"
        )
        playing: list[Table] = []
        players: list[asyncio.Task] = []
        stop_all = time.monotonic() + 10**6
        seat_servers = [self.servers[0], self.servers[-1]]
        bent = None
        for count in c["steps"]:
            fresh = self.tables[len(playing) : count]
            for table in fresh:
                await table.open(self, seat_servers, spectator=None)
            playing += fresh
            self.step = Step(0)  # settling in: not counted
            for table in fresh:
                players.append(asyncio.create_task(table.play(self, (2.0, 4.0), stop_all)))
            await asyncio.sleep(4)  # let the new matches settle into their pace
            step = self.step = Step(len(playing))
            cpu0 = sum(server.cpu() for server in self.servers)
            own0, busy0, began = time.process_time(), _machine_cpu(), time.monotonic()
            services0 = _services_cpu() if self.setup == "postgres" else None
            await asyncio.sleep(c["step_seconds"])
            step.seconds = time.monotonic() - began
            step.server_cpu = sum(server.cpu() for server in self.servers) - cpu0
            if services0 is not None:
                step.services_cpu = _services_cpu() - services0
            step.own_cpu = time.process_time() - own0
            busy = _machine_cpu()
            step.machine_busy = (busy[0] - busy0[0]) / max(1e-9, busy[1] - busy0[1])
            step.errors += self.handshake_failures
            self.handshake_failures = []
            print("   " + _step_line(step), flush=True)
            self.failed |= bool(step.errors or step.lost)
            p95 = _pct(sorted(step.latencies), 95) if step.latencies else float("inf")
            if step.latencies:
                self.record(setup=self.setup, matches=count, moves=step.moves, p95=p95,
                            cpu_ms=1000 * step.server_cpu / max(1, step.moves))  # fmt: skip
            if bent is None and p95 > target:
                bent = count
            if p95 > 4 * target or step.errors or step.lost:
                break
        if "restart" in c["parts"]:
            await self.restart(playing)
        self.stopping = True
        for task in players:
            task.cancel()
        for outcome in await asyncio.gather(*players, return_exceptions=True):
            if isinstance(outcome, Exception):
                print(f"   a player failed: {outcome!r}")
                self.failed = True
        if "restart" not in c["parts"]:
            await self.check_last_seq(playing)
            await self.close_all(playing)
        print(
            f"   p95 passed {target:.0f} ms first at {bent} matches"
            if bent
            else f"   p95 stayed under {target:.0f} ms up to {playing and len(playing)} matches"
        )

    async def restart(self, playing: list[Table]) -> None:
        """SIGTERM the last server while its matches play: time to exit, and close codes."""
        server = self.servers[-1]
        mine = [ws for table in playing for ws in table.sockets if ws.server is server]
        self.stopping = True  # no new moves; those in flight go on
        began = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        exited = await asyncio.to_thread(server.wait, 30)
        took = time.monotonic() - began
        await asyncio.sleep(0.5)
        codes: dict[str, int] = {}
        for ws in mine:
            code = ws.close_code if ws.closed else "still open"
            codes[str(code)] = codes.get(str(code), 0) + 1
        verdict = f"{took:.1f} s" if exited else "did not exit in 30 s (SIGKILL)"
        print(
            f"-- restart: SIGTERM with {len(playing)} matches playing: exit in {verdict} "
            f"(target <= 5 s); its {len(mine)} sockets closed with {codes} (1012 asked for)"
        )
        self.failed |= not exited or took > 5 or set(codes) != {str(SERVICE_RESTART)}
        if len(self.servers) > 1:
            failures_before = len(self.handshake_failures)
            healed = await asyncio.gather(
                *(ws.reconnect(self.servers[0]) for ws in mine), return_exceptions=True
            )
            good = sum(1 for h in healed if h is True)
            retried = len(self.handshake_failures) - failures_before
            print(f"   pages reconnected to the other process and given the current board: "
                  f"{good} of {len(mine)} ({retried} tries refused on the way, each tried "
                  f"again after a random wait, as the page does)")  # fmt: skip
            self.failed |= good != len(mine)
        print(flush=True)

    async def check_last_seq(self, tables: list[Table]) -> None:
        """Every socket must end on its match's last seq (a push lost for good shows here)."""
        await asyncio.sleep(2)
        short = [
            f"match {t.match_id} {ws.who}: {ws.seq} < {t.seq}"
            for t in tables
            for ws in t.sockets
            if ws.seq < t.seq
        ]
        if short:
            print(f"   sockets short of their match's last seq: {len(short)} {short[:3]}")
            self.failed = True

    async def close_all(self, tables: list[Table]) -> None:
        await asyncio.gather(*(ws.close() for t in tables for ws in t.sockets))
        await asyncio.gather(*(http.close() for t in tables for http in t.http))
        for t in tables:
            t.sockets, t.http = [], []


class Table:
    """A match as its players and spectator hold it: cookies, sockets, and the engine's state."""

    def __init__(
        self, match_id: int, cookies: list[str], snapshot: dict, seq: int, variant: str
    ) -> None:
        from games.engine import get_variant

        self.match_id, self.cookies, self.seq = match_id, cookies, seq
        self.players = len(cookies) - 1  # the last is the spectator's
        self.engine = get_variant(variant)
        self.state = self.engine.load(snapshot)
        self.sockets: list[Watched] = []
        self.http: list[Http] = []
        self.rng = random.Random(match_id)

    async def open(self, child: Child, seat_servers, spectator) -> None:
        """A socket for every seat and, if given, the spectator; seat i's socket and its moves
        go to seat_servers[i % len(seat_servers)] (with two, every move crosses processes)."""
        served = [seat_servers[seat % len(seat_servers)] for seat in range(self.players)]
        places = [(server, seat, f"seat {seat}") for seat, server in enumerate(served)]
        if spectator is not None:
            places.append((spectator, self.players, "spectator"))
        self.sockets = [
            await Watched.open(child, server, self, cookie=self.cookies[who], who=name)
            for server, who, name in places
        ]
        self.http = [Http(server.port) for server in served]

    async def play(self, child: Child, think: tuple[float, float], stop: float) -> None:
        from games.engine import computer_move

        while time.monotonic() < stop and not child.stopping:
            if self.engine.outcome(self.state) is not None:
                return
            seat = min(self.engine.to_move(self.state))
            await asyncio.sleep(self.rng.uniform(*think))
            if child.stopping or time.monotonic() >= stop:
                return
            move = computer_move(self.engine, self.state, seat, "random", rng=self.rng)
            step = child.step
            began = time.perf_counter()
            try:
                status, headers, body = await self.http[seat].post(
                    f"/matches/{self.match_id}/move/",
                    urlencode({"seq": self.seq, "move": json.dumps(move)}),
                    self.cookies[seat],
                )
            except (OSError, asyncio.IncompleteReadError, ValueError) as failed:
                if not child.stopping:
                    step.errors.append(f"match {self.match_id}: POST failed: {failed!r}")
                return
            if status != 200:
                step.errors.append(f"match {self.match_id}: a move was answered {status}")
                return
            answered = time.perf_counter()
            self.state, _ = self.engine.apply(self.state, seat, move)
            self.seq = int(headers.get("x-match-seq", self.seq + 1))
            if child.watch_ids:
                child.answer_bytes.append(len(body))
                child.answer_ids.update(OOB_ID.findall(body))
            other = self.sockets[(seat + 1) % self.players]  # the next seat's
            if not await other.until(self.seq, LOST_AFTER):
                if not child.stopping:
                    step.lost.append(f"match {self.match_id} seq {self.seq} ({other.who})")
                continue
            if child.step is step:
                step.latencies.append(1000 * (time.perf_counter() - began))
                step.answers.append(1000 * (answered - began))
                step.moves += 1


class Watched:
    """A socket read all the time: the highest seq it was told, with a wake-up for waiters."""

    def __init__(self, ws, child: Child, server: Server, table: Table, cookie: str, who: str):
        self.ws, self.child, self.server, self.table = ws, child, server, table
        self.cookie, self.who = cookie, who
        self.seq, self.messages = -1, 0
        self.received = self.counted = 0  # bytes off the network, and those counted already
        extensions = ws.response.headers.get("Sec-WebSocket-Extensions", "") if ws.response else ""
        child.compressed.append("permessage-deflate" in extensions)
        feed = ws.data_received

        def data_received(data: bytes) -> None:
            self.received += len(data)
            feed(data)

        ws.data_received = data_received  # the transport calls it for every read
        self.closed, self.close_code, self.closing = False, None, False
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, child, server, table, *, cookie, who, backoff=False) -> Watched:
        """backoff: try as a page's htmx does when its socket was closed ("full jitter": wait a
        random time up to 1 s, then up to 2, 4, 8 and 16 s between tries, where htmx goes on
        up to 64 s for as long as the page is open), so that the pages a stopped process
        dropped do not all knock on the other at the same instant. Three tries otherwise."""
        import websockets

        tries = 6 if backoff else 3
        for attempt in range(tries):
            if backoff:
                await asyncio.sleep(random.uniform(0, 2 ** min(attempt, 4)))
            try:
                ws = await websockets.connect(
                    f"ws://127.0.0.1:{server.port}/ws/matches/{table.match_id}/",
                    origin=f"http://127.0.0.1:{server.port}",
                    additional_headers={"Cookie": cookie},
                    max_size=None,
                    open_timeout=60,
                    ping_interval=None,
                )
                return cls(ws, child, server, table, cookie, who)
            except (OSError, TimeoutError, websockets.InvalidHandshake) as failed:
                child.handshake_failures.append(f"handshake {attempt + 1}: {failed!r}")
        raise SystemExit(
            f"a socket could not be opened {tries} times running: {child.handshake_failures[-3:]}"
        )

    async def _read(self) -> None:
        import websockets

        try:
            async for message in self.ws:
                data = message.encode() if isinstance(message, str) else message
                self.messages += 1
                if self.messages == 1:
                    self.child.first_bytes.append(len(data))
                elif self.child.watch_ids:
                    self.child.message_bytes.append(len(data))
                    self.child.wire_bytes.append(self.received - self.counted)
                    self.child.socket_ids.update(OOB_ID.findall(data))
                self.counted = self.received
                found = SEQ.search(data)
                if found and int(found.group(1)) > self.seq:
                    self.seq = int(found.group(1))
                    self.changed.set()
        except websockets.ConnectionClosed as closed:
            self.close_code = closed.rcvd.code if closed.rcvd is not None else None
        self.closed = True
        if not (self.child.stopping or self.closing) and self.close_code != SERVICE_RESTART:
            step = self.child.step
            if step is not None:
                step.errors.append(f"{self.who} socket closed with {self.close_code}")
        self.changed.set()

    async def until(self, seq: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while self.seq < seq and not self.closed:
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return False
        return self.seq >= seq

    async def reconnect(self, server: Server) -> bool:
        """Open this page's socket on `server`: its first message must show the current seq."""
        fresh = await Watched.open(
            self.child, server, self.table, cookie=self.cookie, who=self.who, backoff=True
        )
        try:
            return await fresh.until(self.table.seq, LOST_AFTER)
        finally:
            await fresh.close()

    async def close(self) -> None:
        self.closing = True
        await self.ws.close()
        self.task.cancel()


class Http:
    """A keep-alive HTTP/1.1 connection, as a browser keeps one per site (lean: no library)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: str, cookie: str):
        token = re.search(r"csrftoken=([^;]+)", cookie).group(1)
        headers = {
            "Cookie": cookie, "X-CSRFToken": token, "HX-Request": "true",
            "X-Match-Socket": "open", "Content-Type": "application/x-www-form-urlencoded",
        }  # fmt: skip
        return await self.request("POST", path, headers, body.encode())

    async def request(self, method: str, path: str, headers: dict, body: bytes = b""):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        status_line = await self.reader.readuntil(b"\r\n")
        status = int(status_line.split()[1])
        got: dict[str, str] = {}
        while (line := await self.reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.decode("latin-1").partition(":")
            got[name.strip().lower()] = value.strip()
        if "content-length" in got:
            data = await self.reader.readexactly(int(got["content-length"]))
        else:  # chunked
            data = b""
            while size := int((await self.reader.readuntil(b"\r\n")).strip(), 16):
                data += (await self.reader.readexactly(size + 2))[:-2]
            await self.reader.readuntil(b"\r\n")
        if got.get("connection", "").lower() == "close":
            await self.close()
        return status, got, data

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = self.reader = None


async def _get_many(client: Http, path: str, cookie: str, count: int) -> int:
    size = 0
    for _ in range(count):
        status, _, data = await client.request(
            "GET", path, {"Cookie": cookie, "Accept-Encoding": "gzip, deflate, br"}
        )
        if status != 200:
            raise SystemExit(f"GET {path} answered {status}")
        size = len(data)
    return size


async def _paced_trivial(server: Server, cookie: str, rate: float, seconds: float) -> list:
    """Server CPU of a /healthz request (ms, one figure a 2-second window) sent at `rate` a
    second: the cost of the lightest request at that pace on this machine, now. (Back to back,
    as in the pages part, a request costs about half as much: see the README.)"""
    if rate <= 0 or seconds <= 0:
        return []
    client, rng, windows = Http(server.port), random.Random(), []
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        cpu0, count, window_end = server.cpu(), 0, time.monotonic() + 2
        while time.monotonic() < window_end:
            await _get_many(client, "/healthz", cookie, 1)
            count += 1
            await asyncio.sleep(rng.uniform(0.5, 1.5) / rate)
        windows.append(1000 * (server.cpu() - cpu0) / count)
    await client.close()
    return windows


async def _warm(port: int, table: Table) -> None:
    client = Http(port)
    for cookie in table.cookies:
        await _get_many(client, f"/matches/{table.match_id}/", cookie, 1)
    await _get_many(client, "/play/", table.cookies[0], 1)
    await client.close()


class Server:
    """One daphne process serving the tree under test."""

    def __init__(self, config: dict, name: str) -> None:
        self.config, self.name = config, name
        self.port = _free_port()
        self.log_path = Path(config["work"]) / f"daphne-{name}-{self.port}.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        env = {**os.environ, **_server_env(self.config)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
             "cribsite.asgi:application"],
            cwd=self.config["tree"], env=env, stdout=subprocess.DEVNULL,
            stderr=self.log_path.open("wb"),
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"daphne {self.name} did not start: see {self.log_path}")

    def cpu(self, system_only: bool = False) -> float:
        """User + system (or system only) CPU seconds of the process so far (Linux /proc)."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            return 0.0
        return (int(fields[12]) + (0 if system_only else int(fields[11]))) / CLK

    def wait(self, timeout: float) -> bool:
        try:
            self.proc.wait(timeout=timeout)
            return True
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.wait(30)

    def log_errors(self) -> list[str]:
        lines = self.log_path.read_text(errors="replace").splitlines()
        return [line for line in lines if ("Error" in line or "Exception" in line)
                and not line.startswith((" ", "Traceback"))]  # fmt: skip


def _server_env(config: dict) -> dict[str, str]:
    env = {
        "DJANGO_SETTINGS_MODULE": "cribsite.settings",
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "HTTPS": "0",
        "STATIC_MANIFEST": "0",
        "DATABASE_URL": config["database_url"],
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "COMPUTER_MODE": "thread",
        "LOG_LEVEL": "WARNING",
    }
    if config["redis_url"]:
        env["REDIS_URL"] = config["redis_url"]
        env["REDIS_PREFIX"] = config["redis_prefix"]
    else:
        os.environ.pop("REDIS_URL", None)
    return env


def _make_tables(count: int, variant: str, players: int) -> list[Table]:
    """`count` started matches of `variant` with `players` seats, each seat a member of its own,
    and one spectator for them all; with sessions."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    from games import services
    from games.models import Match

    User = get_user_model()
    tag = secrets.token_hex(3)
    users = User.objects.bulk_create(
        [User(username=f"load-{tag}-{i}", email=f"load-{tag}-{i}@example.org")
         for i in range(players * count + 1)]
    )  # fmt: skip
    users = list(User.objects.filter(username__startswith=f"load-{tag}-").order_by("pk"))

    def cookie(user) -> str:
        session = SessionStore()
        session["_auth_user_id"] = str(user.pk)
        session["_auth_user_backend"] = _signing_in_backend()
        session["_auth_user_hash"] = user.get_session_auth_hash()
        session.create()
        return f"{settings.SESSION_COOKIE_NAME}={session.session_key}; csrftoken={'b' * 32}"

    spectator = cookie(users[-1])
    tables = []
    for i in range(count):
        seated = users[players * i : players * (i + 1)]
        match = services.match_create(creator=seated[0], variant=variant, players=players)
        for member in seated[1:]:
            services.match_join(match_id=match.pk, user=member)
        match = Match.objects.get(pk=match.pk)
        cookies = [cookie(member) for member in seated] + [spectator]
        tables.append(Table(match.pk, cookies, match.snapshot, match.seq, variant))
    return tables


def _step_line(s: Step) -> str:
    times = sorted(s.latencies)
    if not times:
        return f"{s.matches:7d}  no moves measured; errors {s.errors[:3]} lost {s.lost[:3]}"
    low, high = _median_interval(times)
    per_move = 1000 * s.server_cpu / max(1, s.moves)
    return (
        f"{s.matches:7d}  {s.moves / s.seconds:7.1f}  {statistics.median(times):6.1f} "
        f"({low:5.1f}-{high:5.1f})  {_pct(times, 95):6.1f}  {_pct(times, 99):6.1f}  "
        f"{times[-1]:6.0f}  {per_move:6.1f} ms, {100 * s.server_cpu / s.seconds:4.0f}%"
        f"{'':17}{100 * s.own_cpu / s.seconds:5.0f}%  {100 * s.machine_busy:5.0f}%  "
        f"{len(s.lost):4d}  {len(s.errors):4d}"
        + (
            f"\n      of which the POST's own answer: median {statistics.median(answers):.1f}, "
            f"p95 {_pct(answers, 95):.1f} ms"
            if (answers := sorted(s.answers))
            else ""
        )
        + (
            f"\n      PostgreSQL + Redis on this machine: "
            f"{1000 * s.services_cpu / max(1, s.moves):.1f} ms a move, "
            f"{100 * s.services_cpu / s.seconds:.0f}% of a core"
            if s.services_cpu
            else ""
        )
        + (f"\n      lost: {s.lost[:3]} errors: {s.errors[:3]}" if s.lost or s.errors else "")
    )


def _sizes(label: str, sizes: list[int]) -> str:
    if not sizes:
        return f"{label}: none"
    sizes = sorted(sizes)
    return (
        f"{label}: median {statistics.median(sizes) / 1024:.2f} KB, p95 "
        f"{_pct(sizes, 95) / 1024:.2f} KB, max {sizes[-1] / 1024:.2f} KB ({len(sizes)})"
    )


def _pct(values, p: int):
    return values[min(len(values) - 1, max(0, round(len(values) * p / 100) - 1))]


def _median_interval(values: list[float], rounds: int = 300) -> tuple[float, float]:
    rng = random.Random(7)
    medians = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(rounds))
    return medians[int(rounds * 0.025)], medians[int(rounds * 0.975) - 1]


def _machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, every core (Linux /proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def _services_cpu() -> float:
    """CPU seconds so far of this machine's PostgreSQL and Redis server processes (0 when they
    run elsewhere). A process that ended meanwhile takes its share with it."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            name, fields = stat.read_text().split(" (", 1)[1].split(")", 1)
        except (OSError, IndexError):
            continue
        if name in ("postgres", "redis-server"):
            values = fields.split()
            total += int(values[11]) + int(values[12])
    return total / CLK


def _loadavg() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _signing_in_backend() -> str:
    """The backend a log-in is kept under, as Django's test client picks it: the first listed
    that can find a member again (the revision compared with --before may list another)."""
    from django.conf import settings
    from django.utils.module_loading import import_string

    listed = settings.AUTHENTICATION_BACKENDS
    return next(path for path in listed if hasattr(import_string(path), "get_user"))


if __name__ == "__main__":
    main()
