"""The live table under load (issue #8): moves posted by phones, fragments pushed to the others.

    .venv/bin/python bench/live.py [--tables 50] [--phones 6] [--rate 60] [--seconds 60]
                                   [--workers 2] [--database-url postgres://.../companion_bench]

It creates (if missing) and migrates its own database, seats N tables of the game (El Capitán
Alatriste by default: 6 seats, a guest token per phone), starts uvicorn or granian (--server) with
--workers on a free 127.0.0.1 port and plays an open-loop schedule: a move every 1/rate s to the
next table in turn whose previous move was answered, never waiting for any answer. Per table,
phones 0..N-2 hold the page stream (/s/{id}/stream/, the guest cookie) and a phone posts the
game's move (GAMES below: one that can be played again and again, e.g. Alatriste's `adjust`, +1
Fame for the poster's seat). It prints a markdown table and writes it to
bench/out/live-<time>.md. bench/all.py uses the same pieces for every figure of issue 15.

What is measured, and how:
- move POST latency: client side, from sending the POST to its 201.
- announce latency: the time the fragments of a move (the first push whose SSE `id:` is at least
  the move's version) reach each other phone of the table, minus (a) the move's commit, (b) the
  POST sent, (c) the 201 received. The commit instant is taken in the server process (an
  on_commit hook, sent back in a response header); server and bench read the same clock
  (CLOCK_MONOTONIC), so the difference is exact.
- requests and queries per move: counted inside each server process by a thin ASGI wrapper
  (`counting_app`, this file; the app itself is untouched) and summed over the workers for the
  measured window. Requests are also counted on the client side.
- the yardstick: GET /api/health/ (one query) from concurrent clients, in the same run, before the
  streams open.

Everything stays on 127.0.0.1; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import contextvars
import datetime
import functools
import gc
import json
import math
import os
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/companion_bench"
HOST_NAME = "bench-host"
# The one-table probes (bench/move_cost.py, bench/profile_move.py) seat theirs under another host:
# seating deletes the host's previous tables of the game, and a probe run beside bench/all.py
# once deleted the run's Knights tables mid-run (bench/README.md, "A slower AMD EPYC").
PROBE_HOST_NAME = "bench-probe"
# Each game's table and the move its poster plays, again and again for as long as the bench runs:
# `move(state, mover)` gives the next move's body (with its "type") from the session's state as
# the last answer showed it; its "phone" (taken out before posting), else the move's "seat", else
# the mover's, says whose phone posts it.
# None of them ends the game. `prepare`: moves the host plays once when seating the table.
def _knights_move(state, mover):
    # A round of the table's deck: Merlin names a Prosperity event (no card to place) from his
    # phone, the table enters its worship, the round ends; no knight earns a card, so nobody ever
    # wins.
    if state["phase"] == "event":
        return {"type": "reveal_event", "event": "Excalibur", "phone": state["merlin"]}
    if state["resolution"] is None:
        return {"type": "worship"}
    return {"type": "end_round"}


def _rabbits_move(state, mover):
    # Each seat rolls in turn (the dice given, as a table rolling its own dice does); every roll
    # comes from the rolling seat's own phone.
    from games.rabbits import rules

    turn = state["turn"]
    seat = turn["seat"] if turn["dice"] is None else rules.next_seat(state)
    return {"type": "roll", "seat": seat, "dice": [2, 3]}


def _pad_move(state, mover):
    # The poster corrects its own first round, 0 and 1 in turn.
    return {"type": "correct", "seat": mover, "round": 1,
            "points": 1 - state["seats"][mover]["scores"][0]}


GAMES = {
    "alatriste": {"seats": 6, "options": {},
                  "prepare": [("setup", {"seat": "mover", "fencing": 5, "ducats": 5})],
                  "label": "adjust",
                  "move": lambda state, mover: {"type": "adjust", "stat": "fame", "delta": 1,
                                                "seat": mover}},
    "quixote": {"seats": 4, "options": {"deck": "none"}, "prepare": [], "label": "score",
                "move": lambda state, mover: {
                    "type": "score", "seat": mover, "round": 1, "castle6_knights": 1,
                    "castle4_knights": 0, "church_groups": [2], "windmill_groups": [],
                    "defense_shields": 4}},
    "knights": {"seats": 6, "options": {"deck": "table"}, "prepare": [], "move": _knights_move,
                "label": "reveal_event, worship, end_round"},
    "rabbits": {"seats": 4, "options": {}, "prepare": [], "move": _rabbits_move,
                "label": "roll"},
    "pad": {"seats": 6, "options": {"game": "Bench", "win": "high"},
            "prepare": [("round", {"scores": [0] * 6})], "move": _pad_move, "label": "correct"},
}
PROTECTED_DATABASES = {"companion", "postgres", "template0", "template1"}
COUNTS_ENV = "COMPANION_BENCH_COUNTS"
# Set (to anything) in the bench's environment, the servers render each table's fragments ahead
# once and carry them again with every later move: what a move costs without its render
# (rendered_once). A measuring instrument only: the phones are then shown stale fragments.
RENDER_ONCE_ENV = "COMPANION_BENCH_RENDER_ONCE"


# =============================================================================================
# Server side: imported by each uvicorn or granian worker (`bench.live:counting_app --factory`).
# =============================================================================================

_request = contextvars.ContextVar("bench_request", default=None)
_lock = threading.Lock()
_counts: dict[str, float] = {}


def _bump(key, amount=1):
    with _lock:
        _counts[key] = _counts.get(key, 0) + amount


def _kind_of(method, path):
    if method == "POST" and path.startswith("/api/sessions/") and path.endswith("/moves/"):
        return "move"
    if path.startswith("/s/") and path.endswith("/stream/"):
        return "stream"
    if path == "/api/health/":
        return "health"
    return "other"


def _install_counters():
    """Count queries (per kind of request), renders and commits, without touching the app."""
    from django.db import transaction
    from django.db.backends import utils

    from companion import fragments, live

    execute = utils.CursorWrapper._execute_with_wrappers

    def counted_execute(self, sql, params, many, executor):
        request = _request.get()
        kind = request["kind"] if request else "none"
        verb = sql.lstrip().split(None, 1)[0].upper() if sql else "?"
        _bump(f"queries:{kind}")
        if verb in {"SAVEPOINT", "RELEASE", "ROLLBACK"}:
            _bump(f"savepoints:{kind}")
        return execute(self, sql, params, many, executor)

    utils.CursorWrapper._execute_with_wrappers = counted_execute

    # The CPU time of the rendering thread alone: what a render costs.
    time_source = getattr(time, "thread_time", time.process_time)

    def timed_thread(name, function):
        def wrapper(*args, **kwargs):
            started = time_source()
            try:
                return function(*args, **kwargs)
            finally:
                _bump(f"renders:{name}")
                _bump(f"render_cpu:{name}", time_source() - started)

        return wrapper

    # Rendered by a stream from the database, and rendered ahead by a move's request (carried
    # to every process with the announcement).
    fragments.render_shared_lines = timed_thread("shared", fragments.render_shared_lines)
    fragments.render_panel = timed_thread("panel", fragments.render_panel)
    fragments.render_ahead = timed_thread("ahead", fragments.render_ahead)
    if os.environ.get(RENDER_ONCE_ENV):
        fragments.render_ahead = rendered_once(fragments.render_ahead)

    announce = live.announce

    def announce_and_note_commit(session_id, version, ahead=None):
        request = _request.get()
        if request is not None:
            transaction.on_commit(partial_commit(request))
        return announce(session_id, version, ahead)

    def partial_commit(request):
        def committed():
            request["commit"] = time.monotonic()

        return committed

    live.announce = announce_and_note_commit

    # A move written in one statement outside a transaction (PostgreSQL: services.
    # _move_write_at_once) has committed, NOTIFY with it, when the statement returns, and the
    # request then hands the version to its own process's streams (live.deliver_here).
    deliver_here = live.deliver_here

    def note_commit_and_deliver_here(session_id, version, ahead=None):
        request = _request.get()
        if request is not None and "commit" not in request:
            request["commit"] = time.monotonic()
        return deliver_here(session_id, version, ahead)

    live.deliver_here = note_commit_and_deliver_here


def rendered_once(render_ahead):
    """`render_ahead` (fragments.render_ahead) made to render each session's fragments once and
    hand the same ones back for every later move of it, so that a move's push carries only its
    log line: the upper bound of taking the render out of the move (bench/README.md, "Fewer
    renders in a move")."""
    kept = {}

    def once(session, move):
        if session.pk not in kept:
            kept[session.pk] = render_ahead(session, move)
        return kept[session.pk]

    return once


def _write_counts_forever(folder):
    path = Path(folder) / f"{os.getpid()}.json"
    temporary = path.with_suffix(".tmp")
    while True:
        with _lock:
            snapshot = dict(_counts)
        temporary.write_text(json.dumps(snapshot))
        temporary.replace(path)
        time.sleep(0.25)


def counting_app():
    """The app, wrapped: counts requests, queries and renders of this process (--factory)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    from companion.asgi import application

    _install_counters()
    folder = os.environ.get(COUNTS_ENV)
    if folder:
        threading.Thread(target=_write_counts_forever, args=(folder,), daemon=True,
                         name="bench-counts").start()

    async def app(scope, receive, send):
        if scope["type"] != "http":
            return await application(scope, receive, send)
        kind = _kind_of(scope["method"], scope["path"])
        request = {"kind": kind}
        _bump(f"requests:{kind}")
        started = time.monotonic()
        token = _request.set(request)

        async def send_with_commit(message):
            if message["type"] == "http.response.start":
                _bump(f"handler_seconds:{kind}", time.monotonic() - started)
                if "commit" in request:
                    headers = list(message.get("headers", []))
                    headers.append((b"x-bench-commit", repr(request["commit"]).encode()))
                    message = {**message, "headers": headers}
            await send(message)

        try:
            return await application(scope, receive, send_with_commit)
        finally:
            _request.reset(token)

    return app


# =============================================================================================
# The bench process.
# =============================================================================================

def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def ms(value):
    return "–" if value is None else f"{value * 1000:.1f}"


def trio(values):
    return " / ".join(ms(percentile(values, p)) for p in (50, 95, 99))


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_name(url):
    return urlsplit(url).path.lstrip("/")


def check_database_url(url):
    parts = urlsplit(url)
    name = database_name(url)
    if parts.scheme not in {"postgres", "postgresql"}:
        sys.exit("bench/live.py runs on PostgreSQL only (--database-url postgres://...).")
    if parts.hostname not in {"127.0.0.1", "localhost", "::1"}:
        sys.exit("bench/live.py stays on this machine: the database must be on 127.0.0.1.")
    if not name or name in PROTECTED_DATABASES or name.startswith("test_"):
        sys.exit(f"Refusing to use the database {name!r}: give the bench a database of its own "
                 "(default companion_bench).")


def create_database(url):
    import psycopg
    from psycopg import sql

    name = database_name(url)
    parts = urlsplit(url)
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            print(f"created the database {name}")


def setup_django(url, pool=False):
    """Django in this process on the bench's database; pool=True: with the connection pool a
    server process has (bench/move_cost.py runs the app here)."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "companion.settings"
    os.environ["DATABASE_URL"] = url
    if not pool:
        os.environ["DB_POOL"] = "0"  # this process only: the server's settings are its own
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    call_command("createcachetable", verbosity=0)  # the limits' counts (a join reads them)


def one_table(game, url, pool=False):
    """Django in this process on the bench's database (pool: as a server process has it) and one
    fresh table of `game` seated, a phone per seat: bench/profile_move.py, bench/move_cost.py."""
    check_database_url(url)
    create_database(url)
    setup_django(url, pool=pool)
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]
    return seat_tables(game, 1, GAMES[game]["seats"], host_name=PROBE_HOST_NAME)[0]


