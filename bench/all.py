"""Every figure of issue #15 in one run on one machine: `make bench-all`.

    .venv/bin/python bench/all.py [--tables 50] [--step-seconds 8] [--half-seconds 20]
                                  [--soak-seconds 600] [--soak-sessions 10000]

1. Seats `--tables` tables of each of the five games (a phone per seat; bench/live.py's GAMES
   says each game's repeated move).
2. For uvicorn, then granian, each with 2 workers: the yardstick (GET /api/health/, 20 clients,
   10 s) before the first game and again after each game, each game's knee weighed against the
   mean of the two beside it (the machine's speed drifts: on 2026-11-27 a health request cost
   the server 2.5 ms, then 4.5 ms ten minutes later, the machine otherwise idle); for each game
   the knee: 3 s played unmeasured at half the first rate, then
   windows of `--step-seconds` at rising rates (from a quarter of the yardstick, x1.25 a step;
   x0.6 down while the first does not hold), until the POST p95 passes 100 ms (or more than 1%
   of the moves fail); then two windows halving (geometrically) the gap between the last rate
   that held and the first that did not. The knee is the last rate that held.
3. The faster server (the one whose knees are higher, beyond the search's resolution, in most
   games; else uvicorn, which `make run` serves with, stays) again: each game
   at half its knee for `--half-seconds`, after 3 s played unmeasured (the server is new to the
   game's tables): POST and announce p95, requests and queries per move.
4. Two servers of that kind (1 worker each, two ports, one PostgreSQL), Alatriste's phones split
   between them, 5 s played unmeasured first (the servers are new): the announce to the phones
   on the other server.
5. The soak (bench/soak.py) on the faster server with 2 workers.

Prints every figure and writes them to bench/out/all-<time>.md. About 25 minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import live as bench  # noqa: E402
from bench import soak  # noqa: E402

GAMES = ("alatriste", "quixote", "knights", "rabbits", "pad")
KNEE_P95 = 0.100  # the POST p95 a rate holds under
HALF_POST_P95, HALF_ANNOUNCE_P95, CROSS_ANNOUNCE_P95 = 0.050, 0.025, 0.050
# Played first, unmeasured, at half the knee: a server new to a game's tables renders each once
# per process and opens its database connections (a window measured from the first second saw
# a POST p95 of 110 ms where the same window a few seconds on sees 20).
HALF_WARM_UP = 3.0
KNEE_WARM_UP = 3.0


def say(text):
    print(f"[{datetime.datetime.now():%H:%M:%S}] {text}", flush=True)


class Run:
    """One server (or two) with counters, and the windows played against it."""

    def __init__(self, args, kind, workers, servers=1, label=""):
        self.args = args
        self.kind = kind
        self.folder = tempfile.TemporaryDirectory(prefix="companion-all-")
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        self.servers = [bench.Server(args.database_url, workers, self.folder.name,
                                     bench.OUT / f"all-{kind}{label}{n}-{stamp}.log", {}, False,
                                     kind) for n in range(servers)]

    def stop(self):
        for server in self.servers:
            server.stop()
        self.folder.cleanup()

    def counts(self):
        return bench.server_counts(self.folder.name)


async def health(run, seconds):
    """The yardstick, with the server's CPU per request (what a move is weighed against)."""
    stats = bench.Stats()
    before = bench.cpu_snapshot(run.servers, run.args.database_url)
    result = await bench.health_phase(run.servers[0].url, seconds, 20, stats)
    after = bench.cpu_snapshot(run.servers, run.args.database_url)
    cpu = bench.cpu_delta(before, after)
    served = len(result["latencies"]) + result["errors"]
    wall = after["time"] - before["time"]
    result["cpu_ms"] = 1000 * cpu["server"] * wall / served if served else None
    result["cpu"] = cpu
    result["shares"] = bench.worker_shares(before, after)
    # The cores busy say which held the rate: the bench client (one process) or the server.
    say(f"{run.kind}: yardstick {result['rate']:.0f} req/s (p95 "
        f"{bench.ms(bench.percentile(result['latencies'], 95))} ms, server CPU "
        f"{fmt(result['cpu_ms'])} ms a request, workers' shares of it "
        f"{bench.shares_text(result['shares'])} %; cores busy: bench client "
        f"{cpu['bench']:.2f}, server {cpu['server']:.2f})")
    return result


