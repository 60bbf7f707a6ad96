"""A/B of the live table: two git revisions served side by side, the same phones and moves on each.

    .venv/bin/python bench/ab.py --a REV_A --b REV_B [--games alatriste,quixote,knights,rabbits,pad]
        [--seconds 8] [--rate 40] [--tables 50] [--stream page|api]
        [--database-url postgres://postgres@127.0.0.1:5432/companion_ab]

Each revision gets a worktree (<tmp>/companion-ab-<short rev>, kept), a database (the URL's name +
_a or _b, made anew each run so both sides start alike) and one uvicorn worker on 127.0.0.1
serving its `companion.asgi:application` inside bench/ab_server.py (requests and queries counted,
each move's commit instant sent back). The bench speaks only HTTP to it: a host registers and
opens the tables, a guest joins each seat, then the game's repeated move (GAMES) is posted while
the table's other phones hold its stream. Per game and side: the knee, the
highest rate whose move POST p95 holds ≤ 100 ms over --seconds (doubled from 20 moves/s, then
the gap halved to within 10%), then a window at --rate. The games alternate which side goes
first: a machine slowing down mid-run does not always weigh on the same side.

Push latency: per other phone, the first event of its stream whose `id:` is at least the move's
version, minus the POST's sending and minus the commit (the server's CLOCK_MONOTONIC is the
bench's). Requests per move: what the phones sent. Queries per move: the server's counts around
the window, in the POSTs and in the streams (the live listener's psycopg connection is not
Django's: not counted).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import datetime
import fcntl
import gc
import math
import os
import secrets
import shlex
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
PYTHON = ROOT / ".venv" / "bin" / "python"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/companion_ab"
PROTECTED_DATABASES = {"companion", "postgres", "template0", "template1"}
KNEE_P95, FIRST_RATE, MAX_RATE, RESOLUTION, MAX_WINDOWS = 0.100, 20.0, 640.0, 1.10, 11
# A window whose p95 misses by less than this factor (no more than 1% failed) is played once
# more before its rate counts as not held: near the knee one pause of the machine's can decide a
# window alone, and the knee would then fall a whole step.
NARROW_MISS = 2.5
WARM_UP_RATE, WARM_UP_SECONDS = 20.0, 3.0
# One TLS context for every phone's client (they speak plain HTTP): httpx would load the
# certificates anew for each, at the phone's first move, inside a measured window, on the cores
# the server needs.
TLS = ssl.create_default_context()


def _knights_move(state, mover):
    # A round of the table's deck: Merlin's phone names a Prosperity event (no card to place), the
    # table worships, the round ends; nobody ever earns a card, so nobody wins.
    if state["phase"] == "event":
        return {"type": "reveal_event", "event": "Excalibur", "phone": state["merlin"]}
    return {"type": "worship"} if state["resolution"] is None else {"type": "end_round"}


def _rabbits_move(state, mover):
    # Each seat rolls in turn, from its own phone: the seat in turn, or the next once it rolled.
    turn = state["turn"]
    seat = turn["seat"] if turn["dice"] is None else (turn["seat"] + 1) % len(state["seats"])
    return {"type": "roll", "seat": seat, "dice": [2, 3]}


# Each game's table: its seats, options, the moves its host plays once, and the move posted
# again and again from the state the last answer showed ("phone", taken out before
# posting, else "seat", else the mover says whose phone posts it). None of them ends the game.
GAMES = {
    "alatriste": {"seats": 6, "options": {},
                  "prepare": [("setup", {"seat": "mover", "fencing": 5, "ducats": 5})],
                  "move": lambda state, mover: {"type": "adjust", "stat": "fame", "delta": 1,
                                                "seat": mover}},
    "quixote": {"seats": 4, "options": {"deck": "none"}, "prepare": [],
                "move": lambda state, mover: {
                    "type": "score", "seat": mover, "round": 1, "castle6_knights": 1,
                    "castle4_knights": 0, "church_groups": [2], "windmill_groups": [],
                    "defense_shields": 4}},
    "knights": {"seats": 6, "options": {"deck": "table"}, "prepare": [], "move": _knights_move},
    "rabbits": {"seats": 4, "options": {}, "prepare": [], "move": _rabbits_move},
    # The poster corrects its own first round, 0 and 1 in turn.
    "pad": {"seats": 6, "options": {"game": "Bench", "win": "high"},
            "prepare": [("round", {"scores": [0] * 6})],
            "move": lambda state, mover: {"type": "correct", "seat": mover, "round": 1,
                                          "points": 1 - state["seats"][mover]["scores"][0]}},
}


def say(text):
    print(f"[{datetime.datetime.now():%H:%M:%S}] {text}", flush=True)


def p95(values):
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)] if ordered else None


def ms(value):
    return "–" if value is None else f"{value * 1000:.1f}"


def git(*args, cwd=ROOT):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


def expect(response, status, what):
    if response.status_code != status:
        sys.exit(f"{what}: HTTP {response.status_code} {response.text[:300]}")
    return response.json()


class Side:
    """One revision: its worktree, database and server, and the tables seated on it."""

    def __init__(self, name, rev, database_url, stamp):
        self.name, self.url = name, database_url
        try:
            self.sha = git("rev-parse", "--verify", f"{rev}^{{commit}}")
        except subprocess.CalledProcessError:
            sys.exit(f"{rev!r} is not a commit of {ROOT}")
        self.short = git("rev-parse", "--short", self.sha)
        self.subject = git("log", "-1", "--format=%s", self.sha)
        self.worktree = Path(tempfile.gettempdir()) / f"companion-ab-{self.short}"
        self.log_path = OUT / f"ab-{stamp}-{name}.log"
        self.process = self.base = self.log = self.host_token = None
        self.tables = {}
        self.env = {key: value for key, value in os.environ.items()
                    if key not in {"PYTEST_VERSION", "PYTHONPATH", "DJANGO_SETTINGS_MODULE"}}
        # As production runs (the README): DEBUG off, a key and the hosts of its own.
        self.env.update(DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="companion.settings",
                        SECRET_KEY=secrets.token_urlsafe(50), DEBUG="0",
                        ALLOWED_HOSTS="127.0.0.1", TIME_ZONE="UTC", PYTHONPATH=str(self.worktree))

    def prepare(self):
        """The worktree (made once) with its static files collected as `make run` does, and the
        database made anew and migrated."""
        if not self.worktree.exists():
            say(f"{self.name}: git worktree add {self.worktree} ({self.short})")
            git("worktree", "add", "--detach", str(self.worktree), self.sha)
        elif git("rev-parse", "HEAD", cwd=self.worktree) != self.sha:
            sys.exit(f"{self.worktree} is not at {self.short}: move it away and run again")
        if not (self.worktree / "staticfiles" / "staticfiles.json").exists():
            say(f"{self.name}: collectstatic in {self.worktree}")
            self.manage("collectstatic", "--noinput", "-v0")
        import psycopg
        from psycopg import sql

        parts = urlsplit(self.url)
        name = sql.Identifier(parts.path.lstrip("/"))
        with psycopg.connect(urlunsplit(parts._replace(path="/postgres")),
                             autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))
            conn.execute(sql.SQL("CREATE DATABASE {}").format(name))
        say(f"{self.name}: database {parts.path.lstrip('/')} made anew; migrating")
        self.manage("migrate", "--noinput", "-v0")
        self.manage("createcachetable", "-v0")  # the rate limits' table (a join reads it)

    def manage(self, *command):
        done = subprocess.run([str(PYTHON), "manage.py", *command], cwd=self.worktree,
                              env=self.env, capture_output=True, text=True, timeout=600)
        if done.returncode:
            sys.exit(f"{self.name}: manage.py {' '.join(command)} failed:\n{done.stderr[-3000:]}")

    def start(self):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        # The wrapper comes from main's bench/ (--app-dir) and puts the worktree first on
        # sys.path: `companion` and `games` are the revision's.
        command = [str(PYTHON), "-m", "uvicorn", "--factory", "ab_server:app",
                   "--app-dir", str(ROOT / "bench"), "--host", "127.0.0.1", "--port", str(port),
                   "--workers", "1", "--lifespan", "off", "--log-level", "warning",
                   "--no-access-log", "--timeout-graceful-shutdown", "2"]
        self.log = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        # A session of its own: Ctrl-C reaches the bench alone, which then stops the server.
        self.process = subprocess.Popen(command, cwd=self.worktree, env=self.env,
                                        stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.process.poll() is None:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/api/health/", timeout=2).status_code == 200:
                    return say(f"{self.name}: {self.short} serving on {self.base}")
            time.sleep(0.25)
        sys.exit(f"{self.name}: the server did not start: see {self.log_path}")

    def stop(self):
        if self.process is not None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(15)
            self.process.kill()  # nothing when it has stopped
            self.process.wait(5)
            self.log.close()
            self.process = None

    async def counts(self, client):
        response = await client.get(f"{self.base}/__bench/counts")
        response.raise_for_status()
        return response.json()

    async def seat(self, game, count):
        """`count` tables of the game through the API: the host opens each, a guest joins each
        seat, the host plays the preparing moves; each table's id, tokens and state."""
        spec = GAMES[game]
        seats, mover = spec["seats"], spec["seats"] - 1
        names = [f"Rodela {seat + 1}" for seat in range(seats)]
        gate = asyncio.Semaphore(4)
        async with httpx.AsyncClient(base_url=self.base, timeout=30) as client:
            if not self.host_token:
                self.host_token = expect(await client.post("/api/auth/register/", json={
                    "username": "ab-host", "password": secrets.token_urlsafe(16)}), 201,
                    "register")["token"]
            host = {"Authorization": f"Token {self.host_token}"}

            async def one():
                async with gate:
                    session = expect(await client.post("/api/sessions/", headers=host, json={
                        "game": game, "players": names, "options": spec["options"]}), 201,
                        f"{game}: open a session")
                    tokens = [expect(await client.post("/api/join/", json={
                        "code": session["code"], "seat": seat}), 201, "join")["token"]
                        for seat in range(seats)]
                    state = session["state"]
                    for kind, data in spec["prepare"]:
                        data = {key: mover if value == "mover" else value
                                for key, value in data.items()}
                        answer = expect(await client.post(
                            f"/api/sessions/{session['id']}/moves/", headers=host,
                            json={"type": kind, **data}), 201, f"{game}: {kind}")
                        state = answer["session"]["state"]
                    return {"id": session["id"], "tokens": tokens, "mover": mover, "state": state}

            self.tables[game] = await asyncio.gather(*(one() for _ in range(count)))