def loop_runner():
    """uvloop.run when uvloop is installed (the servers run on it), else asyncio.run."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run
    return uvloop.run


def seat_tables(game, count, phones, host_name=HOST_NAME):
    """`count` fresh sessions of `phones` seats, a guest per seat, prepared as GAMES says, hosted
    by `host_name`, whose previous tables of the game are deleted."""
    from django.contrib.auth import get_user_model
    from django.db import connections

    from companion import services
    from companion.models import Session

    User = get_user_model()
    host, _ = User.objects.get_or_create(username=host_name)
    Session.objects.filter(owner=host, game=game).delete()  # the previous run's tables
    names = [f"Rodela {i + 1}" for i in range(phones)]
    mover = phones - 1
    tables = []
    for _ in range(count):
        session = services.session_create(owner=host, game=game, players=names,
                                          options=GAMES[game]["options"])
        guests = [services.guest_join(code=session.code, seat=seat) for seat in range(phones)]
        for move_type, data in GAMES[game]["prepare"]:
            data = {key: mover if value == "mover" else value for key, value in data.items()}
            if move_type == "round":
                data["scores"] = data["scores"][:phones]
            services.move_play(session=session, type=move_type, data=data,
                               actor=services.Actor(user=host))
        session.refresh_from_db()
        tables.append({"id": session.pk, "tokens": [guest.token for guest in guests],
                       "mover": mover, "state": session.state, "game": game})
    connections.close_all()
    return tables


class Poster:
    """A table's posting phone: the next move from the state the last answer showed."""

    def __init__(self, game, table):
        self.move = GAMES[game]["move"]
        self.table = table
        self.state = table["state"]
        self.busy = False

    def next_move(self):
        """The next move's body and headers; `phone` is then the seat whose phone posts it."""
        body = self.move(self.state, self.table["mover"])
        self.phone = body.pop("phone", body.get("seat", self.table["mover"]))
        return body, {"X-Guest-Token": self.table["tokens"][self.phone]}

    def answered(self, reply):
        self.state = self.table["state"] = reply["session"]["state"]

    async def refresh(self, client, url, headers):
        """After a refusal: the state as it is (the next move follows from it)."""
        with contextlib.suppress(Exception):
            response = await client.get(url, headers=headers)
            if response.status_code == 200:
                self.state = self.table["state"] = response.json()["state"]