async def window(run, phones, rate, seconds):
    """One window: the POST and announce figures, the server's counts and CPU."""
    marks = {}

    async def on_window(moment):
        if moment == "end":
            await asyncio.sleep(0.5)  # the workers write their counters every 0.25 s
        marks[moment] = {"counts": run.counts(),
                         "cpu": bench.cpu_snapshot(run.servers, run.args.database_url)}

    stats, times = await phones.window(rate, seconds, on_window)
    counts = bench.counts_delta(marks["start"]["counts"], marks["end"]["counts"])
    moves = len(stats.moves)
    errors = sum(stats.errors.values())
    since_commit, _sent, _answer, found, expected = bench.announce_latencies(
        stats, times["arrivals"])
    requests = sum(counts.get(f"requests:{kind}", 0)
                   for kind in ("move", "stream", "health", "other"))
    result = {
        "rate": rate, "moves": moves, "errors": errors, "error_kinds": dict(stats.errors),
        "achieved": moves / max(times["end_schedule"] - times["start"], 1e-9),
        "post_p50": bench.percentile(stats.post_latency, 50),
        "post_p95": bench.percentile(stats.post_latency, 95),
        "announce_p95": bench.percentile(since_commit, 95),
        "announce_p50": bench.percentile(since_commit, 50),
        "found": found, "expected": expected,
        "requests_per_move": requests / moves if moves else None,
        "queries_per_move": counts.get("queries:move", 0) / moves if moves else None,
        "stream_queries_per_move": counts.get("queries:stream", 0) / moves if moves else None,
        "fragments_per_push": stats.fragment_events / stats.pushes if stats.pushes else None,
        "bytes_per_push": stats.stream_bytes / stats.pushes if stats.pushes else None,
        "cpu": bench.cpu_delta(marks["start"]["cpu"], marks["end"]["cpu"]),
        "shares": bench.worker_shares(marks["start"]["cpu"], marks["end"]["cpu"]),
        "stats": stats, "arrivals": times["arrivals"],
    }
    # The server's CPU time per move, the renders' share of it (their thread CPU time).
    wall = marks["end"]["cpu"]["time"] - marks["start"]["cpu"]["time"]
    result["cpu_ms"] = 1000 * result["cpu"]["server"] * wall / moves if moves else None
    kinds = ("shared", "panel", "ahead")
    render = sum(counts.get(f"render_cpu:{kind}", 0) for kind in kinds)
    result["render_ms"] = 1000 * render / moves if moves else None
    result["renders_per_move"] = (sum(counts.get(f"renders:{kind}", 0) for kind in kinds)
                                  / moves if moves else None)
    return result


def held(result):
    return (result["post_p95"] is not None and result["post_p95"] <= KNEE_P95
            and result["errors"] <= 0.01 * max(result["moves"], 1))


