from django.db import migrations, models


def lines_of_played_games(apps, schema_editor):
    """Each move played before its line was kept as a message: its game's summary made again by
    replaying the session, so that older games read in each viewer's language too."""
    from companion import engine, plugins

    Session = apps.get_model("companion", "Session")
    Move = apps.get_model("companion", "Move")
    for session in Session.objects.filter(logged=False).iterator():
        try:
            rules = plugins.rules_of(session.game)
        except KeyError:
            continue
        names = list(session.seats.order_by("index").values_list("name", flat=True))
        moves = list(Move.objects.filter(session=session).order_by("seq"))
        try:
            state = engine.initial_state(rules, names, session.options, session.seed)
        except Exception:  # noqa: BLE001 (a session the rules no longer set up keeps its lines)
            continue
        changed = []
        for move in moves:
            try:
                after = engine.apply(rules, state, move.type, move.data, move.actor_seat,
                                     session.seed, move.seq)
                line = rules.summary({"type": move.type, "data": move.data}, state, after)
            except Exception:  # noqa: BLE001 (an old move the rules refuse keeps its English)
                continue
            if not move.undone:
                state = after
            if isinstance(line, engine.Text):
                move.message = line.as_data()
                changed.append(move)
        Move.objects.bulk_update(changed, ["message"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("companion", "0008_session_source_key"),
    ]

    operations = [
        migrations.AddField(
            model_name="move",
            name="message",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(lines_of_played_games, migrations.RunPython.noop),
    ]
