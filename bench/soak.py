"""Memory stays flat (issue #15): sessions created, played and finished for minutes on end.

    .venv/bin/python bench/soak.py [--sessions 10000] [--seconds 600] [--server granian]
                                   [--workers 2] [--database-url postgres://.../companion_bench]

Starts the bare app (no counting wrapper) with N workers and plays `--sessions` score pad games
on an open-loop schedule spread over `--seconds`: each one is created by the host (API token),
joined by a phone at seat 0, whose page stream is opened, played to its end by the host (two
rounds, `round` twice: a round is the host's; the second finishes the game), and the stream
closed once it has the last version. Each worker's resident memory (VmRSS) is sampled every
5 s; the figure is each worker's memory at the end against after the warm-up (the first
`--warmup` of the sessions, 30% by default: by then each process has seen more than the 1,000
sessions its fragment cache keeps, so the cache is full).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import live as bench  # noqa: E402

GAME = {"game": "pad", "players": ["Ana", "Ben"],
        "options": {"game": "Soak", "win": "high", "rounds": 2}}
ROUND = {"type": "round", "scores": [3, 5]}


def host_token():
    from django.contrib.auth import get_user_model

    from companion import services
    from companion.models import Session

    host, _ = get_user_model().objects.get_or_create(username="bench-soak")
    Session.objects.filter(owner=host).delete()  # the previous soak's sessions
    # The roster's players exist before the sessions come at once (two first sessions racing to
    # add the same new player is another matter than memory).
    services.session_create(owner=host, game=GAME["game"], players=GAME["players"],
                            options=GAME["options"]).delete()
    return services.token_for(user=host)


async def one_session(client, token, stats):
    """Create, join, watch, play to the end, stop watching. True when it all went as it should."""
    host = {"Authorization": f"Token {token}"}
    response = await client.post("/api/sessions/", json=GAME, headers=host)
    if response.status_code != 201:
        stats.error(f"create HTTP {response.status_code}")
        return False
    session = response.json()
    response = await client.post("/api/join/", json={"code": session["code"], "seat": 0})
    if response.status_code != 201:
        stats.error(f"join HTTP {response.status_code}")
        return False
    guest = response.json()["token"]
    arrivals = ([], [])
    ready = asyncio.Event()
    reader = asyncio.create_task(bench.read_stream(
        str(client.base_url), f"/s/{session['id']}/stream/", f"guest{session['id']}={guest}",
        arrivals, ready, SimpleNamespace(stats=stats)))
    try:
        await asyncio.wait_for(ready.wait(), 10)
        version = None
        for _ in range(2):
            response = await client.post(f"/api/sessions/{session['id']}/moves/", json=ROUND,
                                          headers=host)
            if response.status_code != 201:
                stats.error(f"move HTTP {response.status_code}")
                return False
            version = response.json()["session"]["version"]
            finished = response.json()["session"]["status"] == "finished"
        if not finished:
            stats.error("not finished after its rounds")
            return False
        deadline = time.monotonic() + 5
        while not (arrivals[0] and arrivals[0][-1] >= version) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        if not (arrivals[0] and arrivals[0][-1] >= version):
            stats.error("the last version never reached the phone")
        return True
    except TimeoutError:
        stats.error("the stream did not open in 10 s")
        return False
    finally:
        reader.cancel()
        await asyncio.gather(reader, return_exceptions=True)


async def soak(base, token, sessions, seconds, concurrency, sample, warmup):
    """Run the schedule; sample() -> {pid: kB} every 5 s. Returns the figures."""
    import httpx

    stats = bench.Stats()
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    samples = []  # (seconds since start, sessions done, {pid: kB})
    done = ok = 0
    in_flight: set[asyncio.Task] = set()
    late = []
    start = time.monotonic()
    warm = None

    async def sampler():
        while True:
            samples.append((time.monotonic() - start, done, sample()))
            await asyncio.sleep(5)

    def finished(task):
        nonlocal done, ok, warm
        in_flight.discard(task)
        done += 1
        ok += bool(not task.cancelled() and task.exception() is None and task.result())
        if warm is None and done >= warmup:
            warm = (time.monotonic() - start, done, sample())

    # A client for each session played at once, as if each were another host's phone, each
    # with its own connection: through one pool as big as the sessions at once, httpcore looked
    # through every connection of it on each request, and the bench client took two thirds of a
    # core for 9 sessions a second on 2026-12-01 (bench/README.md, "A connection per phone").
    idle = asyncio.Queue()
    for _ in range(concurrency):
        idle.put_nowait(httpx.AsyncClient(
            base_url=base, limits=limits, timeout=httpx.Timeout(15, read=60),
            verify=bench.tls_context()))

    async def played(client):
        try:
            return await one_session(client, token, stats)
        finally:
            idle.put_nowait(client)

    watcher = asyncio.create_task(sampler())
    try:
        for number in range(sessions):
            due = start + number * seconds / sessions
            if time.monotonic() > start + 1.5 * seconds:
                stats.error("not started: the schedule ran 50% over its time")
                continue
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            client = await idle.get()  # a bounded number at once: wait for one to end
            late.append(max(0.0, time.monotonic() - due))
            task = asyncio.create_task(played(client))
            in_flight.add(task)
            task.add_done_callback(finished)
        if in_flight:
            await asyncio.wait(in_flight, timeout=60)
        await asyncio.sleep(2)  # the last streams closed on the server's side too
        end = (time.monotonic() - start, done, sample())
    finally:
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)
        while not idle.empty():
            await idle.get_nowait().aclose()
    return {"stats": stats, "samples": samples, "warm": warm, "end": end, "done": done,
            "ok": ok, "late": late, "elapsed": end[0]}


def memory_rows(result):
    warm, end = result["warm"], result["end"]
    rows = []
    for pid in sorted(end[2]):
        before, after = warm[2].get(pid), end[2][pid]
        peak = max(sample[2].get(pid, 0) for sample in [*result["samples"], warm, end])
        change = (after - before) / before if before else None
        rows.append((pid, before, after, peak, change))
    return rows


def report(result, args, server_kind):
    warm, end = result["warm"], result["end"]
    stats = result["stats"]
    errors = sum(stats.errors.values())
    lines = [f"Companion soak, {datetime.datetime.now():%Y-%m-%d %H:%M}", "",
             f"{server_kind} --workers {args.workers}, bare app, PostgreSQL; "
             f"{result['done']} sessions of the score pad (created by the host, joined by a "
             "phone, its page stream opened, two rounds played to the end by the host, the "
             f"stream closed) in {result['elapsed']:.0f} s ({result['ok']} complete, "
             f"{errors} errors"
             + (": " + ", ".join(f"{k}: {v}" for k, v in sorted(stats.errors.items()))
                if errors else "") + f"; start slipped p95 "
             f"{bench.ms(bench.percentile(result['late'], 95))} ms)", "",
             f"| worker | after warm-up ({warm[1]} sessions, {warm[0]:.0f} s) | at the end "
             f"({end[1]} sessions, {end[0]:.0f} s) | peak | change |",
             "|---|---:|---:|---:|---:|"]
    flat = True
    for pid, before, after, peak, change in memory_rows(result):
        flat = flat and change is not None and abs(change) <= 0.10
        lines.append(f"| pid {pid} | {before / 1024:.1f} MB | {after / 1024:.1f} MB | "
                     f"{peak / 1024:.1f} MB | "
                     + ("–" if change is None else f"{change * 100:+.1f}%") + " |")
    curve = " · ".join(f"{sample[1]}: " + "/".join(f"{kb / 1024:.0f}" for _, kb in
                                                   sorted(sample[2].items()))
                       for sample in result["samples"][::12])
    lines += ["", f"Memory (MB per worker) by sessions done, every minute: {curve}", "",
              "verdict: " + ("flat (each worker within 10% of after the warm-up)" if flat
                             else "NOT flat (a worker moved by more than 10%)")]
    return "\n".join(lines) + "\n", flat


def run(args, database_url, server_kind, log_path):
    """Start the server, soak it, stop it: (report text, flat?)."""
    token = host_token()
    from django.db import connections

    connections.close_all()
    with tempfile.TemporaryDirectory(prefix="companion-soak-") as counts_dir:
        server = bench.Server(database_url, args.workers, counts_dir, log_path, {}, True,
                              server_kind)
        try:
            def sample():
                return {pid: bench.rss_kb(pid) for pid in server.workers()}

            warmup = args.warmup if args.warmup else max(1, args.sessions * 3 // 10)
            result = asyncio.run(soak(server.url, token, args.sessions, args.seconds,
                                      args.concurrency, sample, warmup))
        finally:
            server.stop()
    return report(result, args, server_kind)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=10000)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--concurrency", type=int, default=64,
                        help="sessions being played at once, at most")
    parser.add_argument("--warmup", type=int, default=0,
                        help="sessions before the warm-up figure (default: 30%% of them)")
    parser.add_argument("--server", choices=bench.SERVERS, default="uvicorn")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database-url", default=bench.DEFAULT_DATABASE_URL)
    args = parser.parse_args(argv)
    if not (1 <= args.sessions <= 100000 and 0 < args.seconds <= 3600
            and 1 <= args.concurrency <= 500 and 1 <= args.workers <= 16):
        parser.error("keep the figures sane: sessions ≤ 100,000, seconds ≤ 3,600")
    return args


def main(argv=None):
    args = parse_args(argv)
    bench.check_database_url(args.database_url)
    bench.create_database(args.database_url)
    bench.setup_django(args.database_url)
    bench.OUT.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    text, flat = run(args, args.database_url, args.server,
                     bench.OUT / f"soak-server-{stamp}.log")
    path = bench.OUT / f"soak-{stamp}.md"
    path.write_text(text)
    print(text)
    print(f"written to {path.relative_to(bench.ROOT)}")
    return 0 if flat else 1


if __name__ == "__main__":
    sys.exit(main())
