"""What a move costs one server process, against what a health request costs it: both through
the ASGI app in this process, one at a time, no server and no network.

    .venv/bin/python bench/move_cost.py [--game knights] [--requests 1000] [--streams 5]
                                        [--database-url postgres://.../companion_bench]

Seats one table of the game in the bench's database (bench/live.py's helpers), opens `--streams`
of its page streams in this process (so its listener hears each move's NOTIFY and its streams
push it, as in a server process holding phones of the table), then:

- `GET /api/health/` `--requests` times;
- the bench's move for that game (bench/live.py's GAMES) `--requests` times, each waiting until
  every stream has pushed the move's version.

Prints the CPU time of this process per request (and of its event loop's thread, and of its
listener's `heard`), and the wall time. `--pieces`: under each line, the thread CPU spent inside
each piece of the request's path (PIECES: the request on its thread, Django around the view, DRF,
the access query, the move's parts), summed around each call, per request; a piece called inside
another is counted in both. In bench/live.py a move costs the machine more than this
(the phones' pushes, two processes, contention on a busy server); the difference between the two
lines here is what the move's own work costs beyond the request machinery every request pays.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import importlib
import json
import os
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import live as bench  # noqa: E402

VERSION_PUSHED = re.compile(rb"id: (\d+)\nevent: version")


def scope_of(method, path, headers=()):
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
            "query_string": b"", "root_path": "",
            "headers": [(b"host", b"127.0.0.1"), *headers],
            "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 80)}


def receiver(body=b""):
    """An ASGI receive: the request's body, then nothing (the client never goes away)."""
    sent = False

    async def receive():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()

    return receive


async def call(application, method, path, body=b"", headers=()):
    answer = {"status": None, "body": b""}

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    await application(scope_of(method, path, headers), receiver(body), send)
    return answer


class Phones:
    """Page streams of one table held in this process: each notes the last version pushed."""

    def __init__(self, application, table, count):
        self.application, self.table, self.count = application, table, count
        self.pushed = [0] * count
        self.changed = asyncio.Condition()

    async def hold(self, phone):
        cookie = f"guest{self.table['id']}={self.table['tokens'][phone]}".encode()

        async def send(message):
            if message["type"] == "http.response.body":
                for found in VERSION_PUSHED.finditer(message.get("body", b"")):
                    self.pushed[phone] = int(found.group(1))
                async with self.changed:
                    self.changed.notify_all()

        await self.application(
            scope_of("GET", f"/s/{self.table['id']}/stream/",
                     [(b"cookie", cookie), (b"accept", b"text/event-stream")]),
            receiver(), send)

    async def until(self, version):
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(
                lambda: min(self.pushed, default=version) >= version), 10)


# The pieces `--pieces` times, in the order printed: (module, object or None, attribute, how deep
# it sits in the ones above it, what it is).
PIECES = (
    ("companion.handler", "Handler", "_answer", 0, "the request on its view's thread"),
    ("companion.handler", "_SyncChain", "get_response", 1, "Django: the middleware and the view"),
    ("rest_framework.views", "APIView", "dispatch", 2, "DRF's dispatch and the view"),
    ("rest_framework.views", "APIView", "initial", 3, "DRF: authentication, negotiation"),
    ("rest_framework.response", "Response", "render", 3, "DRF: the answer's JSON"),
    ("companion.api.views", None, "session_access_to_play", 3, "the access query"),
    ("companion.api.views", None, "move_payload", 3, "the move's fields checked"),
    ("companion.api.views", None, "played_reply", 3, "the 201 answer"),
    ("companion.services", None, "move_play", 3, "move_play"),
    ("companion.streams", None, "render_ahead", 4, "the render ahead"),
    ("companion.live", None, "notice", 4, "the NOTIFY's payload packed"),
    ("companion.engine", None, "apply", 4, "the rules"),
    ("companion.live", None, "deliver", 4, "this process's streams handed the version"),
)