async def knee(run, phones, start_rate, seconds, log):
    """The last rate that held, and every window tried."""
    tried = []

    async def attempt(rate):
        await asyncio.sleep(1.5)  # the previous window's last pushes and commits settle
        result = await window(run, phones, rate, seconds)
        tried.append(result)
        log(f"  {rate:6.1f} moves/s: POST p95 {bench.ms(result['post_p95'])} ms, announce p95 "
            f"{bench.ms(result['announce_p95'])} ms, {result['errors']} errors, server CPU "
            f"{result['cpu']['server']:.2f} (workers {bench.shares_text(result['shares'])} %) -> "
            f"{'held' if held(result) else 'did not hold'}"
            + (f" ({result['error_kinds']})" if result["errors"] else ""))
        return held(result)

    rate = max(2.0, start_rate)
    good = bad = None
    for _ in range(12):  # bounded: at most 12 windows a game
        if await attempt(rate):
            good = rate
            if bad is not None:
                break
            rate *= 1.25
        else:
            bad = rate
            if good is not None:
                break
            if rate <= 2.0:
                break
            rate = max(2.0, rate * 0.6)
    # Two halvings (geometric) of the last step: the knee to within about 6% (a step is 25%).
    for _ in range(2):
        if good is None or bad is None or bad / good <= 1.1:
            break
        middle = math.sqrt(good * bad)
        if await attempt(middle):
            good = middle
        else:
            bad = middle
    return good or 0.0, tried


async def play_game(run, tables, game, rates, seconds, mode, warm_up=0.0):
    """Open the phones of a game's tables, play the windows, close them. `warm_up`: seconds
    played at the same rate first and not measured (servers just started: their database pools
    open their connections and each process renders its tables once)."""
    phones = bench.Tables(tables, bench.GAMES[game]["seats"], [s.url for s in run.servers])
    await phones.open()
    try:
        if mode == "knee":
            # Unmeasured, at half the first window's rate: the first window would otherwise
            # measure a server new to these tables, and a first window that fails sends the
            # search down for good.
            await phones.window(rates / 2, KNEE_WARM_UP)
            return await knee(run, phones, rates, seconds, say)
        if warm_up:
            await phones.window(rates, warm_up)
        await asyncio.sleep(1.0)
        return await window(run, phones, rates, seconds)
    finally:
        await phones.close()


# Two knees closer than the search's resolution (a step of x1.25 halved twice: x1.057) are a
# tie: on 2026-11-26 two servers' knees of 103.9 and 98.3 moves/s, each the same rung of their
# searches, differed in their last digits, and those digits picked the server.
KNEE_RESOLUTION = 1.06


# What `make run` and the production recipe serve with: it stays unless another server is faster
# beyond the knee's resolution in most of the games (on 2026-11-27 the two tied, one game each,
# and a sum 0.8% higher would have switched the production server on noise).
SERVED = "uvicorn"


def faster_of(knees, served=SERVED):
    """The server faster than every other: a higher knee (beyond the knee's resolution) in more
    than half of the games; when none is, `served` stays. Not the sum of the knees: on
    2026-11-27 07:21 granian and uvicorn were each ahead in two games and granian's sum 6.9%
    higher, carried by one game whose windows were not even in order (granian held Alatriste at
    89 moves/s with a POST p95 of 37 ms, after 71 with 67 ms), and the runs before had uvicorn
    ahead or tied. Returns the server and whether it was faster (False: a tie, `served` kept)."""
    def wins(kind, other):
        return sum(knees[kind][game] > KNEE_RESOLUTION * knees[other][game]
                   for game in knees[kind])

    for kind in knees:
        if all(wins(kind, other) > len(knees[kind]) / 2 for other in knees if other != kind):
            return kind, True
    if served in knees:
        return served, False
    return max(knees, key=lambda kind: sum(knees[kind].values())), False


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--servers", default=",".join(bench.SERVERS))
    parser.add_argument("--health-seconds", type=float, default=10)
    parser.add_argument("--step-seconds", type=float, default=8)
    parser.add_argument("--half-seconds", type=float, default=20)
    parser.add_argument("--cross-seconds", type=float, default=20)
    parser.add_argument("--soak-seconds", type=float, default=600)
    parser.add_argument("--soak-sessions", type=int, default=10000)
    parser.add_argument("--database-url", default=bench.DEFAULT_DATABASE_URL)
    args = parser.parse_args(argv)
    args.games = [game for game in args.games.split(",") if game]
    args.servers = [kind for kind in args.servers.split(",") if kind]
    if not set(args.games) <= set(GAMES) or not set(args.servers) <= set(bench.SERVERS):
        parser.error(f"games among {', '.join(GAMES)}; servers among "
                     f"{', '.join(bench.SERVERS)}")
    return args


