"""Read-only selectors for the figures a game group looks at first (api.md, "Players and
statistics"): plays by month, time played, first and last played, plays and wins by the number of
players, cooperative plays won and lost, and who finishes ahead of whom.

A player's figures read the sessions they sat in (their Result rows); a game's, the sessions of
that game. Each function is a fixed number of grouped queries, whatever the number of plays.
"""

from django.db import connection
from django.db.models import (
    Count,
    Exists,
    Max,
    Min,
    OuterRef,
    Q,
    Subquery,
    Sum,
)
from django.db.models.functions import TruncMonth

from companion.models import Result, Session
from companion.opponents import results_of
from companion.scopes import scope_of


def _seated(session):
    """How many sat at the session `session` names (an OuterRef's field)."""
    return Subquery(Result.objects.filter(session=OuterRef(session)).order_by()
                    .values("session").annotate(seats=Count("*")).values("seats"))


def _month(moment):
    return moment.strftime("%Y-%m")


def player_figures(*, player=None, players=None):
    """{"by_month": [{"month", "plays", "wins"}], "minutes_played", "first_played",
    "last_played", "by_player_count": {"3": {"plays", "wins"}}, "coop": {"plays", "won",
    "lost"} or None} of one roster player, or of `players` counted as one person
    (opponents.results_of). Three queries."""
    results = Result.objects.filter(results_of(player=player, players=players),
                                    session__status=Session.Status.FINISHED)
    months = (results.annotate(month=TruncMonth("session__created_at")).values("month")
              .annotate(plays=Count("id"), wins=Count("id", filter=Q(winner=True)))
              .order_by("month"))
    coop = Session.coop_q("session__")
    totals = results.aggregate(
        played=Sum(Session.length_of("session__"), filter=Session.timed_q("session__")),
        first=Min("session__created_at"), last=Max("session__created_at"),
        coop=Count("id", filter=coop), coop_won=Count("id", filter=coop & Q(winner=True)))
    seats = (results.annotate(seated=_seated("session")).values("seated")
             .annotate(plays=Count("id"), wins=Count("id", filter=Q(winner=True)))
             .order_by("seated"))
    return _figures(months=[{"month": _month(row["month"]), "plays": row["plays"],
                             "wins": row["wins"]} for row in months],
                    totals=totals, seats=seats)


def game_figures(*, owner=None, group=None, game, title=""):
    """The same figures for one game among a host's (or a group's) plays (a named game by its
    title); by month without wins, and a play counted won by the number of players when someone
    won it (for a cooperative game: the table). Three queries."""
    sessions = Session.objects.filter(scope_of(owner=owner, group=group).sessions(), game=game,
                                      title=title,
                                      status=Session.Status.FINISHED)
    months = (sessions.annotate(month=TruncMonth("created_at")).values("month")
              .annotate(plays=Count("id")).order_by("month"))
    won = Exists(Result.objects.filter(session=OuterRef("pk"), winner=True))
    totals = sessions.aggregate(
        played=Sum(Session.length_of(), filter=Session.timed_q()), first=Min("created_at"),
        last=Max("created_at"), coop=Count("id", filter=Session.coop_q()),
        coop_won=Count("id", filter=Session.coop_q() & won))
    seats = (sessions.annotate(seated=_seated("pk")).values("seated")
             .annotate(plays=Count("id"), wins=Count("id", filter=won))
             .order_by("seated"))
    return _figures(months=[{"month": _month(row["month"]), "plays": row["plays"]}
                            for row in months], totals=totals, seats=seats)


def _figures(*, months, totals, seats):
    played = totals["played"]
    return {
        "by_month": months,
        "minutes_played": round(played.total_seconds() / 60) if played is not None else 0,
        "first_played": totals["first"].date().isoformat() if totals["first"] else None,
        "last_played": totals["last"].date().isoformat() if totals["last"] else None,
        "by_player_count": {str(row["seated"]): {"plays": row["plays"], "wins": row["wins"]}
                            for row in seats},
        "coop": {"plays": totals["coop"], "won": totals["coop_won"],
                 "lost": totals["coop"] - totals["coop_won"]} if totals["coop"] else None,
    }


