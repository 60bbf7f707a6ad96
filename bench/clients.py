"""Many and slow clients: thousands of open event streams and hundreds of connections that send
their request a byte a second, held while phones play moves at a steady rate. Prints the move
POST p95 and how the streams and slow connections fared (bench/RESULTS.md).

    .venv/bin/python bench/clients.py [--rev HEAD] [--streams 2000] [--slow 200] [--rate 40]

One revision is served as bench/ab.py serves each side (its worktree, a database made anew, one
uvicorn worker wrapped by bench/ab_server.py, PostgreSQL), and its tables are seated the same way.
Then, in order:
- the played tables' phones open their streams (every seat but the last, as in ab.py), and the
  rest of --streams are the phones of tables opened and left idle, --per-table on each (a move
  wakes the streams of its own table);
- --slow connections each send the first bytes of a request, one byte a second, for as long as
  the bench runs (the server may close them: how many it did is printed);
- moves are posted open loop at --rate for --seconds, as ab.py's fixed-rate window.
"""

import argparse
import asyncio
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import ab  # noqa: E402

SLOW_REQUEST = b"GET /api/health/ HTTP/1.1\r\nHost: bench\r\nX-Slow: " + b"x" * 4000


async def idle_streams(side, count, per_table, lost):
    """`count` more API event streams on tables opened and left idle, `per_table` on each (the
    phones of tables where nobody is playing just now), opened with the host's token."""
    readers, gate = [], asyncio.Semaphore(20)
    host = {"Authorization": f"Token {side.host_token}"}
    names = [f"Idle {seat + 1}" for seat in range(per_table + 1)]

    async def table(client, streams):
        async with gate:
            session = ab.expect(await client.post("/api/sessions/", headers=host, json={
                "game": "pad", "players": names, "options": {"game": "Idle"}}), 201, "idle")
            for _ in range(streams):
                ready = asyncio.Event()
                readers.append(asyncio.create_task(ab.hold_stream(
                    side.base, f"/api/sessions/{session['id']}/events/",
                    f"Authorization: Token {side.host_token}", [], [], ready, lost)))
                await asyncio.wait_for(ready.wait(), 30)

    async with httpx.AsyncClient(base_url=side.base, timeout=30) as client:
        await asyncio.gather(*(table(client, min(per_table, count - start))
                               for start in range(0, count, per_table)))
    return readers


async def slow_client(base, closed, stop):
    """A connection that sends its request a byte a second until `stop`; counted in `closed`
    when the server closes it first."""
    address = urlsplit(base)
    reader, writer = await asyncio.open_connection(address.hostname, address.port)
    try:
        for byte in SLOW_REQUEST:
            if stop.is_set():
                return
            writer.write(bytes([byte]))
            await writer.drain()
            try:
                await asyncio.wait_for(stop.wait(), 1.0)
            except TimeoutError:
                if reader.at_eof():
                    break
        closed.append(1)
    except (ConnectionError, OSError):
        closed.append(1)
    finally:
        writer.close()


async def run(args, side):
    await side.seat(args.game, args.tables)
    phones = ab.Phones(side, args.game, args.stream)
    await phones.open()
    opened = len(phones.readers)
    lost = []
    extra = await idle_streams(side, max(0, args.streams - opened), args.per_table, lost)
    stop, closed = asyncio.Event(), []
    slow = [asyncio.create_task(slow_client(side.base, closed, stop)) for _ in range(args.slow)]
    await asyncio.sleep(3)  # every slow connection has started its request
    ab.say(f"{opened + len(extra)} streams open, {args.slow} slow connections sending")
    async with httpx.AsyncClient(timeout=10) as counter:
        result = await ab.measure(phones, counter, args.rate, args.seconds)
        started = time.monotonic()
        health = (await counter.get(f"{side.base}/api/health/")).status_code
        health_ms = (time.monotonic() - started) * 1000
    still_open = sum(not reader.done() for reader in phones.readers + extra)
    stop.set()
    await asyncio.gather(*slow, return_exceptions=True)
    for reader in extra:
        reader.cancel()
    await asyncio.gather(*extra, return_exceptions=True)
    await phones.close()
    return result, {"streams": opened + len(extra), "streams_open_at_end": still_open,
                    "streams_lost": len(lost) + len(phones.lost), "slow": args.slow,
                    "slow_closed_by_server": len(closed), "health": health,
                    "health_ms": health_ms}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--game", default="pad", choices=sorted(ab.GAMES))
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--slow", type=int, default=200)
    parser.add_argument("--stream", choices=["page", "api"], default="page",
                        help="the played tables' phones' stream (the idle ones hold the API's)")
    parser.add_argument("--per-table", type=int, default=5,
                        help="the streams of each idle table")
    parser.add_argument("--rate", type=float, default=40.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--database-url",
                        default="postgres://postgres@127.0.0.1:5432/companion_clients")
    args = parser.parse_args(argv)
    ab.OUT.mkdir(exist_ok=True)
    side = ab.Side("clients", args.rev, args.database_url, time.strftime("%Y%m%d-%H%M%S"))
    side.prepare()
    side.start()
    try:
        result, held = asyncio.run(run(args, side))
    finally:
        side.stop()
    ab.say(ab.line(side, args.game, result))
    print(f"\n| revision | played tables' streams | streams (open at the end, lost) | "
          f"slow connections (closed by the server) | moves/s | moves | POST p95 (ms) | "
          f"commit→phones p95 (ms) | errors | "
          f"health after (ms) |\n|---|---|---|---|---:|---:|---:|---:|---:|---:|\n"
          f"| {side.short} | {args.stream} | {held['streams']} ({held['streams_open_at_end']}, "
          f"{held['streams_lost']}) | {held['slow']} ({held['slow_closed_by_server']}) | "
          f"{args.rate:g} | {result['moves']} | {ab.ms(result['post_p95'])} | "
          f"{ab.ms(result['commit_p95'])} | {sum(result['errors'].values())} | "
          f"{held['health']} in {held['health_ms']:.0f} |")


if __name__ == "__main__":
    main()