def main(argv=None):
    args = parse_args(argv)
    bench.check_database_url(args.database_url)
    bench.create_database(args.database_url)
    bench.setup_django(args.database_url)
    bench.OUT.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = Path("/proc/loadavg").read_text().split()[0]
    say(f"bench/all.py, {when}; load average {load}")
    tables = {}
    for game in args.games:
        tables[game] = bench.seat_tables(game, args.tables, bench.GAMES[game]["seats"])
    say(f"{args.tables} tables of each game seated in {time.monotonic() - started:.0f} s")
    runner = bench.loop_runner()

    # 2. The knees, server by server, each between two yardsticks.
    yardsticks, beside, every, knees, steps, health_cpu = {}, {}, {}, {}, {}, {}
    shares = {}  # kind -> each yardstick's workers' shares of the server's CPU
    busy = {}  # kind -> each yardstick's (bench client, server) cores busy
    for kind in args.servers:
        run = Run(args, kind, 2)
        try:
            sticks = [runner(health(run, args.health_seconds))]
            knees[kind], steps[kind], beside[kind] = {}, {}, {}
            for game in args.games:
                say(f"{kind}: the knee of {game}")
                # From a quarter of the yardstick up (a window past the knee costs the most:
                # its POSTs queue up), the second server from just under the first's knee.
                start = sticks[-1]["rate"] / 4
                if kind != args.servers[0] and knees[args.servers[0]][game]:
                    start = 0.8 * knees[args.servers[0]][game]
                knees[kind][game], steps[kind][game] = runner(play_game(
                    run, tables[game], game, start, args.step_seconds, "knee"))
                say(f"{kind}: {game} held {knees[kind][game]:.1f} moves/s")
                sticks.append(runner(health(run, args.health_seconds)))
                beside[kind][game] = (sticks[-2]["rate"] + sticks[-1]["rate"]) / 2
            every[kind] = [stick["rate"] for stick in sticks]
            shares[kind] = [stick["shares"] for stick in sticks]
            busy[kind] = [(stick["cpu"]["bench"], stick["cpu"]["server"]) for stick in sticks]
            yardsticks[kind] = statistics.median(every[kind])
            health_cpu[kind] = statistics.median(stick["cpu_ms"] for stick in sticks)
            say(f"{kind}: yardsticks {', '.join(f'{rate:.0f}' for rate in every[kind])} req/s")
        finally:
            run.stop()
    best, clearly = faster_of(knees) if len(knees) > 1 else (args.servers[0], True)
    say(f"the faster: {best}" if clearly else f"a tie: {best} kept")

    # 3. Half the knee, on the faster server.
    halves = {}
    run = Run(args, best, 2)
    try:
        for game in args.games:
            rate = max(1.0, knees[best][game] / 2)
            say(f"{best}: {game} at half its knee, {rate:.1f} moves/s for {args.half_seconds:g} s")
            halves[game] = runner(play_game(run, tables[game], game, rate, args.half_seconds,
                                            "window", warm_up=HALF_WARM_UP))
    finally:
        run.stop()

    # 4. Two servers, one PostgreSQL.
    cross = None
    if "alatriste" in args.games:
        run = Run(args, best, 1, servers=2, label="-two-")
        try:
            rate = max(1.0, min(knees[best]["alatriste"] / 2, 60))
            say(f"two {best} servers (1 worker each): alatriste at {rate:.1f} moves/s")
            result = runner(play_game(run, tables["alatriste"], "alatriste", rate,
                                      args.cross_seconds, "window", warm_up=5))
            phones = bench.Tables(tables["alatriste"], 6, ["a", "b"])  # the split, as played
            other = bench.announce_latencies(
                result["stats"], result["arrivals"],
                lambda t, p: phones.server_of(t, p) != phones.server_of(t))
            same = bench.announce_latencies(
                result["stats"], result["arrivals"],
                lambda t, p: phones.server_of(t, p) == phones.server_of(t))
            cross = {"rate": rate, "result": result,
                     "other_p50": bench.percentile(other[0], 50),
                     "other_p95": bench.percentile(other[0], 95), "other_found": other[3],
                     "other_expected": other[4],
                     "same_p95": bench.percentile(same[0], 95)}
        finally:
            run.stop()

    # 5. The soak.
    say(f"soak: {args.soak_sessions} sessions in {args.soak_seconds:g} s on {best}")
    soak_args = soak.parse_args(["--sessions", str(args.soak_sessions), "--seconds",
                                 str(args.soak_seconds), "--server", best])
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    soak_text, flat = soak.run(soak_args, args.database_url, best,
                               bench.OUT / f"all-soak-{stamp}.log")

    text = report(args, when, load, (yardsticks, beside, every, shares, busy), knees, steps,
                  (best, clearly), halves, cross, soak_text, flat, time.monotonic() - started,
                  health_cpu)
    path = bench.OUT / f"all-{stamp}.md"
    path.write_text(text)
    print()
    print(text)
    print(f"written to {path.relative_to(bench.ROOT)}")


