"""Two checkouts' move POST, in bursts taken in turn: is a change cheaper, on a machine that drifts?

    .venv/bin/python bench/move_ab.py BEFORE AFTER [--game knights] [--bursts 16] [--moves 60]
                                      [--database-url postgres://.../companion_bench]

BEFORE and AFTER are two checkouts of the project (`git worktree add /tmp/before <commit>`, with
a `.venv` or a link to one). Each gets a process of its own that seats one table of the game
(bench/live.py's helpers, under a host of its own), counts it as watched by a phone (so each POST
renders its fragments ahead, as a move of a table in play does) and waits; then, burst after
burst, each process in turn plays `--moves` of the bench's move through Django's test client and
says the CPU time it took per POST.

Why in turn: on the machines of our kind the same code's POST cost 4.6 ms of CPU and then 7.7 ms
a few minutes later (bench/README.md, "Frames, a dict for the parts…"), so two runs one after
the other cannot tell a tenth apart. Bursts taken in turn see the same drift, and the ratio of
each pair (AFTER's ÷ BEFORE's) cancels it: the median of the ratios is the figure.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def paired(before, after):
    """The median, least and greatest of AFTER's ÷ BEFORE's, burst by burst."""
    ratios = [later / earlier for earlier, later in zip(before, after, strict=True)]
    return statistics.median(ratios), min(ratios), max(ratios)


def serve(checkout, game, database_url):
    """One side: a table seated, then a burst of POSTs for each number read on stdin."""
    sys.path.insert(0, checkout)
    os.chdir(checkout)
    from bench import live as bench

    bench.PROBE_HOST_NAME = f"move-ab-{os.getpid()}"  # the other side's table stays
    table = bench.one_table(game, database_url)
    from django.test import Client

    from companion import live, streams  # noqa: F401 - streams sets live.render_ahead

    live.watch(table["id"])
    poster, client = bench.Poster(game, table), Client()
    url = f"/api/sessions/{table['id']}/moves/"

    def post():
        body, headers = poster.next_move()
        response = client.post(url, body, content_type="application/json", headers=headers)
        if response.status_code != 201:
            sys.exit(f"the move was refused: {response.status_code} {response.content[:300]!r}")
        poster.answered(response.json())

    for _ in range(30):  # warm: templates compiled, parts kept, connections open
        post()
    print("ready", flush=True)
    for line in sys.stdin:
        moves = int(line)
        started = time.process_time()
        for _ in range(moves):
            post()
        print(f"{(time.process_time() - started) / moves * 1000:.4f}", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--game", default="knights")
    parser.add_argument("--bursts", type=int, default=16)
    parser.add_argument("--moves", type=int, default=60, help="POSTs in a burst")
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args(argv)
    from bench import live as bench

    database_url = args.database_url or bench.DEFAULT_DATABASE_URL
    sides = {}
    for checkout in (args.before, args.after):  # one after the other: seating is not shared
        checkout = str(Path(checkout).resolve())
        side = subprocess.Popen(
            [f"{checkout}/.venv/bin/python", __file__, "--serve", checkout, args.game,
             database_url], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            cwd=checkout)
        if side.stdout.readline().strip() != "ready":
            sys.exit(f"{checkout}: the table was not seated")
        sides[checkout] = (side, [])
    for _ in range(args.bursts):
        for side, costs in sides.values():
            side.stdin.write(f"{args.moves}\n")
            side.stdin.flush()
            costs.append(float(side.stdout.readline()))
    for side, _costs in sides.values():
        side.stdin.close()
        side.wait()
    (before, before_costs), (after, after_costs) = sides.items()
    for checkout, (_side, costs) in sides.items():
        print(f"{checkout}: median {statistics.median(costs):.2f} ms of CPU a POST "
              f"({', '.join(f'{cost:.1f}' for cost in costs)})")
    median, least, greatest = paired(before_costs[1], after_costs[1])
    print(f"{args.game}, {args.bursts} bursts of {args.moves} POSTs: after ÷ before, burst by "
          f"burst, median {median:.3f} (least {least:.3f}, greatest {greatest:.3f})")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(*sys.argv[2:5])
    else:
        main()
