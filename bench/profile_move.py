"""Where a move's time goes: the move POST and the push it causes, profiled in one process.

    .venv/bin/python bench/profile_move.py [--game alatriste] [--moves 300] [--top 25]
                                           [--watched] [--database-url postgres://.../companion_bench]

Seats one table of the game in the bench's database (bench/live.py's helpers), then plays
`--moves` of the bench's move for that game through Django's test client (the whole middleware
stack and the API view, as a phone's POST, which renders the move's fragments ahead) under
cProfile, and renders the push as a stream renders it from the database when it was not carried
(fragments.render_shared, and render_panel for a game without a live part) as often. Prints the
mean wall time and queries of each, and the functions with the most time of their own and in
total. In process and one at a time: no server, no event loop, no other phones.

`--watched`: the table counts as watched by a phone (live.watch), so each POST renders its
fragments ahead and packs them into its NOTIFY, as a move of a table in play does; without it the
POST is the move alone.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import live as bench  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(bench.GAMES), default="alatriste")
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--watched", action="store_true",
                        help="render each move's fragments ahead, as for a table a phone watches")
    parser.add_argument("--database-url", default=bench.DEFAULT_DATABASE_URL)
    args = parser.parse_args(argv)
    table = bench.one_table(args.game, args.database_url)
    if args.watched:
        from companion import live, streams  # noqa: F401 - streams sets live.render_ahead

        live.watch(table["id"])

    from django.db import connection
    from django.test import Client

    from companion import fragments
    from companion.models import Session

    game = bench.GAMES[args.game]
    poster = bench.Poster(args.game, table)
    client = Client()
    url = f"/api/sessions/{table['id']}/moves/"

    def post():
        body, headers = poster.next_move()
        response = client.post(url, body, content_type="application/json",
                               headers=headers)
        if response.status_code != 201:
            sys.exit(f"the move was refused: {response.status_code} {response.content[:300]!r}")
        poster.answered(response.json())

    def push():
        session = Session.objects.select_related("owner").get(pk=table["id"])
        fragments.render_shared(session)
        if fragments.pushes_whole_panel(session.game):
            for seat in range(game["seats"]):
                fragments.render_panel(session, seat, False)

    for _ in range(20):  # warm: templates compiled, connections open
        post()
        push()
    for name, function in (("move POST", post),
                           ("push rendered from the database (not carried)", push)):
        statements = []

        def note(execute, sql, params, many, context, statements=statements):
            statements.append(sql)
            return execute(sql, params, many, context)

        # execute_wrapper, not CaptureQueriesContext: the test client's request_started signal
        # empties the connection's query log.
        with connection.execute_wrapper(note):
            function()
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(args.moves):
            function()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(f"\n## {name}: {wall / args.moves * 1000:.2f} ms wall, "
              f"{cpu / args.moves * 1000:.2f} ms CPU of this process each (no profiler)")
        profile = cProfile.Profile()
        started = time.perf_counter()
        profile.enable()
        for _ in range(args.moves):
            function()
        profile.disable()
        mean = (time.perf_counter() - started) / args.moves
        print(f"   {mean * 1000:.2f} ms each under the profiler, "
              f"{len(statements)} queries")
        for sql in statements:
            print(f"    {sql[:110]}")
        for order in ("tottime", "cumulative"):
            out = io.StringIO()
            pstats.Stats(profile, stream=out).strip_dirs().sort_stats(order).print_stats(args.top)
            lines = out.getvalue().splitlines()
            start = next(i for i, line in enumerate(lines) if "ncalls" in line)
            print(f"\n### by {order}\n")
            print("\n".join(lines[start:start + args.top + 1]))


if __name__ == "__main__":
    main()
