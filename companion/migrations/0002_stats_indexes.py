"""Covering indexes for the statistics selectors (companion/stats.py).

Plain SQL so that the models' state is untouched (they are read-side indexes only). Each lists
every column its queries read, so PostgreSQL answers them with index-only scans:
- a player's results in order (per-game figures, streaks, history chart);
- the opponents of a session (the head-to-head self-join);
- a game's (score, winner) groups and the version of a host's results of a game;
- a game's winners.
"""

from django.db import migrations

INDEXES = {
    "result_stats_player": '(player_id, finished_at, session_id, game, score, "rank", winner)',
    "result_stats_session": '(session_id, player_id, "rank", winner)',
    "result_stats_game": "(owner_id, game, score, winner, id)",
    "result_stats_winners": "(owner_id, game, winner, player_id)",
}


class Migration(migrations.Migration):

    dependencies = [("companion", "0001_initial")]

    operations = [
        migrations.RunSQL(f"CREATE INDEX IF NOT EXISTS {name} ON companion_result {columns}",
                          f"DROP INDEX IF EXISTS {name}")
        for name, columns in INDEXES.items()
    ]
