"""Times the import of a generated BG Stats backup (issue 17): 2,000 plays over 40 games (our four
by name, 36 others won high, low, together or with no points) and 15 players, imported once
(every play added) and again (nothing added), through the background worker's path
(services.bgstats_import_start, then bgstats_import_run, run in this process). Prints the
figures.

    .venv/bin/python bench/bgstats_import.py            # SQLite, a fresh database in /tmp
    .venv/bin/python bench/bgstats_import.py --database-url postgres://postgres@127.0.0.1:5432/companion_bench_bgstats

make_backup() is also the tests' generator (tests/test_bgstats_import.py).
"""

import argparse
import datetime
import json
import os
import random
import sys
import tempfile
import time
import uuid

OUR_GAMES = ("Don Quixote", "El Capitán Alatriste", "Knights & Damosels", "Lenino's Jack Rabbits")
# Our games' player counts (their rules' min and max), so that every generated play is legal.
OUR_SEATS = {"Don Quixote": (1, 4), "El Capitán Alatriste": (2, 6),
             "Knights & Damosels": (3, 6), "Lenino's Jack Rabbits": (2, 4)}
WINS = ("high", "high", "high", "low", "none", "coop")


def letters(index):
    """A, B, ..., Z, AA, AB, ...: a name for each of any number of players."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def make_backup(*, plays=2000, games=40, players=15, seed=17, today=None):
    """A BG Stats-shaped backup (the fields companion.bgstats reads), reproducible by `seed`."""
    rng = random.Random(seed)
    today = today or datetime.datetime(2026, 11, 1, tzinfo=datetime.UTC)

    def uid():
        return str(uuid.UUID(int=rng.getrandbits(128), version=4))

    game_rows = []
    for index in range(games):
        if index < len(OUR_GAMES):
            name, win = OUR_GAMES[index], "high"
        else:
            name, win = f"Game {index:02d} of the shelf", WINS[index % len(WINS)]
        game_rows.append({"id": 100 + index, "uuid": uid(), "name": name, "bggId": 0,
                          "highestWins": win != "low", "noPoints": win == "none",
                          "cooperative": win == "coop", "win": win})
    player_rows = [{"id": 1 + index, "uuid": uid(), "name": f"Player {letters(index)}",
                    "isAnonymous": False} for index in range(players)]
    locations = [{"id": 1, "uuid": uid(), "name": "Home"},
                 {"id": 2, "uuid": uid(), "name": "The club"}]
    play_rows = []
    for _index in range(plays):
        game = rng.choice(game_rows)
        low, high = OUR_SEATS.get(game["name"], (2, 6))
        seated = rng.sample(player_rows, rng.randint(low, min(high, players)))
        win = game["win"]
        if win == "none":
            scores = [""] * len(seated)
            winners = {rng.randrange(len(seated))}
        elif win == "coop":
            scores = [""] * len(seated)
            won = rng.random() < 0.5
            winners = set(range(len(seated))) if won else set()
        else:
            points = [rng.randint(0, 120) for _seat in seated]
            best = (max if win == "high" else min)(points)
            scores = [str(value) for value in points]
            winners = {seat for seat, value in enumerate(points) if value == best}
        when = today - datetime.timedelta(days=rng.randint(1, 1500), minutes=rng.randint(0, 600))
        play_rows.append({
            "uuid": uid(), "gameRefId": game["id"],
            "locationRefId": rng.choice((0, 1, 2)),
            "playDate": when.strftime("%Y-%m-%d %H:%M:%S"),
            "durationMin": rng.randint(10, 180), "comments": "", "ignored": False,
            "usesTeams": False, "manualWinner": False, "rounds": 0,
            "playerScores": [
                {"playerRefId": player["id"], "score": scores[seat], "winner": seat in winners,
                 "rank": 0, "seatOrder": seat, "startPlayer": seat == 0, "newPlayer": False}
                for seat, player in enumerate(seated)]})
    for game in game_rows:
        del game["win"]
    return {"games": game_rows, "players": player_rows, "locations": locations,
            "plays": play_rows, "challenges": [], "tags": [], "userInfo": {}}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=2000)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=15)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="companion-bgstats-")
    url = args.database_url or f"sqlite:///{workdir}/bench.sqlite3"
    name = url.rsplit("/", 1)[-1]
    if name in ("companion", "postgres") or name.startswith("test_"):
        sys.exit(f"bench/bgstats_import.py does not use the database {name}.")
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if url.startswith("postgres"):
        import psycopg

        admin = url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
            connection.execute(f'CREATE DATABASE "{name}"')
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from companion import services
    from companion.models import Result, Session

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    host = get_user_model().objects.create_user("bench-host", password="a long bench password")
    backup = make_backup(plays=args.plays, games=args.games, players=args.players)
    raw = json.dumps(backup).encode()

    def run():
        """The worker's path (services.bgstats_import_run), run here: the file checked and
        queued, then imported a committed part at a time."""
        started = time.monotonic()
        job = services.bgstats_import_start(owner=host, backup=raw, queue=False)
        services.bgstats_import_run(pk=job.pk)
        job.refresh_from_db()
        return time.monotonic() - started, job.summary

    first, summary = run()
    print(f"{os.cpu_count()} cores, "
          f"{'PostgreSQL' if url.startswith('postgres') else 'SQLite'}; backup "
          f"{len(raw) / 1e6:.1f} MB: {args.plays} plays, {args.games} games, "
          f"{args.players} players")
    print(f"first import:  {first:6.1f} s  added {summary['added']}, "
          f"refused {len(summary['refused'])}, new players {len(summary['new_players'])}")
    again, summary = run()
    print(f"second import: {again:6.1f} s  added {summary['added']}, "
          f"imported before {summary['already']}")
    print(f"sessions {Session.objects.count()}, results {Result.objects.count()}")


if __name__ == "__main__":
    main()
