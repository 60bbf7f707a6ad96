"""Read-only selectors for history, statistics and export. Queries stay constant as data grows.

Statistics read the Result rows that the services keep (written when a session finishes, removed
when an undo reopens it), and the sums and counts of the games' tallies kept with them
(ResultTally). Everything that grows with the data is aggregated in the database;
Python only loops over rows whose number is bounded by something else (games, opponents, distinct
scores) or over one ordered list of a single player's results (the streaks).
"""

import hashlib

from django.core.cache import cache
from django.db.models import (
    Avg,
    Count,
    Exists,
    Max,
    Min,
    OuterRef,
    Prefetch,
    Q,
)

from companion import engine, plugins
from companion.models import Move, Result, Seat, Session
from companion.opponents import head_to_head, nemesis_of, results_of
from companion.scopes import scope_of
from companion.seeds import seed_seal

RECORDS = 10


def rounded(value, places=2):
    return round(value, places) if value is not None else None


def logged_standings(session):
    """The final standings of a play logged afterwards, as its log gave them (its state is the
    game's set-up: the rules cannot tell them)."""
    return [dict(row) for row in session.state["logged"]["standings"]]


def session_standings(session, rules=None):
    """A session's standings as the pages and the API show them, logged plays' included."""
    if session.logged:
        return logged_standings(session)
    return engine.standings_of(rules or plugins.rules_of(session.game), session.state)


# Export --------------------------------------------------------------------------------------

def score_text(value):
    """A score (or any figure) in plain digits, as it was entered: 1000009, 12.5; never in
    e-notation or cut to six digits as f"{value:g}" writes it (1.00001e+06)."""
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return f"{value:.6f}".rstrip("0").rstrip(".")
    return str(value)


def said_score(value):
    """score_text with the reader's decimal mark: 7,5 in Spanish (a page, a shared sentence)."""
    from django.utils import formats

    return score_text(value).replace(".", formats.get_format("DECIMAL_SEPARATOR"))


def length_text(seconds):
    """A game's length as a table says it: "2 h 5 min", "45 min", "2 min 11 s" (the units'
    symbols read the same in both languages; a timedelta wrote "1 day, 0:00:00")."""
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    if minutes:
        return f"{minutes} min {seconds} s" if seconds and minutes < 10 else f"{minutes} min"
    return f"{seconds} s"


def result_score(row):
    """A standings row's score as statistics count it (Result.score): None where the row says it
    has none (its details' "scored" false: a game without points, a play logged with its
    winners only), which the page shows as 0 and no average, record or export counts."""
    if (row.get("details") or {}).get("scored") is False or row.get("score") is None:
        return None
    return float(row["score"])


def session_export(*, session):
    """The session with its full move log, as JSON that session_import takes back. A logged
    play has no moves: its state's "logged" holds the play (note, length, standings)."""
    rules = plugins.rules_of(session.game)
    return {
        "format": "companion-session",
        "format_version": 1,
        "game": session.game,
        "title": session.title,
        "location": session.location,
        "logged": session.logged,
        "code": session.code,
        "options": session.options,
        # A game in play's seed would foretell its rolls and draws (companion/seeds.py).
        **({"seed": session.seed} if session.is_finished
           else {"seed": None, "sealed_seed": seed_seal(session.seed)}),
        "status": session.status,
        "version": session.version,
        "created_at": session.created_at.isoformat(),
        "finished_at": session.finished_at.isoformat() if session.finished_at else None,
        "seats": [{"index": seat.index, "name": seat.name, "player": seat.player_id}
                  for seat in session.seats.all()],
        "moves": [
            {"seq": move.seq, "type": move.type, "data": move.data, "seat": move.seat,
             "actor_seat": move.actor_seat, "summary": move.summary,
             "created_at": move.created_at.isoformat(), "undone": move.undone,
             **({"dice_of": move.dice_of} if move.dice_of else {})}
            for move in session.moves.order_by("seq")
        ],
        "state": session.state,
        "standings": session_standings(session, rules),
    }


CSV_COLUMNS = ("session", "game", "finished_at", "seat", "name", "player", "player_name",
               "score", "rank", "winner", "title", "location")


def results_rows(*, owner=None, group=None):
    """Every result of a host's (or a group's: scopes.Scope), oldest first, as tuples in
    CSV_COLUMNS order (one query, streamed with a server-side cursor)."""
    return (Result.objects.filter(scope_of(owner=owner, group=group).results())
            .order_by("finished_at", "session_id", "rank", "seat")
            .values_list("session_id", "game", "finished_at", "seat", "name", "player_id",
                         "player__name", "score", "rank", "winner", "title",
                         "session__location")
            .iterator(chunk_size=2000))