def fmt(value, digits=2):
    return "–" if value is None else f"{value:.{digits}f}"


def report(args, when, load, sticks, knees, steps, chosen, halves, cross, soak_text, flat,
           elapsed, health_cpu):
    best, clearly = chosen
    yardsticks, beside, every, shares, busy = sticks
    ms = bench.ms
    lines = [f"# Companion bench/all.py, {when}", "",
             f"    .venv/bin/python bench/all.py {' '.join(sys.argv[1:])}".rstrip(), "",
             f"{os.cpu_count()} cores ({bench.cpu_model()}), load average {load} before the "
             f"run; {args.tables} tables of each game, a phone per seat (all but one hold the "
             f"page stream); 2 workers per server; the whole run took {elapsed / 60:.0f} min.",
             "", "## The knee: the last rate whose move POST p95 held under 100 ms", "",
             "Each game's knee is weighed against the yardstick beside it: the mean of the "
             "yardsticks taken just before and just after its search.", "",
             "| game | " + " | ".join(f"{kind} knee (moves/s) | {kind} yardstick beside (req/s) "
                                     f"| {kind} knee ÷ yardstick" for kind in knees)
             + " | " + " | ".join(f"{kind} ≥ half the yardstick?" for kind in knees) + " |",
             "|---|" + "---:|" * (4 * len(knees))]
    for game in args.games:
        lines.append(f"| {game} ({bench.GAMES[game]['label']}) | "
                     + " | ".join(f"{knees[kind][game]:.1f} | {beside[kind][game]:.0f} | "
                                  f"{knees[kind][game] / beside[kind][game]:.2f}"
                                  for kind in knees) + " | "
                     + " | ".join("yes" if knees[kind][game] >= beside[kind][game] / 2
                                  else "**no**" for kind in knees) + " |")
    lines += ["", "The yardsticks (GET /api/health/, req/s), in the order taken: " + "; ".join(
        f"{kind} {', '.join(f'{rate:.0f}' for rate in every[kind])} (median "
        f"{yardsticks[kind]:.0f})" for kind in knees) + "."]
    lines += ["", "How each yardstick's work fell on the two workers (their shares of the "
              "server's CPU, %): " + "; ".join(
                  f"{kind} " + ", ".join(bench.shares_text(split) for split in shares[kind])
                  for kind in knees) + "."]
    lines += ["", "Cores busy during each yardstick, the bench client (one process: about one "
              "core is all it can take) / the server: " + "; ".join(
                  f"{kind} " + ", ".join(f"{client:.2f}/{server:.2f}"
                                         for client, server in busy[kind])
                  for kind in knees) + "."]
    lines += ["", "Server CPU per yardstick request: " + ", ".join(
        f"{kind} {fmt(health_cpu.get(kind), 1)} ms" for kind in knees) + "."]
    verdict = (f"Faster: **{best}** (kept for `make run` and the production recipe)." if clearly
               else f"Neither faster beyond the knee's resolution ({KNEE_RESOLUTION:g}x) in most "
                    f"games: **{best}** kept for `make run` and the production recipe.")
    lines += ["", verdict, "",
              "Every window tried (rate → POST p95 / announce p95 ms, errors, server CPU cores):",
              ""]
    for kind in steps:
        for game in args.games:
            tried = "; ".join(f"{r['rate']:.0f} → {ms(r['post_p95'])} / {ms(r['announce_p95'])}"
                              f"{', ' + str(r['errors']) + ' errors' if r['errors'] else ''}, "
                              f"{r['cpu']['server']:.2f}" for r in steps[kind][game])
            lines.append(f"- {kind}, {game}: {tried}")
    lines += ["", f"## At half the knee ({best}, {args.half_seconds:g} s each)", "",
              "| game | rate (moves/s) | move POST p50 / p95 (ms) | announce p50 / p95 (ms) "
              "| requests per move | queries per move in the POST | queries per move in the "
              "streams | fragments per push | bytes per push | errors | server CPU (cores) "
              "| server CPU per move (ms) | of which renders (ms, renders per move) |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for game in args.games:
        r = halves[game]
        lines.append(f"| {game} | {r['rate']:.1f} | {ms(r['post_p50'])} / {ms(r['post_p95'])} | "
                     f"{ms(r['announce_p50'])} / {ms(r['announce_p95'])} | "
                     f"{fmt(r['requests_per_move'])} | {fmt(r['queries_per_move'])} | "
                     f"{fmt(r['stream_queries_per_move'])} | {fmt(r['fragments_per_push'], 1)} | "
                     f"{fmt(r['bytes_per_push'], 0)} | {r['errors']} | "
                     f"{r['cpu']['server']:.2f} | {fmt(r['cpu_ms'], 1)} | "
                     f"{fmt(r['render_ms'], 1)} ({fmt(r['renders_per_move'])}) |")
    verdicts = []
    for game in args.games:
        r = halves[game]
        verdicts.append(
            f"{game}: knee {'≥' if knees[best][game] >= beside[best][game] / 2 else '<'} half "
            f"the yardstick; POST p95 {ms(r['post_p95'])} "
            f"{'≤' if (r['post_p95'] or 1) <= HALF_POST_P95 else '>'} 50, announce p95 "
            f"{ms(r['announce_p95'])} "
            f"{'≤' if (r['announce_p95'] or 1) <= HALF_ANNOUNCE_P95 else '>'} 25")
    lines += ["", "Against the targets: " + "; ".join(verdicts) + "."]
    if cross:
        r = cross["result"]
        lines += ["", "## Two servers, one PostgreSQL", "",
                  f"Two {best} servers with 1 worker each on two ports, Alatriste's "
                  f"{args.tables} tables: "
                  f"table t posts to server t mod 2, its phone p listens on server (t + p) mod 2. "
                  f"{cross['rate']:.1f} moves/s for {args.cross_seconds:g} s (after 5 s "
                  f"unmeasured: the servers are new), {r['moves']} "
                  f"moves, {r['errors']} errors; POST p95 {ms(r['post_p95'])} ms.", "",
                  f"- announce (commit → fragments) to the phones on the **other** server: p50 "
                  f"{ms(cross['other_p50'])} ms, **p95 {ms(cross['other_p95'])} ms** "
                  f"({cross['other_found']} / {cross['other_expected']} received; target p95 "
                  f"≤ 50 ms)",
                  f"- to the phones on the posting server: p95 {ms(cross['same_p95'])} ms"]
    lines += ["", "## Soak", "", soak_text.split("\n", 2)[2].strip(), ""]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
