"""Read-only selectors for history, statistics and export. Queries stay constant as data grows."""

from django.db.models import Avg, Count, Max, Q

from companion import engine
from companion.models import Result


def session_export(*, session):
    """The session with its full move log, as JSON that session_import takes back."""
    rules = engine.get(session.game)
    return {
        "format": "companion-session",
        "format_version": 1,
        "game": session.game,
        "code": session.code,
        "options": session.options,
        "seed": session.seed,
        "status": session.status,
        "version": session.version,
        "created_at": session.created_at.isoformat(),
        "finished_at": session.finished_at.isoformat() if session.finished_at else None,
        "seats": [{"index": seat.index, "name": seat.name, "player": seat.player_id}
                  for seat in session.seats.all()],
        "moves": [
            {"seq": move.seq, "type": move.type, "data": move.data, "seat": move.seat,
             "actor_seat": move.actor_seat, "summary": move.summary,
             "created_at": move.created_at.isoformat(), "undone": move.undone}
            for move in session.moves.order_by("seq")
        ],
        "state": session.state,
        "standings": rules.standings(session.state),
    }


def player_stats(*, player):
    """Plays, wins and win rate of one roster player, overall and per game."""
    rows = (Result.objects.filter(player=player).values("game")
            .annotate(plays=Count("id"), wins=Count("id", filter=Q(winner=True)),
                      best=Max("score"), average=Avg("score")).order_by("game"))
    games = {
        row["game"]: {"plays": row["plays"], "wins": row["wins"], "best": row["best"],
                      "average": round(row["average"], 2) if row["average"] is not None else None}
        for row in rows
    }
    plays = sum(game["plays"] for game in games.values())
    wins = sum(game["wins"] for game in games.values())
    return {"player": player.pk, "name": player.name, "plays": plays, "wins": wins,
            "win_rate": round(wins / plays, 4) if plays else 0.0, "games": games}


def game_stats(*, owner, game, records=10):
    """Plays, averages and the best scores of one game among a host's results."""
    results = Result.objects.filter(owner=owner, game=game)
    totals = results.aggregate(plays=Count("session", distinct=True), average=Avg("score"),
                               winning_average=Avg("score", filter=Q(winner=True)))
    best = results.order_by("-score", "finished_at")[:records]
    return {
        "game": game,
        "plays": totals["plays"],
        "average": round(totals["average"], 2) if totals["average"] is not None else None,
        "winning_average": (round(totals["winning_average"], 2)
                            if totals["winning_average"] is not None else None),
        "records": [{"score": row.score, "name": row.name, "player": row.player_id,
                     "session": row.session_id, "date": row.finished_at.date().isoformat()}
                    for row in best],
    }