# Games as statistics count them -------------------------------------------------------------

def game_key(game, title=""):
    """A game as statistics count it: its slug, or for a named game (one game's rules serving
    many, the score pad) the slug and the name played, "pad:Carcassonne"."""
    return f"{game}:{title}" if title else game


def split_key(key):
    """(slug, title) of a game_key (slugs hold no colon)."""
    game, _colon, title = key.partition(":")
    return game, title


def game_label(key, names):
    """What a person calls the game of a key: the title played, or the game's name."""
    game, title = split_key(key)
    return title or names.get(game, game)


def named_games(*, owner=None, group=None):
    """The named games a host (or a group) has played or logged, as (slug, title), by title: one
    query."""
    return list(Session.objects.filter(scope_of(owner=owner, group=group).sessions())
                .exclude(title="")
                .values_list("game", "title").distinct().order_by("title", "game"))


def locations(*, owner=None, group=None):
    """The places a host (or a group) has played at, most recent first: one query."""
    rows = (Session.objects.filter(scope_of(owner=owner, group=group).sessions())
            .exclude(location="")
            .values("location").annotate(last=Max("created_at")).order_by("-last", "location"))
    return [row["location"] for row in rows]


# Players -------------------------------------------------------------------------------------

def h_index(counts):
    """The largest h such that h games were played at least h times each."""
    ordered = sorted(counts, reverse=True)
    return sum(1 for position, count in enumerate(ordered, start=1) if count >= position)


def streaks(wins):
    """(current, longest) runs of wins in a chronological list of booleans."""
    longest = run = 0
    for won in wins:
        run = run + 1 if won else 0
        longest = max(longest, run)
    return run, longest


# How many of a game's plays were won by the lowest score, and how many had no points (the
# score pad's "win"; our own games are won by the highest), counted beside the plays.
_WON_BY = {"low": Count("id", filter=Q(session__options__win="low")),
           "unscored": Count("id", filter=Q(session__options__win="none"))}


def _best_of(counts):
    """Which score is a game's best: "high", "low" (most of its plays were won by the lowest
    score: a golf's best round is its lowest), or None (none of its plays had points)."""
    if counts["plays"] and counts["unscored"] == counts["plays"]:
        return None
    return "low" if 2 * counts["low"] > counts["plays"] else "high"


def player_stats(*, player=None, players=None, name=None, history=False):
    """Plays, wins and win rate of one roster player, overall and per game; the h-index, the
    winning streaks, head-to-head against every opponent and the nemesis. Three queries.

    `players` instead of `player`: a queryset of roster players counted as one person (an
    account's linked players, across hosts), called `name`; one query more, the set's ids.

    history=True adds the player's results in order ({"date", "game", "score", "rank",
    "winner", "session"}) for the results-over-time chart.
    """
    chosen = results_of(player=player, players=players)
    rows = (Result.objects.filter(chosen).values("game", "title")
            .annotate(plays=Count("id"), wins=Count("id", filter=Q(winner=True)),
                      highest=Max("score"), lowest=Min("score"), average=Avg("score"),
                      **_WON_BY).order_by("game", "title"))
    games = {
        game_key(row["game"], row["title"]): {
            "plays": row["plays"], "wins": row["wins"],
            "best": {"high": row["highest"], "low": row["lowest"]}.get(_best_of(row)),
            "average": rounded(row["average"])}
        for row in rows
    }
    plays = sum(game["plays"] for game in games.values())
    wins = sum(game["wins"] for game in games.values())
    ordered = Result.objects.filter(chosen).order_by("finished_at", "session_id")
    if history:
        timeline = list(ordered.values_list(
            "finished_at", "game", "score", "rank", "winner", "session_id", "title",
            "session__logged", "session__state__logged__win", "session__options__win"))
        outcomes = [row[4] for row in timeline]
    else:
        timeline = None
        outcomes = list(ordered.values_list("winner", flat=True))
    current, longest = streaks(outcomes)
    opponents = head_to_head(player=player, players=players)
    stats = {
        "player": player.pk if players is None else None,
        "name": player.name if players is None else name, "plays": plays, "wins": wins,
        "win_rate": round(wins / plays, 4) if plays else 0.0, "games": games,
        "h_index": h_index(game["plays"] for game in games.values()),
        "streaks": {"current": current, "longest": longest},
        "head_to_head": opponents,
        "nemesis": nemesis_of(opponents),
    }
    if history:
        stats["history"] = [
            {"date": at, "game": game, "title": title, "score": score, "rank": rank,
             "winner": winner, "session": session,
             # A cooperative play is the table's: "won" or "lost" together, else None.
             "together": ("won" if winner else "lost") if Session.win_of(
                 logged=logged, title=title, logged_win=logged_win,
                 option_win=option_win) == "coop" else None}
            for at, game, score, rank, winner, session, title, logged, logged_win, option_win
            in timeline]
    return stats