def overview(*, owner=None, group=None):
    """A host's (or a group's) finished plays in figures: {"plays", "games": [{"game", "title",
    "plays"}], "players": [{"player", "name", "plays", "wins"}]} (the most played first). Two
    queries."""
    scope = scope_of(owner=owner, group=group)
    games = list(Session.objects.filter(scope.sessions(), status=Session.Status.FINISHED)
                 .values("game", "title").annotate(plays=Count("id"))
                 .order_by("game", "title"))
    players = [{"player": row["player"], "name": row["player__name"], "plays": row["plays"],
                "wins": row["wins"]}
               for row in Result.objects.filter(scope.results(), player__isnull=False)
               .values("player", "player__name")
               .annotate(plays=Count("id"), wins=Count("id", filter=Q(winner=True)))
               .order_by("-plays", "player__name", "player")]
    return {"plays": sum(row["plays"] for row in games), "games": games, "players": players}


def minutes_played(*, sessions):
    """The minutes `sessions` (a queryset of a host's) took, of those finished that kept their
    length: one query."""
    played = sessions.filter(Session.timed_q(), status=Session.Status.FINISHED).aggregate(
        played=Sum(Session.length_of()))["played"]
    return round(played.total_seconds() / 60) if played is not None else 0


def by_year(by_month):
    """[{"year", "plays"}] from by_month's rows."""
    years = {}
    for row in by_month:
        years[row["month"][:4]] = years.get(row["month"][:4], 0) + row["plays"]
    return [{"year": year, "plays": plays} for year, plays in sorted(years.items())]


VERSUS_SQL = """
    SELECT mine.player_id, theirs.player_id, COUNT(*),
           SUM(CASE WHEN mine."rank" < theirs."rank" THEN 1 ELSE 0 END)
    FROM {result} mine
    JOIN {result} theirs ON theirs.session_id = mine.session_id
                        AND theirs.player_id IS NOT NULL AND theirs.player_id <> mine.player_id
    {played}
    WHERE {whose} = %s AND mine.player_id IS NOT NULL
    GROUP BY mine.player_id, theirs.player_id
"""


def versus(*, owner=None, group=None, most=None):
    """Who finishes ahead of whom among the players of a host's (or a group's) plays:
    {"players": [{"id", "name"}] (the most played there first, `most` of them at most),
    "rows": [[{"together", "ahead"} or None]]}, row i against column j: the games i and j played
    together and how often i finished ahead of j (None: i against i). Two queries."""
    scope = scope_of(owner=owner, group=group)
    players = [{"id": row["player"], "name": row["player__name"]} for row in
               Result.objects.filter(scope.results(), player__isnull=False)
               .values("player", "player__name").annotate(plays=Count("id"))
               .order_by("-plays", "player__name")[:most]]
    if group is not None:
        sql = VERSUS_SQL.format(
            result=Result._meta.db_table, whose="played.group_id",
            played=f"JOIN {Session._meta.db_table} played ON played.id = mine.session_id")
    else:
        sql = VERSUS_SQL.format(result=Result._meta.db_table, whose="mine.owner_id", played="")
    with connection.cursor() as cursor:
        cursor.execute(sql, [(group or owner).pk])
        pairs = {(mine, theirs): (together, ahead)
                 for mine, theirs, together, ahead in cursor.fetchall()}
    rows = []
    for mine in players:
        row = []
        for theirs in players:
            if mine["id"] == theirs["id"]:
                row.append(None)
                continue
            together, ahead = pairs.get((mine["id"], theirs["id"]), (0, 0))
            row.append({"together": together, "ahead": int(ahead)})
        rows.append(row)
    return {"players": players, "rows": rows}