SERVERS = ("uvicorn", "granian")


class Server:
    """uvicorn or granian with N workers on 127.0.0.1, serving the counting wrapper (or the bare
    app)."""

    def __init__(self, url, workers, counts_dir, log_path, extra_env, plain, kind="uvicorn"):
        import httpx

        self.kind = kind
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, **extra_env, "DATABASE_URL": url,
               "DJANGO_SETTINGS_MODULE": "companion.settings", "PYTHONPATH": str(ROOT),
               COUNTS_ENV: str(counts_dir)}
        if "DB_POOL" not in extra_env:
            env.pop("DB_POOL", None)  # this process turned its own pool off
        target = "companion.asgi:application" if plain else "bench.live:counting_app"
        if kind == "granian":
            # asginl: ASGI without the lifespan protocol, which Django does not speak.
            self.command = [sys.executable, "-m", "granian", "--interface", "asginl",
                            *([] if plain else ["--factory"]), "--host", "127.0.0.1",
                            "--port", str(self.port), "--workers", str(workers),
                            "--log-level", "warning", "--no-access-log",
                            "--workers-kill-timeout", "2", target]
        else:
            self.command = [sys.executable, "-m", "uvicorn", target,
                            *([] if plain else ["--factory"]), "--host", "127.0.0.1",
                            "--port", str(self.port), "--workers", str(workers),
                            "--log-level", "warning", "--lifespan", "off", "--no-access-log",
                            "--timeout-graceful-shutdown", "2"]
        self.expected_workers = workers
        self.log = open(log_path, "w")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(self.command, cwd=ROOT, env=env, stdout=self.log,
                                        stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                if httpx.get(f"{self.url}/api/health/", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.25)
        else:
            self.stop()
            sys.exit(f"the server did not start in 30 s: see {log_path}")
        if self.process.poll() is not None:
            sys.exit(f"the server exited at once: see {log_path}")
        # Every worker up: each answers /api/health/ once it is listening; give the others a beat.
        time.sleep(1.5)

    def workers(self):
        """The worker processes: the server's descendants that serve the app (uvicorn's and
        granian's workers are children of its main process, granian's main process may sit
        between)."""
        children = {}
        for pid in _pids():
            children.setdefault(_ppid(pid), []).append(pid)
        found, todo = [], list(children.get(self.process.pid, []))
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo += children.get(pid, [])
        self.descendants = found
        # The workers are the biggest of them (a resource tracker or spawner is small).
        sized = sorted(found, key=rss_kb, reverse=True)
        return sorted(sized[:self.expected_workers])

    def processes(self):
        self.workers()
        return [self.process.pid, *self.descendants]

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
        self.log.close()


# CPU accounting from /proc ------------------------------------------------------------------

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _pids():
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _stat(pid):
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    comm = raw[raw.index("(") + 1:raw.rindex(")")]
    fields = raw[raw.rindex(")") + 2:].split()
    return comm, fields


def _ppid(pid):
    stat = _stat(pid)
    return int(stat[1][1]) if stat else None


def rss_kb(pid):
    """A process's resident memory (VmRSS), in kB; 0 once it is gone."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _cpu_seconds(pid):
    stat = _stat(pid)
    return (int(stat[1][11]) + int(stat[1][12])) / TICK if stat else 0.0


def _backends(url):
    """The PostgreSQL processes serving the bench database (other databases' are not ours)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                            "AND pid <> pg_backend_pid()").fetchall()
    return {pid: _cpu_seconds(pid) for (pid,) in rows}


def cpu_snapshot(servers, url):
    machine = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    numbers = [int(value) for value in machine]
    idle = numbers[3] + numbers[4]
    servers = servers if isinstance(servers, list | tuple) else [servers]
    return {
        "time": time.monotonic(),
        "machine_busy": (sum(numbers) - idle) / TICK,
        "server": sum(_cpu_seconds(pid) for server in servers for pid in server.processes()),
        "workers": {pid: _cpu_seconds(pid) for server in servers for pid in server.workers()},
        "postgres": _backends(url),
        "bench": time.process_time(),
    }


def cpu_delta(before, after):
    wall = after["time"] - before["time"]
    # Backends that came during the window count whole; those that left cannot be read.
    postgres = sum(seconds - before["postgres"].get(pid, 0)
                   for pid, seconds in after["postgres"].items())
    delta = {key: (after[key] - before[key]) / wall
             for key in before if key not in {"time", "postgres", "workers"}}
    delta["postgres"] = postgres / wall
    delta["others"] = max(0.0, delta["machine_busy"] - delta["server"] - delta["postgres"]
                          - delta["bench"])
    return delta


def worker_shares(before, after):
    """Each worker's share of the workers' CPU between two snapshots, the busiest first: uvicorn's
    workers take connections as they happen to accept them, so a burst of them (the yardstick's
    20 clients) may all land on one worker, held by its GIL to about one core, or split."""
    spent = [after["workers"][pid] - before["workers"].get(pid, 0) for pid in after["workers"]]
    total = sum(spent)
    return sorted((seconds / total for seconds in spent), reverse=True) if total else []


def shares_text(shares):
    return "/".join(f"{share * 100:.0f}" for share in shares)


# Server counters ------------------------------------------------------------------------------

def server_counts(folder):
    total: dict[str, float] = {}
    for path in Path(folder).glob("*.json"):
        with contextlib.suppress(OSError, ValueError):
            for key, value in json.loads(path.read_text()).items():
                total[key] = total.get(key, 0) + value
    return total


def counts_delta(before, after):
    return {key: after.get(key, 0) - before.get(key, 0) for key in set(before) | set(after)}


def pg_counters(url):
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_commit + xact_rollback, tup_returned, tup_fetched, tup_inserted, "
            "tup_updated FROM pg_stat_database WHERE datname = current_database()").fetchone()
    return dict(zip(("transactions", "returned", "fetched", "inserted", "updated"), row,
                    strict=True))


# The phones -----------------------------------------------------------------------------------

class Stats:
    def __init__(self):
        self.requests = {"move": 0, "stream": 0, "health": 0, "other": 0}
        self.errors: dict[str, int] = {}
        self.moves = []  # (table index, version, sent, answered, commit or None)
        self.post_latency = []
        self.pushes = 0
        self.fragment_events = 0
        self.stream_bytes = 0
        self.streams_lost = 0

    def error(self, what):
        self.errors[what] = self.errors.get(what, 0) + 1


class Dechunked:
    """The body of an HTTP/1.1 answer sent in chunks (how uvicorn and granian send a stream), fed
    the bytes as they arrive: `feed` returns the body's bytes they complete; `ended` after the
    last chunk."""

    def __init__(self):
        self.raw = b""
        self.left = None  # bytes still due of the current chunk (then its CRLF), or None
        self.ended = False

    def feed(self, data):
        self.raw += data
        body = []
        while True:
            if self.left is None:
                line, found, rest = self.raw.partition(b"\r\n")
                if not found:
                    break
                self.left = int(line.split(b";")[0], 16)
                self.raw = rest
                if self.left == 0:
                    self.ended = True
                    break
            if len(self.raw) < self.left + 2:
                break
            body.append(self.raw[:self.left])
            self.raw = self.raw[self.left + 2:]
            self.left = None
        return b"".join(body)


async def read_stream(base, url, cookie, arrivals, ready, sink):
    """Hold a page stream open; note (version, time) of each push's closing `version` event.
    Counts go to `sink.stats`, the measuring window's.

    A phone here is a plain socket, not an HTTP client: a real phone reads its stream on its own
    processor, and httpx's machinery for each piece of a push took about a fifth of the bench
    client's CPU, on the server's own two cores (bench/README.md, "Phones on plain sockets")."""
    address = urlsplit(base)
    writer = None
    try:
        reader, writer = await asyncio.open_connection(address.hostname, address.port)
        writer.write((f"GET {url} HTTP/1.1\r\nHost: {address.netloc}\r\nCookie: {cookie}\r\n"
                      "Accept: text/event-stream\r\n\r\n").encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        status = int(head.split(b" ", 2)[1])
        if status != 200:
            sink.stats.error(f"stream HTTP {status}")
            ready.set()
            return
        if b"transfer-encoding: chunked" not in head.lower():
            raise ConnectionError("the stream's answer is not chunked")
        ready.set()
        chunks = Dechunked()
        buffer = b""
        first = True
        while not chunks.ended:
            data = await reader.read(65536)
            if not data:
                raise ConnectionResetError("the server closed the stream")
            now = time.monotonic()
            chunk = chunks.feed(data)
            stats = sink.stats
            stats.stream_bytes += len(chunk)
            buffer += chunk
            *events, buffer = buffer.split(b"\n\n")
            for raw in events:
                event_id = name = None
                for line in raw.split(b"\n"):
                    if line.startswith(b"id: "):
                        event_id = int(line[4:])
                    elif line.startswith(b"event: "):
                        name = line[7:]
                if name is None:
                    continue  # a keepalive comment
                if name != b"version":
                    stats.fragment_events += 1
                elif first:
                    first = False  # the version at connect: not a push
                else:
                    stats.pushes += 1
                    arrivals[0].append(event_id)
                    arrivals[1].append(now)
    except asyncio.CancelledError:
        raise
    except (OSError, ValueError, asyncio.IncompleteReadError, TimeoutError) as error:
        sink.stats.streams_lost += 1
        sink.stats.error(f"stream {type(error).__name__}")
    finally:
        ready.set()
        if writer is not None:
            writer.close()


async def post_move(client_of, url, poster, table_index, stats):
    body, headers = poster.next_move()
    client = client_of(poster.phone)
    poster.busy = True
    sent = time.monotonic()
    try:
        response = await client.post(url, json=body, headers=headers)
    except Exception as error:  # noqa: BLE001 - every failure is counted, none stops the run
        stats.error(f"POST {type(error).__name__}")
        return
    finally:
        poster.busy = False
    answered = time.monotonic()
    if response.status_code != 201:
        detail = ""
        with contextlib.suppress(ValueError, AttributeError, TypeError):
            detail = ": " + str(response.json().get("detail", ""))[:80]
        stats.error(f"POST HTTP {response.status_code}{detail}")
        if 400 <= response.status_code < 500:
            poster.busy = True
            try:
                await poster.refresh(client, url.removesuffix("moves/"), headers)
            finally:
                poster.busy = False
        return
    reply = response.json()
    poster.answered(reply)
    commit = response.headers.get("x-bench-commit")
    stats.post_latency.append(answered - sent)
    stats.moves.append((table_index, reply["session"]["version"], sent, answered,
                        float(commit) if commit else None))


@functools.cache
def tls_context():
    """One TLS context for every client of the bench's (which speak plain HTTP): httpx loads the
    certificate bundle anew for each client it makes otherwise, 38 ms of the client's CPU, and a
    phone's connection is made at its first move, inside a window."""
    import ssl

    return ssl.create_default_context()


@contextlib.contextmanager
def collector_held():
    """The bench client's cyclic garbage collector held off while it measures, and run before:
    the client keeps every push's arrival, and its full collections took 90-250 ms by the end of
    a run (2026-12-01), in which it neither sent nor read, so the POSTs and pushes waiting were
    measured that much slower (a window's p95 passed 100 ms for it alone)."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def health_phase(base, seconds, concurrency, stats):
    import httpx

    latencies = []
    errors = 0
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=10) as client:
        deadline = time.monotonic() + seconds

        async def hammer(number):
            nonlocal errors
            # Each client's connection opened after the one before (see Tables.open): opened
            # together, the twenty went to one of uvicorn's workers (96/4).
            await asyncio.sleep(number * 0.005)
            while time.monotonic() < deadline:
                started = time.monotonic()
                try:
                    response = await client.get("/api/health/")
                    ok = response.status_code == 200
                except httpx.HTTPError:
                    ok = False
                stats.requests["health"] += 1
                if ok:
                    latencies.append(time.monotonic() - started)
                else:
                    errors += 1

        with collector_held():
            started = time.monotonic()
            await asyncio.gather(*(hammer(number) for number in range(concurrency)))
            elapsed = time.monotonic() - started
    return {"rate": len(latencies) / elapsed, "latencies": latencies, "errors": errors}


class Tables:
    """The phones of N tables: phones 0..P-2 of each hold the page stream, and the table's
    Poster posts on an open-loop schedule, window after window at any rate. With several
    servers (`bases`), table t posts to server t mod S and its phone p listens on server
    (t + p) mod S: half the phones hear of a move through another server."""

    def __init__(self, tables, phones, bases, max_in_flight=200):
        self.tables = tables
        self.listeners = phones - 1
        self.bases = bases
        self.max_in_flight = max_in_flight
        self.posters = [Poster(table["game"], table) for table in tables]
        self.arrivals = [[([], []) for _ in range(self.listeners)] for _ in tables]
        self.stats = Stats()
        self.readers = []
        self.posts = {}  # (table index, seat) -> its phone's connection (client_of)
        self.clients = []

    def server_of(self, table_index, phone=None):
        offset = 0 if phone is None else phone
        return (table_index + offset) % len(self.bases)

    async def open(self):
        # The streams are opened one after another, as phones open theirs, and each phone that
        # posts has a connection of its own, opened at its first move (Tables.client_of).
        # uvicorn's workers share one listening socket, and the worker that wakes first accepts
        # every connection waiting: connections opened together went to one worker or the other
        # in lumps, and the POSTs of five tables through one pool rode mostly on its first
        # connection, so a worker's share of the moves was the luck of ten draws (Jack Rabbits'
        # 74/26 on 2026-12-01).
        for index, table in enumerate(self.tables):
            for phone in range(self.listeners):
                ready = asyncio.Event()
                cookie = f"guest{table['id']}={table['tokens'][phone]}"
                self.stats.requests["stream"] += 1
                base = self.bases[self.server_of(index, phone)]
                self.readers.append(asyncio.create_task(read_stream(
                    base, f"/s/{table['id']}/stream/", cookie, self.arrivals[index][phone],
                    ready, self)))
                await asyncio.wait_for(ready.wait(), 30)
        await asyncio.sleep(1.0)  # every stream subscribed (its first read is done)

    def client_of(self, index, phone):
        """The connection of table `index`'s phone at seat `phone`, opened at its first move: a
        pool of one, also the cheapest for httpcore, which looks through every connection of its
        pool on each request."""
        client = self.posts.get((index, phone))
        if client is None:
            import httpx

            client = self.posts[(index, phone)] = httpx.AsyncClient(
                base_url=self.bases[self.server_of(index)], timeout=10, verify=tls_context(),
                limits=httpx.Limits(max_connections=1, max_keepalive_connections=1))
            self.clients.append(client)
        return client

    async def window(self, rate, seconds, on_window=None):
        """Post `rate` moves a second for `seconds`; returns this window's Stats and times."""
        with collector_held():
            return await self._window(rate, seconds, on_window)

    async def _window(self, rate, seconds, on_window):
        stats = self.stats = Stats()
        if on_window:
            await on_window("start")
        total = round(rate * seconds)
        in_flight: set[asyncio.Task] = set()
        start = time.monotonic()
        slips = []
        count = len(self.tables)
        for number in range(total):
            due = start + number / rate
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            slips.append(max(0.0, time.monotonic() - due))
            if len(in_flight) >= self.max_in_flight:
                stats.error("not sent: too many POSTs in flight")
                continue
            # The next table in turn whose phone is not waiting for its previous answer (a
            # table's moves follow one another, as its state says which comes next).
            index = next((candidate % count for candidate in range(number, number + count)
                          if not self.posters[candidate % count].busy), None)
            if index is None:
                stats.error("not sent: every table waits for an answer")
                continue
            stats.requests["move"] += 1
            task = asyncio.create_task(post_move(
                functools.partial(self.client_of, index),
                f"/api/sessions/{self.tables[index]['id']}"
                "/moves/", self.posters[index], index, stats))
            self.posters[index].busy = True
            in_flight.add(task)
            task.add_done_callback(in_flight.discard)
        end_schedule = time.monotonic()
        if in_flight:
            await asyncio.wait(in_flight, timeout=15)
        end_posts = time.monotonic()
        # The last fragments: wait until every phone has the last version of its table (5 s max).
        last = {}
        for table_index, version, *_ in stats.moves:
            last[table_index] = max(last.get(table_index, 0), version)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if all(ids and ids[-1] >= last[i] for i in last for ids, _ in self.arrivals[i]):
                break
            await asyncio.sleep(0.05)
        if on_window:
            await on_window("end")
        return stats, {"start": start, "end_schedule": end_schedule, "end_posts": end_posts,
                       "arrivals": self.arrivals, "slips": slips}

    async def close(self):
        for reader in self.readers:
            reader.cancel()
        await asyncio.gather(*self.readers, return_exceptions=True)
        for client in self.clients:
            await client.aclose()


async def move_phase(args, base, tables, stats, on_window):
    """bench/live.py's one window: open the streams, play `--warm-up` seconds unmeasured, post
    on schedule, close. The warm-up is the server's first version of each table: each process
    renders it from the database for its phones (no version before it to build on), which held
    every POST of Knights' first 1.5 s at 160 moves/s to 60-170 ms (bench/README.md, "Three
    threads"); bench/all.py warms up the same way."""
    phones = Tables(tables, args.phones, [base], args.max_in_flight)
    phones.stats = stats  # the streams opened are counted; each window counts its own
    await phones.open()
    try:
        if args.warm_up:
            await phones.window(args.rate, args.warm_up)
            await asyncio.sleep(1.0)
        window_stats, window = await phones.window(args.rate, args.seconds, on_window)
    finally:
        await phones.close()
    merge_stats(stats, window_stats)
    return window


def merge_stats(into, stats):
    for key, value in stats.requests.items():
        into.requests[key] += value
    for key, value in stats.errors.items():
        into.errors[key] = into.errors.get(key, 0) + value
    into.moves += stats.moves
    into.post_latency += stats.post_latency
    into.pushes += stats.pushes
    into.fragment_events += stats.fragment_events
    into.stream_bytes += stats.stream_bytes
    into.streams_lost += stats.streams_lost


def announce_latencies(stats, arrivals, phones=None):
    """Arrival minus commit, POST sent and 201 received, for each (move, phone); `phones(table
    index, phone)` picks the phones counted (all by default)."""
    since_commit, since_sent, since_answer = [], [], []
    found = expected = 0
    for table_index, version, sent, answered, commit in stats.moves:
        for phone, (ids, times) in enumerate(arrivals[table_index]):
            if phones is not None and not phones(table_index, phone):
                continue
            expected += 1
            position = bisect.bisect_left(ids, version)
            if position == len(ids):
                continue
            found += 1
            arrived = times[position]
            since_sent.append(arrived - sent)
            since_answer.append(arrived - answered)
            if commit is not None:
                since_commit.append(arrived - commit)
    return since_commit, since_sent, since_answer, found, expected


# The report -----------------------------------------------------------------------------------

def report(args, command, results):
    stats, moves = results["stats"], len(results["stats"].moves)
    window = results["window"]
    duration = window["end_schedule"] - window["start"]
    since_commit, since_sent, since_answer, found, expected = announce_latencies(
        stats, window["arrivals"])
    counts = results["counts"]
    per_move = (lambda value: f"{value / moves:.2f}") if moves else (lambda value: "–")
    health = results["health"]
    cpu = results["cpu"]
    errors = sum(stats.errors.values())
    target_post = percentile(stats.post_latency, 95)
    target_announce = percentile(since_commit or since_sent, 95)
    meets = (target_post is not None and target_post <= 0.100 and target_announce is not None
             and target_announce <= 0.050 and errors == 0)
    def each(name):
        renders = counts.get(f"renders:{name}", 0)
        return f"{1000 * counts.get(f'render_cpu:{name}', 0) / renders:.1f}" if renders else "–"

    rows = [
        ("tables × phones", f"{args.tables} × {args.phones} of {args.game} ("
                            f"{args.phones - 1} streams + 1 poster each, the move "
                            f"`{GAMES[args.game]['label']}`; "
                            f"{args.tables * (args.phones - 1)} streams open)"),
        ("server", f"{args.server} --workers {args.workers}, PostgreSQL "
                   f"({'bare app' if args.plain else 'counting wrapper'}"
                   f"{', ' + ' '.join(args.server_env) if args.server_env else ''})"),
        ("machine", f"{os.cpu_count()} cores ({results['cpu_model']}); bench client, server "
                    "and PostgreSQL share them"),
        ("target rate", f"{args.rate:g} moves/s for {args.seconds:g} s (after {args.warm_up:g} s "
                        "unmeasured)"),
        ("achieved rate", f"{moves / duration:.1f} moves/s answered 201 ({moves} moves; "
                          f"the client's schedule slipped p95 "
                          f"{ms(percentile(window['slips'], 95))} ms, max "
                          f"{ms(max(window['slips'], default=None))} ms)"),
        ("errors", f"{errors}" + (" (" + ", ".join(f"{k}: {v}" for k, v in
                                                   sorted(stats.errors.items())) + ")"
                                   if errors else "")),
        ("move POST p50 / p95 / p99 (ms)", trio(stats.post_latency) + "  (target p95 ≤ 100)"),
        ("announce: commit → fragments at the other phones p50 / p95 / p99 (ms)",
         trio(since_commit) + "  (target p95 ≤ 50)"),
        ("announce: POST sent → fragments p50 / p95 / p99 (ms)", trio(since_sent)),
        ("announce: 201 received → fragments p50 / p95 / p99 (ms)", trio(since_answer)
         + "  (negative: the push came before the 201)"),
        ("fragments received / expected", f"{found} / {expected} (phone × move pairs; "
                                          f"{stats.pushes} pushes, "
                                          f"{stats.fragment_events} fragment events, "
                                          f"{stats.stream_bytes / 1e6:.1f} MB)"),
    ]
    if counts:
        requests = sum(counts.get(f"requests:{kind}", 0)
                       for kind in ("move", "stream", "health", "other"))
        queries_move = counts.get("queries:move", 0)
        queries_stream = counts.get("queries:stream", 0)
        renders_shared = counts.get("renders:shared", 0)
        renders_panel = counts.get("renders:panel", 0)
        renders_ahead = counts.get("renders:ahead", 0)
        render_cpu = sum(counts.get(f"render_cpu:{name}", 0)
                         for name in ("shared", "panel", "ahead"))
        rows += [
            ("requests served per move", f"{per_move(requests)} (server-counted in the window: "
                                         f"{requests:.0f} requests / {moves} moves; client "
                                         f"sent {stats.requests['move']} POSTs in the window)"),
            ("queries per move", f"{per_move(queries_move + queries_stream)} = "
                                 f"{per_move(queries_move)} in the POST "
                                 f"(of which {per_move(counts.get('savepoints:move', 0))} "
                                 f"savepoints) + {per_move(queries_stream)} in the streams' "
                                 "renders (counted in the server processes)"),
            ("renders per move", f"{per_move(renders_ahead)} ahead (in the POST) + "
                                 f"{per_move(renders_shared)} shared (by a stream) + "
                                 f"{per_move(renders_panel)} panels = "
                                 f"{1000 * render_cpu / max(moves, 1):.1f} ms CPU per move (one "
                                 f"ahead {each('ahead')} ms, a shared render {each('shared')} ms, "
                                 f"a panel {each('panel')} ms CPU)"),
            ("server time in the POST handler", f"mean "
             f"{1000 * counts.get('handler_seconds:move', 0) / max(moves, 1):.1f} ms "
             "(request in → response start, inside the worker)"),
            ("DB transactions per move", f"{per_move(results['pg']['transactions'])} "
                                         "(pg_stat_database)"),
        ]
    else:
        rows += [("requests served per move", f"{stats.requests['move'] / max(moves, 1):.2f} "
                                              "(client-counted: POSTs only; streams were open "
                                              "before the window)"),
                 ("queries per move", "not measured (--plain)"),
                 ("DB transactions per move", f"{per_move(results['pg']['transactions'])} "
                                              "(pg_stat_database)")]
    rows += [
        ("yardstick: GET /api/health/ (1 query)",
         f"{health['rate']:.0f} req/s, p50 / p95 {ms(percentile(health['latencies'], 50))} / "
         f"{ms(percentile(health['latencies'], 95))} ms ({args.health_concurrency} clients, "
         f"{args.health_seconds:g} s, {health['errors']} errors"
         + (f", {results['health_queries']:.2f} queries/request)"
            if results.get("health_queries") is not None else ")")),
        ("CPU in the window (cores busy)", f"machine {cpu['machine_busy']:.2f} of "
                                           f"{os.cpu_count()}: server {cpu['server']:.2f}, "
                                           f"PostgreSQL (its bench backends) "
                                           f"{cpu['postgres']:.2f}, bench client "
                                           f"{cpu['bench']:.2f}, other processes "
                                           f"{cpu['others']:.2f}; load average before the run "
                                           f"{results['load']}"),
        ("verdict", "meets the target" if meets else "misses the target (see bench/README.md)"),
    ]
    width = max(len(name) for name, _ in rows)
    lines = [f"Companion live bench, {results['when']}", "", f"    {command}", "",
             f"| {'measure'.ljust(width)} | value |", f"|{'-' * (width + 2)}|-------|"]
    lines += [f"| {name.ljust(width)} | {value} |" for name, value in rows]
    return "\n".join(lines) + "\n"


def cpu_model():
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown CPU"


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--phones", type=int, default=6, help="per table, 2 to the game's seats")
    parser.add_argument("--game", choices=sorted(GAMES), default="alatriste")
    parser.add_argument("--rate", type=float, default=60, help="moves per second in all")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warm-up", type=float, default=3.0,
                        help="seconds played at the rate, unmeasured, before the window")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--health-seconds", type=float, default=10)
    parser.add_argument("--health-concurrency", type=int, default=20)
    parser.add_argument("--max-in-flight", type=int, default=200,
                        help="POSTs awaiting an answer; past it a move is counted as an error")
    parser.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE",
                        help="an environment variable for the server, e.g. DB_POOL_MAX=8")
    parser.add_argument("--server", choices=SERVERS, default="uvicorn")
    parser.add_argument("--plain", action="store_true",
                        help="serve the bare app (no counting wrapper, no commit instants)")
    args = parser.parse_args(argv)
    if not 2 <= args.phones <= GAMES[args.game]["seats"]:
        parser.error(f"--phones is 2 to {GAMES[args.game]['seats']} for {args.game}")
    if not (1 <= args.tables <= 500 and 0 < args.rate <= 1000 and 0 < args.seconds <= 600
            and 0 <= args.warm_up <= 60
            and 1 <= args.workers <= 16 and 0 < args.health_seconds <= 60
            and 1 <= args.health_concurrency <= 200 and 1 <= args.max_in_flight <= 1000):
        parser.error("keep the figures sane: tables ≤ 500, rate ≤ 1000, seconds ≤ 600, "
                     "warm-up ≤ 60, workers ≤ 16, health seconds ≤ 60")
    for item in args.server_env:
        if "=" not in item:
            parser.error(f"--server-env takes NAME=VALUE, not {item!r}")
    return args