# Games ---------------------------------------------------------------------------------------

def _seconds(value):
    return round(value.total_seconds()) if value is not None else None


def game_stats(*, owner=None, group=None, game, title="", records=RECORDS):
    """Plays, records, averages, the score distribution, the top winners and the game lengths of
    one game among a host's (or a group's) results, with the game's own figures. A named game
    (`title`, where one game's rules serve many) is a game of its own: only its plays count.

    One grouped query over (score, winner) gives the counts, both averages, the distribution and
    the version of these results (their number and highest id: a finish adds a higher id, an
    undo lowers the number). The rest, some of it reading JSON details, is computed once per
    version and kept in the cache: a new result or an undone finish changes the key.
    """
    scope = scope_of(owner=owner, group=group)
    results = Result.objects.filter(scope.results(), game=game, title=title)
    groups = list(results.values("score", "winner")
                  .annotate(count=Count("id"), last=Max("id")).order_by())
    everyone = sum(row["count"] for row in groups)
    last = max((row["last"] for row in groups), default=0)
    # The averages and the distribution count the results with a score (Result.score).
    groups = [row for row in groups if row["score"] is not None]
    scored = sum(row["count"] for row in groups)
    winning = sum(row["count"] for row in groups if row["winner"])
    points = sum(row["score"] * row["count"] for row in groups)
    version = f"{everyone}.{scored}.{last}.{winning}.{points:g}"
    named = hashlib.sha256(title.encode()).hexdigest()[:16] if title else ""
    key = f"companion:game-stats:{scope.key}:{game}:{named}:{records}:{version}"
    rest = cache.get(key)
    if rest is None:
        rest = _game_figures(scope, game, title, records, results)
        cache.set(key, rest, timeout=24 * 3600)
    distribution = {}
    for row in groups:
        distribution[row["score"]] = distribution.get(row["score"], 0) + row["count"]
    plays = rest.pop("plays")
    return {
        "game": game,
        "title": title,
        "plays": plays,
        "results": everyone,
        "average": rounded(points / scored) if scored else None,
        "winning_average": rounded(sum(row["score"] * row["count"] for row in groups
                                      if row["winner"]) / winning) if winning else None,
        "average_players": rounded(everyone / plays) if plays else None,
        "distribution": [{"score": score, "count": count}
                         for score, count in sorted(distribution.items())],
        **rest,
    }


def _game_figures(scope, game, title, records, results):
    sessions = Session.objects.filter(scope.sessions(), game=game, title=title,
                                      status=Session.Status.FINISHED)
    length, timed = Session.length_of(), Session.timed_q()
    totals = sessions.aggregate(plays=Count("id"), average=Avg(length, filter=timed),
                                shortest=Min(length, filter=timed),
                                longest=Max(length, filter=timed),
                                low=Count("id", filter=Q(options__win="low")),
                                unscored=Count("id", filter=Q(options__win="none")))
    order = {"high": "-score", "low": "score"}.get(_best_of(totals))
    best = (results.exclude(score=None).order_by(order, "finished_at", "session_id", "seat")
            .values("score", "name", "player", "session", "finished_at")[:records]
            if order else [])
    winners = (results.filter(winner=True, player__isnull=False)
               .values("player", "player__name").annotate(wins=Count("*"))  # index-only
               .order_by("-wins", "player__name")[:records])
    figures = {
        "plays": totals["plays"],
        "records": [{"score": row["score"], "name": row["name"], "player": row["player"],
                     "session": row["session"], "date": row["finished_at"].date().isoformat()}
                    for row in best],
        "winners": [{"player": row["player"], "name": row["player__name"], "wins": row["wins"]}
                    for row in winners],
        "length": {"average_seconds": _seconds(totals["average"]),
                   "shortest_seconds": _seconds(totals["shortest"]),
                   "longest_seconds": _seconds(totals["longest"])},
    }
    plugin = plugins.get(game)
    if plugin.stats is not None:
        # The game's own figures, under its slug (`owner` None: a group's, whose figures its
        # results give).
        figures[game] = plugin.stats(owner=scope.owner, results=results)
    return figures


