"""History and statistics at scale (issue #7): 100,000 finished sessions on PostgreSQL.

    .venv/bin/python bench/stats.py [--sessions 100000] [--players 200] [--hosts 1]
                                    [--requests 200] [--cold-requests 50] [--reload]
                                    [--database-url postgres://postgres@127.0.0.1:5432/companion_bench_stats]

It creates (if missing) and migrates its own database, then bulk-loads (COPY, in batches) one
host's roster of --players players and --sessions finished sessions of the four games, 2–6 seats
each (within each game's limits; 3% of Don Quixote sessions are solitaire so that the
personal-best progression has work to do), with Result rows shaped like the games' own standings
(Don Quixote's round breakdowns, the Knights' victory class, Alatriste's Valido, the Rabbits'
royals). The data is kept between runs; --reload loads it again. Moves are not loaded: no
statistic reads them.

Then it times, in process through Django's test client (the whole middleware stack, token or
session authentication, DEBUG off), the API endpoints and the pages: each endpoint --requests
times after a warm-up, players rotated over the whole roster. It prints a markdown table (p50,
p95, max in ms, queries per request; the game endpoints also "cold", with an empty cache)
and writes it to bench/out/stats-<time>.md.

With --hosts N the sessions and players are split over N hosts (each host's figures then cover
1/N of the data); the default, one host owning everything, is the worst case.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/companion_bench_stats"
GAMES = {"quixote": (1, 4), "knights": (3, 6), "alatriste": (2, 6), "rabbits": (2, 4)}
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
BATCH = 5000


def parse():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--hosts", type=int, default=1)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--cold-requests", type=int, default=50,
                        help="requests per game endpoint with the cache emptied before each")
    parser.add_argument("--reload", action="store_true", help="drop the data and load it again")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL",
                                                                 DEFAULT_URL))
    return parser.parse_args()


def ensure_database(url):
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("select 1 from pg_database where datname = %s", [name]).fetchone():
            conn.execute(f'create database "{name}"')
            print(f"created database {name}")


def setup_django(url):
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    os.environ["DEBUG"] = "0"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def code_of(number):
    chars = []
    for _ in range(6):
        number, digit = divmod(number, len(ALPHABET))
        chars.append(ALPHABET[digit])
    return "".join(chars)


# Result rows shaped like each game's standings ------------------------------------------------

def ranked(rows, key):
    ordered = sorted(rows, key=lambda row: (-key(row), row["seat"]))
    for row in ordered:
        row["rank"] = 1 + sum(1 for other in ordered if key(other) > key(row))
        row["winner"] = row["rank"] == 1
    return ordered


def quixote_rows(rng, count):
    rows = []
    for seat in range(count):
        rounds = []
        for number in (1, 2, 3):
            entry = {"round": number,
                     "castle6": rng.choice((0, 6)), "castle4": rng.choice((0, 4)),
                     "churches": rng.randint(0, 12), "windmills": rng.randint(0, 12),
                     "defense": rng.choice((0, 5)),
                     "knights": rng.randint(0, 15) if number == 3 else 0}
            entry["total"] = sum(v for k, v in entry.items() if k != "round")
            rounds.append(entry)
        total = sum(entry["total"] for entry in rounds)
        details = {"round_totals": [entry["total"] for entry in rounds], "rounds": rounds,
                   "track": {"position": total}}
        if count == 1:
            details["rating"] = "very good" if total > 70 else ""
        rows.append({"seat": seat, "score": total, "details": details})
    return ranked(rows, lambda row: row["score"])


def knights_rows(rng, count):
    rows = [{"seat": seat, "score": rng.randint(0, 20), "lot": rng.random()}
            for seat in range(count)]
    order = sorted(rows, key=lambda row: (-row["score"], row["lot"]))
    victory = rng.choice(("damosel", "knight", "knight", "worship"))
    for rank, row in enumerate(order, start=1):
        row["rank"], row["winner"] = rank, rank == 1
        row["details"] = {"knight": row["seat"], "damosel": row["seat"],
                          "victory": victory if rank == 1 else None, "given_max": 2,
                          "earned": rng.randint(0, 4), "worship": row["score"]}
    return order


def alatriste_rows(rng, count):
    rows = [{"seat": seat, "score": rng.randint(0, 40)} for seat in range(count)]
    valido = rng.randrange(count) if rng.random() < 0.3 else None
    for row in rows:
        row["details"] = {"fame": row["score"], "ducats": rng.randint(0, 20), "vigour": 5,
                          "fencing": 3, "status": "alive", "valido": row["seat"] == valido}
    if valido is None:
        return ranked(rows, lambda row: row["score"])
    first = rows[valido]
    others = ranked([row for row in rows if row is not first], lambda row: row["score"])
    first.update(rank=1, winner=True)
    for row in others:
        row["rank"] += 1
        row["winner"] = False
    return [first, *others]


def rabbits_rows(rng, count):
    winner = rng.randrange(count)
    rows = []
    for seat in range(count):
        royals = rng.randint(4, 8) if seat == winner else rng.randint(0, 6)
        rows.append({"seat": seat, "score": royals, "winner": seat == winner,
                     "details": {"royals": ["K"] * royals, "carrots": rng.randint(0, 9),
                                 "place": seat, "first_ace_spent": False}})
    key = {row["seat"]: (0 if row["winner"] else 1, -row["score"]) for row in rows}
    for row in rows:
        row["rank"] = 1 + sum(1 for other in rows if key[other["seat"]] < key[row["seat"]])
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))


SHAPES = {"quixote": quixote_rows, "knights": knights_rows, "alatriste": alatriste_rows,
          "rabbits": rabbits_rows}


def load(args):
    from django.contrib.auth import get_user_model
    from django.db import connection

    from companion.models import Player, Result, Seat, Session

    User = get_user_model()
    hosts = [User.objects.get_or_create(username=f"bench-host-{n}")[0] for n in range(args.hosts)]
    loaded = Session.objects.filter(owner__in=hosts).count()
    if loaded == args.sessions and not args.reload:
        print(f"data in place: {loaded} sessions")
        return hosts
    started = time.perf_counter()
    print(f"loading {args.sessions} sessions over {args.players} players ...", flush=True)
    Session.objects.filter(owner__in=hosts).delete()
    Player.objects.filter(owner__in=hosts).delete()
    per_host = max(1, args.players // len(hosts))
    rosters = {}
    for host in hosts:
        players = Player.objects.bulk_create(
            Player(owner=host, name=f"Player {host.pk}-{n:03}") for n in range(per_host))
        rosters[host.pk] = [(player.pk, player.name) for player in players]
    rng = random.Random(7)
    with connection.cursor() as cursor:
        cursor.execute("select coalesce(max(id), 0) + 1 from companion_session")
        next_id = cursor.fetchone()[0]
    now = datetime.datetime.now(datetime.UTC)
    span = datetime.timedelta(days=3 * 365).total_seconds()
    raw = connection.connection
    # Every column the database requires (no default of its own), as the app writes them.
    session_cols = ("id, owner_id, game, code, board_key, options, seed, state, version, status, "
                    "created_at, updated_at, finished_at, language, last_seq, location, logged, "
                    "source_key, title")
    seat_cols = "session_id, index, name, player_id, colour"
    result_cols = ("session_id, seat, name, player_id, owner_id, game, score, rank, winner, "
                   "details, finished_at, title")
    done = 0
    while done < args.sessions:
        size = min(BATCH, args.sessions - done)
        sessions, seats, results = [], [], []
        for offset in range(size):
            number = done + offset
            pk = next_id + number
            host = hosts[number % len(hosts)]
            game = rng.choice(tuple(GAMES))
            low, high = GAMES[game]
            count = 1 if game == "quixote" and rng.random() < 0.03 else rng.randint(
                max(2, low), min(6, high))
            people = rng.sample(rosters[host.pk], count)
            finished = now - datetime.timedelta(seconds=rng.random() * span)
            created = finished - datetime.timedelta(minutes=rng.randint(15, 120))
            sessions.append((pk, host.pk, game, code_of(pk + 10_000_000), f"bench-{pk}", "{}",
                             f"{pk:x}", "{}", 40, "finished", created, finished, finished,
                             "en", 0, "", False, "", ""))
            for row in SHAPES[game](rng, count):
                player_id, name = people[row["seat"]]
                seats.append((pk, row["seat"], name, player_id, ""))
                results.append((pk, row["seat"], name, player_id, host.pk, game,
                                float(row["score"]), row["rank"], row["winner"],
                                json.dumps(row["details"]), finished, ""))
        with raw.cursor() as cursor, raw.transaction():
            for table, cols, rows in (("companion_session", session_cols, sessions),
                                      ("companion_seat", seat_cols, seats),
                                      ("companion_result", result_cols, results)):
                with cursor.copy(f"copy {table} ({cols}) from stdin") as copy:
                    for row in rows:
                        copy.write_row(row)
        done += size
        print(f"  {done} sessions", end="\r", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("select setval(pg_get_serial_sequence('companion_session', 'id'), "
                       "(select max(id) from companion_session))")
    raw.autocommit = True
    with raw.cursor() as cursor:
        cursor.execute("vacuum analyze")
    print(f"\nloaded {Session.objects.filter(owner__in=hosts).count()} sessions, "
          f"{Result.objects.filter(owner__in=hosts).count()} results, "
          f"{Seat.objects.filter(session__owner__in=hosts).count()} seats "
          f"in {time.perf_counter() - started:.0f} s")
    return hosts


def measure(args, hosts):
    from django.db import connection
    from django.test import Client

    from companion import services
    from companion.models import Player

    host = hosts[0]
    players = list(Player.objects.filter(owner=host).values_list("pk", flat=True))
    api = Client(HTTP_AUTHORIZATION=f"Token {services.token_for(user=host)}")
    page = Client()
    page.force_login(host)

    def rotate(template):
        return lambda n: template.format(player=players[n % len(players)])

    endpoints = [("GET /api/players/{id}/stats/", api, rotate("/api/players/{player}/stats/"))]
    endpoints += [(f"GET /api/games/{slug}/stats/", api,
                   (lambda url: lambda n: url)(f"/api/games/{slug}/stats/")) for slug in GAMES]
    endpoints += [("page /history/players/{id}/", page, rotate("/history/players/{player}/"))]
    endpoints += [(f"page /history/games/{slug}/", page,
                   (lambda url: lambda n: url)(f"/history/games/{slug}/")) for slug in GAMES]
    endpoints += [("page /history/ (first page)", page, lambda n: "/history/"),
                  ("page /history/?player= (filtered)", page,
                   rotate("/history/?player={player}"))]
    from django.core.cache import cache

    # The game figures are cached per version of the results; "cold" empties the cache before
    # every request, as the first request after a finish or an undo sees it.
    endpoints += [(f"GET /api/games/{slug}/stats/ (cold)", api,
                   (lambda url: lambda n: url)(f"/api/games/{slug}/stats/")) for slug in GAMES]
    rows = []
    for label, client, url in endpoints:
        cold = label.endswith("(cold)")
        count = args.cold_requests if cold else args.requests
        for n in range(5):  # warm-up: connections, templates, plans
            assert client.get(url(n)).status_code == 200, label
        if cold:
            cache.clear()
        queries = []

        def note(execute, sql, params, many, context, queries=queries):
            queries.append(sql)
            return execute(sql, params, many, context)

        # A wrapper, not CaptureQueriesContext: Django resets that log when a request starts.
        with connection.execute_wrapper(note):
            client.get(url(1))
        timings = []
        for n in range(count):
            if cold:
                cache.clear()
            started = time.perf_counter()
            response = client.get(url(n))
            timings.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, (label, response.status_code)
        timings.sort()
        p95 = timings[min(len(timings) - 1, int(len(timings) * 0.95))]
        rows.append((label, statistics.median(timings), p95, timings[-1], len(queries)))
        print(f"  {label}: p50 {rows[-1][1]:.1f} ms, p95 {p95:.1f} ms", flush=True)
    return rows


def report(args, rows, hosts):
    from companion.models import Result, Session

    sessions = Session.objects.filter(owner=hosts[0]).count()
    results = Result.objects.filter(owner=hosts[0]).count()
    lines = [
        f"Statistics bench, {datetime.datetime.now():%Y-%m-%d %H:%M}, PostgreSQL, "
        f"{os.cpu_count()} cores: the measured host owns {sessions:,} finished sessions, "
        f"{results:,} results, {args.players // len(hosts)} players; {args.requests} requests "
        "per endpoint, one at a time, in process (Django test client).",
        "",
        "| endpoint | p50 ms | p95 ms | max ms | queries |",
        "|---|---:|---:|---:|---:|",
    ]
    lines += [f"| {label} | {p50:.1f} | {p95:.1f} | {top:.1f} | {queries} |"
              for label, p50, p95, top, queries in rows]
    text = "\n".join(lines)
    print()
    print(text)
    out = ROOT / "bench" / "out"
    out.mkdir(exist_ok=True)
    path = out / f"stats-{datetime.datetime.now():%Y%m%d-%H%M%S}.md"
    path.write_text(text + "\n")
    print(f"\nwritten to {path.relative_to(ROOT)}")


def main():
    args = parse()
    ensure_database(args.database_url)
    setup_django(args.database_url)
    hosts = load(args)
    rows = measure(args, hosts)
    report(args, rows, hosts)


if __name__ == "__main__":
    main()
