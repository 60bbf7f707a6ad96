"""ResultTally: the sums and counts of the numbers each game tallies (Game.tallies), per host.

Replaces 0003's companion_result_rounds and its triggers: those wrote outside the services and put
Don Quixote's details shape into the platform. The services now keep ResultTally in the same
transaction as the Result rows (companion/services.py), on every database.

0003's two read-side indexes (the solitaire results, the finished sessions' lengths) stay: the
statistics still read them. Its table, triggers and functions are dropped (PostgreSQL only; the
reverse recreates them, with their backfill, by running 0003's statements again).

The backfill reads every existing Result once and adds up its game's tallies in Python, with the
games as registered now (migrate runs after the apps are ready; a game no longer installed has
no tallies and is skipped). ~73,000 Don Quixote results take a few seconds.
"""

import importlib
from collections import defaultdict

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

DROP_ROUNDS = [
    "DROP TRIGGER IF EXISTS companion_result_rounds_truncate ON companion_result",
    "DROP TRIGGER IF EXISTS companion_result_rounds_row ON companion_result",
    "DROP FUNCTION IF EXISTS companion_result_rounds_truncate()",
    "DROP FUNCTION IF EXISTS companion_result_rounds_row()",
    "DROP FUNCTION IF EXISTS companion_result_rounds_apply(integer, varchar, jsonb, integer)",
    "DROP TABLE IF EXISTS companion_result_rounds",
]


def rounds_drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for statement in DROP_ROUNDS:
        schema_editor.execute(statement)


def rounds_recreate(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    previous = importlib.import_module("companion.migrations.0003_stats_rounds_summary")
    for statement in previous.FORWARD:
        schema_editor.execute(statement)


def tallies_backfill(apps, schema_editor):
    from companion import plugins

    Result = apps.get_model("companion", "Result")
    ResultTally = apps.get_model("companion", "ResultTally")
    if schema_editor.connection.vendor == "postgresql":
        # No finish or undo may slip between the read and the write.
        schema_editor.execute("LOCK TABLE companion_result IN SHARE MODE")
    ResultTally.objects.all().delete()
    for game in plugins.all_rules():
        if game.tallies is None:
            continue
        sums = defaultdict(lambda: [0.0, 0])
        rows = (Result.objects.filter(game=game.slug).values_list("owner_id", "details")
                .iterator(chunk_size=5000))
        for owner_id, details in rows:
            for name, value in game.tallies(details or {}).items():
                entry = sums[owner_id, name]
                entry[0] += value
                entry[1] += 1
        ResultTally.objects.bulk_create(
            (ResultTally(owner_id=owner_id, game=game.slug, name=name, total=total, count=count)
             for (owner_id, name), (total, count) in sums.items()),
            batch_size=1000,
        )


class Migration(migrations.Migration):

    dependencies = [
        ("companion", "0003_stats_rounds_summary"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ResultTally",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                           verbose_name="ID")),
                ("game", models.CharField(max_length=30)),
                ("name", models.CharField(max_length=60)),
                ("total", models.FloatField()),
                ("count", models.IntegerField()),
                ("owner", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                            related_name="+", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("owner", "game", "name"),
                                                        name="result_tally_unique")],
            },
        ),
        migrations.RunPython(rounds_drop, rounds_recreate),
        migrations.RunPython(tallies_backfill, migrations.RunPython.noop),
    ]
