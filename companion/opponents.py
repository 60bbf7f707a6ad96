"""Who a player met at the table: head-to-head against every opponent and the nemesis, of one
roster player or of a set of them counted as one person (an account's linked players, at every
host's table). Read by companion.stats' player_stats."""

from django.db import connection
from django.db.models import Q

from companion.models import Player, Result

HEAD_TO_HEAD_SQL = """
    SELECT theirs.player_id, person.name, COUNT(*),
           SUM(CASE WHEN mine.winner THEN 1 ELSE 0 END),
           SUM(CASE WHEN theirs.winner THEN 1 ELSE 0 END),
           SUM(CASE WHEN mine."rank" < theirs."rank" THEN 1 ELSE 0 END),
           SUM(CASE WHEN theirs."rank" < mine."rank" THEN 1 ELSE 0 END)
    FROM {result} mine
    JOIN {result} theirs ON theirs.session_id = mine.session_id
                        AND theirs.player_id IS NOT NULL AND {theirs}
    JOIN {player} person ON person.id = theirs.player_id
    WHERE {mine}
    GROUP BY theirs.player_id, person.name
    ORDER BY COUNT(*) DESC, person.name
"""


def results_of(*, player=None, players=None):
    """The Result rows of one roster player, or of `players` (a queryset of roster players
    counted as one person: the players linked to an account, at every host's table), as a
    filter whose subquery costs no query of its own."""
    if players is None:
        return Q(player=player)
    return Q(player__in=players.values("pk"))


def _players_sql(player, ids):
    """(mine, theirs, params) of HEAD_TO_HEAD_SQL: whose rows are "mine" (one player, or the
    players of `ids`), and the opponents as everyone else at the table (none of the set)."""
    if ids is None:
        return "mine.player_id = %s", "theirs.player_id <> mine.player_id", [player.pk], []
    listed = ", ".join(["%s"] * len(ids))
    return f"mine.player_id IN ({listed})", f"theirs.player_id NOT IN ({listed})", ids, ids


def head_to_head(*, player=None, players=None):
    """Every opponent who shared a finished session with `player` (or with any of `players`,
    as results_of reads them): one grouped self-join of the Result rows on their session
    (index-only on both sides, see 0002_stats_indexes).

    `wins` / `opponent_wins`: sessions each of them won (a tie for first counts for both);
    `ahead` / `behind`: sessions where the player finished above / below that opponent.
    """
    # A set's ids are read first (one small query): its SQL is written here, not the ORM's.
    ids = None if players is None else list(players.values_list("pk", flat=True))
    if ids == []:
        return []
    mine, theirs, mine_params, theirs_params = _players_sql(player, ids)
    sql = HEAD_TO_HEAD_SQL.format(result=Result._meta.db_table, player=Player._meta.db_table,
                                  mine=mine, theirs=theirs)
    with connection.cursor() as cursor:
        cursor.execute(sql, theirs_params + mine_params)
        rows = cursor.fetchall()
    keys = ("player", "name", "plays", "wins", "opponent_wins", "ahead", "behind")
    return [dict(zip(keys, [row[0], row[1], *(int(value) for value in row[2:])], strict=True))
            for row in rows]


def nemesis_of(opponents):
    """The opponent who finished above the player most often (None if nobody ever did)."""
    beaten_by = [row for row in opponents if row["behind"] > 0]
    if not beaten_by:
        return None
    return max(beaten_by, key=lambda row: (row["behind"], row["opponent_wins"], -row["player"]))