class Pieces:
    """Thread CPU spent inside functions, summed over their calls, from any thread."""

    def __init__(self):
        self.spent, self.calls = {}, {}

    def wrap(self, function, label):
        self.spent.setdefault(label, 0.0)
        self.calls.setdefault(label, 0)

        @functools.wraps(function)
        def timed(*args, **kwargs):
            started = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.spent[label] += time.thread_time() - started
                self.calls[label] += 1

        return timed

    def install(self, pieces=PIECES):
        for module_name, owner_name, attribute, depth, what in pieces:
            module = importlib.import_module(module_name)
            owner = getattr(module, owner_name) if owner_name else module
            label = "· " * depth + what
            setattr(owner, attribute, self.wrap(getattr(owner, attribute), label))

    def reset(self):
        for label in self.spent:
            self.spent[label], self.calls[label] = 0.0, 0

    def lines(self, count):
        """Each piece called during `count` requests: its CPU per request and calls per request."""
        return [f"| {label} | {self.spent[label] / count * 1000:.2f} ms "
                f"({self.calls[label] / count:.2f} calls) | | | |"
                for label in self.spent if self.calls[label]]


PIECES_TIMED = None  # a Pieces when --pieces


async def measure(label, request, count):
    for _ in range(max(20, count // 20)):  # warm: templates compiled, pool connections open
        await request()
    if PIECES_TIMED is not None:
        PIECES_TIMED.reset()
    cpu, loop_cpu, wall = time.process_time(), time.thread_time(), time.perf_counter()
    heard_before = LISTENER.spent["heard"]
    for _ in range(count):
        await request()
    spent = (time.process_time() - cpu, time.thread_time() - loop_cpu,
             LISTENER.spent["heard"] - heard_before, time.perf_counter() - wall)
    print(f"| {label} | " + " | ".join(f"{seconds / count * 1000:.2f} ms" for seconds in spent)
          + " |")
    if PIECES_TIMED is not None:
        print("\n".join(PIECES_TIMED.lines(count)))


# The CPU time of this process's listener in live.heard (its own column of every line).
LISTENER = Pieces()


def time_the_listener():
    from companion import live

    live.heard = LISTENER.wrap(live.heard, "heard")


async def run(args, table):
    from companion.asgi import application

    poster = bench.Poster(args.game, table)
    phones = Phones(application, table, args.streams)
    holders = [asyncio.create_task(phones.hold(phone)) for phone in range(args.streams)]
    await asyncio.sleep(0.5)  # every stream subscribed
    url = f"/api/sessions/{table['id']}/moves/"

    async def health():
        answer = await call(application, "GET", "/api/health/")
        assert answer["status"] == 200, answer

    async def move():
        body, headers = poster.next_move()
        raw = json.dumps(body).encode()
        answer = await call(application, "POST", url, raw, [
            (b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode()),
            (b"x-guest-token", headers["X-Guest-Token"].encode())])
        assert answer["status"] == 201, answer
        reply = json.loads(answer["body"])
        poster.answered(reply)
        await phones.until(reply["session"]["version"])

    print(f"\n{args.game}, {args.streams} streams of the table in this process, "
          f"{args.requests} requests of each kind\n")
    print("| request | CPU of the process | of which the event loop's thread "
          "| of which the listener's | wall |")
    print("|---|---:|---:|---:|---:|")
    await measure("GET /api/health/", health, args.requests)
    await measure(f"a move ({args.game})", move, args.requests)
    for holder in holders:
        holder.cancel()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(bench.GAMES), default="knights")
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--streams", type=int, default=5)
    parser.add_argument("--database-url", default=bench.DEFAULT_DATABASE_URL)
    parser.add_argument("--pieces", action="store_true",
                        help="under each line, the CPU spent in each piece of the request's path")
    args = parser.parse_args(argv)
    if not 1 <= args.streams < bench.GAMES[args.game]["seats"]:
        parser.error(f"--streams: 1 to {bench.GAMES[args.game]['seats'] - 1} for {args.game}")
    table = bench.one_table(args.game, args.database_url, pool=True)  # the app runs here
    time_the_listener()
    if args.pieces:
        global PIECES_TIMED
        PIECES_TIMED = Pieces()
        PIECES_TIMED.install()
    bench.loop_runner()(run(args, table))
    os._exit(0)  # the listener's thread and the pool's workers: nothing to wait for


if __name__ == "__main__":
    main()