def main(argv=None):
    args = parse_args(argv)
    command = shlex.join([".venv/bin/python", "bench/live.py", *sys.argv[1:]])
    check_database_url(args.database_url)
    create_database(args.database_url)
    setup_django(args.database_url)
    started = time.monotonic()
    tables = seat_tables(args.game, args.tables, args.phones)
    print(f"{len(tables)} tables seated in {time.monotonic() - started:.1f} s", flush=True)

    OUT.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    extra_env = dict(item.split("=", 1) for item in args.server_env)
    stats = Stats()
    results = {"stats": stats, "when": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
               "cpu_model": cpu_model(), "load": Path("/proc/loadavg").read_text().split()[0]}
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as counts_dir:
        server = Server(args.database_url, args.workers, counts_dir, OUT / f"server-{stamp}.log",
                        extra_env, args.plain, args.server)
        try:
            results.update(run(args, server, tables, stats, counts_dir))
        finally:
            server.stop()
    text = report(args, command, results)
    path = OUT / f"live-{stamp}.md"
    path.write_text(text)
    print()
    print(text)
    print(f"written to {path.relative_to(ROOT)}; server log {OUT.name}/server-{stamp}.log")


def run(args, server, tables, stats, counts_dir):
    marks = {}

    async def on_window(moment):
        if moment == "end":
            await asyncio.sleep(0.5)  # the workers write their counters every 0.25 s
        marks[moment] = {"counts": server_counts(counts_dir),
                         "cpu": cpu_snapshot(server, args.database_url),
                         "pg": pg_counters(args.database_url)}
        if moment == "start":
            print(f"window open: {args.rate:g} moves/s for {args.seconds:g} s", flush=True)

    async def everything():
        before = server_counts(counts_dir)
        print(f"yardstick: GET /api/health/ for {args.health_seconds:g} s", flush=True)
        health = await health_phase(server.url, args.health_seconds, args.health_concurrency,
                                    stats)
        await asyncio.sleep(0.5)
        after = counts_delta(before, server_counts(counts_dir))
        served = after.get("requests:health", 0)
        health_queries = after.get("queries:health", 0) / served if served else None
        print(f"opening {len(tables) * (args.phones - 1)} streams", flush=True)
        window = await move_phase(args, server.url, tables, stats, on_window)
        return health, health_queries, window

    health, health_queries, window = loop_runner()(everything())
    counts = {} if args.plain else counts_delta(marks["start"]["counts"], marks["end"]["counts"])
    pg = {key: marks["end"]["pg"][key] - marks["start"]["pg"][key] for key in marks["end"]["pg"]}
    return {"health": health, "health_queries": None if args.plain else health_queries,
            "window": window, "counts": counts, "pg": pg,
            "cpu": cpu_delta(marks["start"]["cpu"], marks["end"]["cpu"])}


if __name__ == "__main__":
    main()