# History -------------------------------------------------------------------------------------

def session_history(*, owner=None, group=None, game=None, title=None, player=None, since=None,
                    until=None, location=None):
    """A host's (or a group's) sessions, newest first, filtered (a named game by its `title`
    too; a place whatever its case); seats and results come prefetched (a page of them costs
    three queries: the count, the page, the seats; results ride on the seats query)."""
    sessions = Session.objects.filter(scope_of(owner=owner, group=group).sessions())
    if game:
        sessions = sessions.filter(game=game)
    if title is not None:
        sessions = sessions.filter(title=title)
    if location:
        sessions = sessions.filter(location__iexact=location)
    if player:
        sessions = sessions.filter(Exists(Seat.objects.filter(session=OuterRef("pk"),
                                                              player=player)))
    if since:
        sessions = sessions.filter(created_at__date__gte=since)
    if until:
        sessions = sessions.filter(created_at__date__lte=until)
    return sessions.order_by("-created_at", "-id").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.order_by("index")),
        Prefetch("results", queryset=Result.objects.filter(winner=True).order_by("seat"),
                 to_attr="winners"),
    )


def session_timeline(*, session):
    """Every move of a session in order, with who played it, the dice the app rolled and the
    standings after it (None for undone moves), by replaying the log once; and the start: the
    set-up's standings and what it drew (who starts). Two queries."""
    rules = plugins.rules_of(session.game)
    seats = list(session.seats.order_by("index"))
    names = {seat.index: seat.name for seat in seats}
    moves = list(Move.objects.filter(session=session).select_related("actor_user")
                 .order_by("seq"))
    state = engine.initial_state(rules, [seat.name for seat in seats], session.options,
                                 session.seed)
    start = {"seq": 0, "standings": engine.standings_of(rules, state), "state": state,
             "line": engine.setup_line(rules, list(names.values()), session.options,
                                       session.seed)}
    log = [move.as_replay() for move in moves]
    entries = []
    for move, step in zip(moves, engine.steps(rules, state, session.seed, log, tolerant=True),
                          strict=True):
        entry = {"move": move, "who": _who(move, names), "dice": step.dice, "standings": None,
                 "state": None}
        if step.refusal is not None:
            entry["broken"] = True  # an old log the rules no longer take: show, don't fail
        elif step.applied:
            entry["standings"] = engine.standings_of(rules, step.after)
            entry["state"] = step.after
        entries.append(entry)
    return {"start": start, "entries": entries, "rules": rules, "seats": seats}


def _who(move, names):
    if move.actor_user_id is not None:
        return {"kind": "host", "name": move.actor_user.get_username()}
    if move.actor_seat is not None:
        return {"kind": "seat", "name": names.get(move.actor_seat, "")}
    return {"kind": "guest", "name": ""}


def standings_at(timeline, upto):
    """The standings as they stood after move `upto` (0: the set-up)."""
    current = timeline["start"]["standings"]
    for entry in timeline["entries"]:
        if entry["move"].seq > upto:
            break
        if entry["standings"] is not None:
            current = entry["standings"]
    return current


def score_progression(timeline):
    """Each seat's score over the session: by round where the game scores in rounds (its rules'
    round_scores), else after each active move. ({"x_label", "xs", "series": [(name, [y])]})"""
    final = (timeline["entries"] and next(
        (entry["standings"] for entry in reversed(timeline["entries"])
         if entry["standings"] is not None), None)) or timeline["start"]["standings"]
    by_seat = sorted(final, key=lambda row: row["seat"])
    round_scores = timeline["rules"].round_scores
    per_round = [round_scores(row.get("details") or {}) if round_scores else None
                 for row in by_seat]
    if by_seat and all(scores is not None for scores in per_round):
        rounds = max(len(scores) for scores in per_round)
        series = []
        for row, scores in zip(by_seat, per_round, strict=True):
            running, points = 0, [0]
            for value in scores:
                running += value
                points.append(running)
            series.append((row["name"], points))
        return {"by": "round", "xs": list(range(rounds + 1)), "series": series}
    steps = [timeline["start"]["standings"]] + [entry["standings"] for entry in
                                                timeline["entries"]
                                                if entry["standings"] is not None]
    series = []
    for row in by_seat:
        points = []
        for standings in steps:
            score = next((r["score"] for r in standings if r["seat"] == row["seat"]), 0)
            points.append(score)
        series.append((row["name"], points))
    return {"by": "move", "xs": list(range(len(steps))), "series": series}