async def hold_stream(base, path, header, ids, times, ready, lost):
    """A phone's stream on a plain socket (a phone reads on its own processor; an HTTP client's
    machinery per event would load the server's cores): each time the stream's `id:` grows, the
    new id and the instant it was read. Read by lines, chunks and all: a chunk is whole events,
    which end with a newline, so a chunk's size is a line of its own, never one starting `id: `."""
    address = urlsplit(base)
    writer = None
    try:
        reader, writer = await asyncio.open_connection(address.hostname, address.port)
        writer.write((f"GET {path} HTTP/1.1\r\nHost: {address.netloc}\r\n{header}\r\n"
                      "Accept: text/event-stream\r\n\r\n").encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        if int(head.split(b" ", 2)[1]) != 200:
            raise ConnectionError(head.split(b"\r\n", 1)[0].decode())
        ready.set()
        buffer = b""
        while data := await reader.read(65536):
            now = time.monotonic()
            *lines, buffer = (buffer + data).split(b"\n")
            for line in lines:
                if line.startswith(b"id: ") and line[4:].isdigit() and int(line[4:]) > (
                        ids or [-1])[-1]:
                    ids.append(int(line[4:]))
                    times.append(now)
        raise ConnectionResetError("the server closed the stream")
    except (OSError, ValueError, asyncio.IncompleteReadError, TimeoutError) as error:
        lost.append(f"{type(error).__name__}: {error}")
    finally:
        ready.set()
        if writer is not None:
            writer.close()


class Phones:
    """A game's tables on one side: seats 0..N-2 hold the stream; any seat may post, on a
    connection of its own opened at its first move."""

    def __init__(self, side, game, stream):
        self.side, self.game, self.stream = side, game, stream
        self.tables, self.move = side.tables[game], GAMES[game]["move"]
        self.listeners = GAMES[game]["seats"] - 1
        self.arrivals = [[([], []) for _ in range(self.listeners)] for _ in self.tables]
        self.busy = [False] * len(self.tables)
        self.readers, self.clients, self.lost = [], {}, []

    async def open(self):
        for table, arrivals in zip(self.tables, self.arrivals, strict=True):
            for phone, (ids, times) in enumerate(arrivals):  # one after another, as phones come
                token = table["tokens"][phone]
                if self.stream == "page":  # the page's stream knows its phone by a cookie
                    path, header = f"/s/{table['id']}/stream/", f"Cookie: guest{table['id']}="
                else:
                    path, header = f"/api/sessions/{table['id']}/events/", "X-Guest-Token: "
                ready = asyncio.Event()
                self.readers.append(asyncio.create_task(hold_stream(
                    self.side.base, path, header + token, ids, times, ready, self.lost)))
                await asyncio.wait_for(ready.wait(), 15)
        await asyncio.sleep(1.0)  # every stream subscribed
        if self.lost:
            sys.exit(f"{self.side.name} {self.game}: streams refused: {self.lost[:3]}")

    async def close(self):
        for reader in self.readers:
            reader.cancel()
        await asyncio.gather(*self.readers, return_exceptions=True)
        for client in self.clients.values():
            await client.aclose()

    async def post(self, index, window):
        table = self.tables[index]
        body = self.move(table["state"], table["mover"])
        phone = body.pop("phone", body.get("seat", table["mover"]))
        headers = {"X-Guest-Token": table["tokens"][phone]}
        client = self.clients.get((index, phone))
        if client is None:
            client = self.clients[(index, phone)] = httpx.AsyncClient(
                base_url=self.side.base, timeout=10, verify=TLS,
                limits=httpx.Limits(max_connections=1, max_keepalive_connections=1))
        try:
            window["requests"] += 1
            sent = time.monotonic()
            response = await client.post(f"/api/sessions/{table['id']}/moves/", json=body,
                                         headers=headers)
            answered = time.monotonic()
            if response.status_code != 201:
                window["errors"][f"HTTP {response.status_code}"] += 1
                if 400 <= response.status_code < 500:  # the state moved on: the phone reads it
                    window["requests"] += 1
                    again = await client.get(f"/api/sessions/{table['id']}/", headers=headers)
                    if again.status_code == 200:
                        table["state"] = again.json()["state"]
                return
            reply = response.json()
            table["state"] = reply["session"]["state"]
            commit = response.headers.get("x-bench-commit")
            window["posts"].append(answered - sent)
            window["moves"].append((index, reply["session"]["version"], sent,
                                    float(commit) if commit else None))
        except httpx.HTTPError as error:
            window["errors"][type(error).__name__] += 1
        finally:
            self.busy[index] = False

    async def window(self, rate, seconds):
        """Open loop: a move every 1/rate s to the next table whose phone is not waiting for an
        answer (a table's next move follows from its last answer), never waiting for one. The
        bench's garbage collector is off meanwhile: a full collection over the arrivals kept
        would stall its sending and reading, and be measured as the server's."""
        gc.collect()
        gc.disable()
        try:
            return await self._window(rate, seconds)
        finally:
            gc.enable()

    async def _window(self, rate, seconds):
        window = {"moves": [], "posts": [], "errors": Counter(), "requests": 0}
        total, count, in_flight = max(1, round(rate * seconds)), len(self.tables), set()
        start = time.monotonic()
        for number in range(total):
            delay = start + number / rate - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            index = next((candidate % count for candidate in range(number, number + count)
                          if not self.busy[candidate % count]), None)
            if index is None:
                window["errors"]["not sent"] += 1
                continue
            self.busy[index] = True
            task = asyncio.create_task(self.post(index, window))
            in_flight.add(task)
            task.add_done_callback(in_flight.discard)
        if in_flight:
            await asyncio.wait(in_flight, timeout=15)
        # Every phone's last push (bounded wait): the counts after then hold its renders.
        last = {}
        for index, version, *_ in window["moves"]:
            last[index] = max(last.get(index, 0), version)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not all(
                ids and ids[-1] >= version for index, version in last.items()
                for ids, _ in self.arrivals[index]):
            await asyncio.sleep(0.05)
        return window


async def measure(phones, counter, rate, seconds):
    """One measured window at `rate`: its figures, with the server's counts around it."""
    await asyncio.sleep(1.0)  # the last window's stragglers settle
    before = await phones.side.counts(counter)
    window = await phones.window(rate, seconds)
    after = await phones.side.counts(counter)
    since_commit, since_sent, expected = [], [], 0
    for index, version, sent, commit in window["moves"]:
        for ids, times in phones.arrivals[index]:
            expected += 1
            position = bisect.bisect_left(ids, version)
            if position < len(ids):
                since_sent.append(times[position] - sent)
                if commit is not None:
                    since_commit.append(times[position] - commit)
    moves = len(window["moves"])
    per_move = {key: (after.get(key, 0) - before.get(key, 0)) / moves if moves else None
                for key in ("queries:move", "queries:stream", "queries:background")}
    per_move["requests"] = window["requests"] / moves if moves else None
    return {"rate": rate, "moves": moves, "errors": window["errors"], "expected": expected,
            "post_p95": p95(window["posts"]), "commit_p95": p95(since_commit),
            "sent_p95": p95(since_sent), "found": len(since_sent),
            "commits": sum(move[3] is not None for move in window["moves"]), **per_move}


def line(side, game, result):
    errors = sum(result["errors"].values())
    return (f"{side.name} {game} {result['rate']:6.1f} moves/s: {result['moves']} moves, POST p95 "
            f"{ms(result['post_p95'])} ms, commit→phones p95 {ms(result['commit_p95'])} ms, "
            f"send→phones p95 {ms(result['sent_p95'])} ms, pushes {result['found']}/"
            f"{result['expected']}, {errors} errors"
            + (f" {dict(result['errors'])}" if errors else ""))


def held(result, limit=KNEE_P95):
    return (result["post_p95"] is not None and result["post_p95"] <= limit
            and sum(result["errors"].values()) <= 0.01 * max(result["moves"], 1))


async def knee(phones, counter, seconds):
    """The last rate that held (0 when none did) and every window's figures: rates doubled from
    FIRST_RATE until one does not hold, then the gap between the last that held and the first
    that did not halved (geometrically) until within RESOLUTION."""
    good = bad = None
    tried = []
    while len(tried) < MAX_WINDOWS:
        if bad is None:
            rate = FIRST_RATE if good is None else good * 2
        elif good is None:
            rate = bad / 2
        elif bad / good > RESOLUTION:
            rate = math.sqrt(good * bad)
        else:
            break
        if not 2.5 <= rate <= MAX_RATE:
            break
        for attempt in range(2):
            result = await measure(phones, counter, rate, seconds)
            tried.append(result)
            narrow = not held(result) and held(result, NARROW_MISS * KNEE_P95) and not attempt
            say(line(phones.side, phones.game, result) + (
                " -> held" if held(result) else " -> narrowly missed: once more" if narrow
                else " -> did not hold"))
            if not narrow:
                break
        good, bad = (rate, bad) if held(result) else (good, rate)
    return good or 0.0, tried


async def play(args, side, game):
    """One side, one game: the phones opened and warmed up, the knee, the fixed rate."""
    phones = Phones(side, game, args.stream)
    async with httpx.AsyncClient(timeout=10) as counter:
        say(f"{side.name} {game}: opening {len(phones.tables) * phones.listeners} streams")
        await phones.open()
        try:
            # Unmeasured: a server new to these tables renders each once and fills its pool.
            await phones.window(WARM_UP_RATE, WARM_UP_SECONDS)
            found, tried = await knee(phones, counter, args.seconds)
            fixed = await measure(phones, counter, args.rate, args.fixed_seconds)
            say(line(side, game, fixed) + " (the fixed rate)")
        finally:
            await phones.close()
    return {"knee": found, "tried": tried, "fixed": fixed, "lost": len(phones.lost)}


async def run(args, sides):
    for side in sides:
        for game in args.games:
            started = time.monotonic()
            await side.seat(game, args.tables)
            say(f"{side.name}: {args.tables} tables of {game} seated in "
                f"{time.monotonic() - started:.1f} s")
    results = {side.name: {} for side in sides}
    for number, game in enumerate(args.games):
        for side in sides if number % 2 == 0 else sides[::-1]:
            results[side.name][game] = await play(args, side, game)
    return results


def report(args, sides, results, command, when, load):
    def number(value):
        return "–" if value is None else f"{value:.2f}"

    def cells(fixed):
        move, stream = fixed["queries:move"], fixed["queries:stream"]
        return " | ".join([ms(fixed["post_p95"]), ms(fixed["commit_p95"]), ms(fixed["sent_p95"]),
                           number(fixed["requests"]),
                           f"{number(None if move is None else move + stream)} = "
                           f"{number(move)} + {number(stream)}"])

    def knee(value):
        return f"≥ {value:.0f}" if value >= MAX_RATE else f"{value:.1f}" if value else "< 10"

    heads = ["POST p95 (ms)", "commit→phones p95 (ms)", "send→phones p95 (ms)",
             "requests/move", "queries/move = POST + streams"]
    a, b = sides
    lines = [f"## A/B of the live table, {when}", "", f"    {command}", "",
             f"- A = {a.short}: {a.subject[:90]}", f"- B = {b.short}: {b.subject[:90]}", "",
             f"{args.tables} tables per game, a phone per seat, every seat but the last holding "
             f"the {args.stream} stream; one uvicorn worker per side; PostgreSQL. The knee: the "
             f"highest rate whose move POST p95 held ≤ 100 ms over {args.seconds:g} s (to within "
             f"10%); then {args.fixed_seconds:g} s at {args.rate:g} moves/s. {os.cpu_count()} "
             f"cores for the bench, both servers and PostgreSQL; load average before: {load}.",
             "", "| game | A knee (moves/s) | B knee (moves/s) | B/A | "
             + " | ".join(f"B at {args.rate:g}/s: {head}" for head in heads) + " |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for game in args.games:
        knee_a, knee_b = results["A"][game]["knee"], results["B"][game]["knee"]
        lines.append(f"| {game} | {knee(knee_a)} | {knee(knee_b)} | "
                     f"{f'{knee_b / knee_a:.2f}' if knee_a else '–'} | "
                     f"{cells(results['B'][game]['fixed'])} |")
    lines += ["", f"A at {args.rate:g} moves/s, beside it:", "",
              "| game | " + " | ".join(f"A: {head}" for head in heads) + " |",
              "|---|---:|---:|---:|---:|---|"]
    lines += [f"| {game} | {cells(results['A'][game]['fixed'])} |" for game in args.games]
    lines.append("")
    for side in sides:
        for game in args.games:
            result, fixed = results[side.name][game], results[side.name][game]["fixed"]
            windows = ", ".join(f"{r['rate']:.0f}: {ms(r['post_p95'])}" for r in result["tried"])
            lines.append(f"- {side.name} {game}, the knee's windows (moves/s: POST p95 ms): "
                         f"{windows}; at {args.rate:g}/s {sum(fixed['errors'].values())} errors, "
                         f"pushes {fixed['found']}/{fixed['expected']}, commits seen "
                         f"{fixed['commits']}/{fixed['moves']}, {result['lost']} streams lost, "
                         f"{number(fixed['queries:background'])} queries/move outside requests")
    return "\n".join(lines) + "\n"


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", required=True, help="the revision before")
    parser.add_argument("--b", required=True, help="the revision after")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seconds", type=float, default=8, help="each window of the knee")
    parser.add_argument("--rate", type=float, default=40, help="the fixed rate, moves/s")
    parser.add_argument("--fixed-seconds", type=float, help="default: 1.5 × --seconds")
    parser.add_argument("--tables", type=int, default=50, help="per game and side")
    parser.add_argument("--stream", choices=("page", "api"), default="page",
                        help="/s/{id}/stream/ (the table page's) or /api/sessions/{id}/events/")
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL, help="its name + _a, _b")
    args = parser.parse_args(argv)
    args.games = [game for game in args.games.split(",") if game]
    if not args.games or not set(args.games) <= set(GAMES):
        parser.error(f"--games among {', '.join(GAMES)}")
    args.fixed_seconds = args.fixed_seconds or 1.5 * args.seconds
    if not (1 <= args.seconds <= 120 and 1 <= args.fixed_seconds <= 300
            and 1 <= args.rate <= MAX_RATE and 2 <= args.tables <= 200):
        parser.error("keep it sane: seconds 1-120, fixed seconds 1-300, rate 1-640, tables 2-200")
    parts = urlsplit(args.database_url)
    name = parts.path.lstrip("/")
    if (parts.scheme not in {"postgres", "postgresql"} or parts.hostname != "127.0.0.1"
            or not name or name in PROTECTED_DATABASES or name.startswith("test_")):
        parser.error("--database-url: PostgreSQL on 127.0.0.1, a database name of the bench's own")
    return args


def main(argv=None):
    args = parse_args(argv)
    command = shlex.join([".venv/bin/python", "bench/ab.py", *sys.argv[1:]])
    OUT.mkdir(parents=True, exist_ok=True)
    # One run at a time: a second would drop the first's databases, and share its cores.
    lock = open(Path(tempfile.gettempdir()) / "companion-ab.lock", "w")  # noqa: SIM115 - held
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        sys.exit("another bench/ab.py is running on this machine: wait for it to end")
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = Path("/proc/loadavg").read_text().split()[0]
    parts = urlsplit(args.database_url)
    sides = [Side(name, rev, urlunsplit(parts._replace(path=f"{parts.path}_{name.lower()}")),
                  stamp) for name, rev in (("A", args.a), ("B", args.b))]
    # Ctrl-C (even where a shell started the bench with it ignored) and SIGTERM end the run
    # through the `finally` below, which stops the servers.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))
    started = time.monotonic()
    try:
        for side in sides:
            side.prepare()
            side.start()
        try:  # the servers run on uvloop; so do the phones
            from uvloop import run as runner
        except ImportError:
            runner = asyncio.run
        results = runner(run(args, sides))
    finally:
        for side in sides:
            side.stop()
    text = report(args, sides, results, command, when, load)
    path = OUT / f"ab-{stamp}.md"
    path.write_text(text)
    print(f"\n{text}")
    say(f"written to {path.relative_to(ROOT)} in {(time.monotonic() - started) / 60:.1f} min")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("interrupted: the servers are stopped")
