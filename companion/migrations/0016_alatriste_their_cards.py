from django.db import migrations

# El Capitán Alatriste's log said "Ana is saved by his cards" whoever the player was. The three
# lines' message ids changed with the wording; a stored log line keeps the id it was made with
# (Move.message), and an id the catalogue no longer has is shown in English on a Spanish page.
# The lines kept so far take the new ids.
RENAMED = {
    "{name} saved by his cards": "{name} saved by their cards",
    "{text}: {name} is saved by his cards": "{text}: {name} is saved by their cards",
    "{name} is saved by his cards": "{name} is saved by their cards",
}


def renamed(message, names):
    """The stored line (engine.Text.as_data) with each renamed id replaced, at any depth."""
    if isinstance(message, dict):
        message = {key: renamed(value, names) for key, value in message.items()}
        if message.get("id") in names:
            message["id"] = names[message["id"]]
        return message
    if isinstance(message, list):
        return [renamed(item, names) for item in message]
    return message


def rename(names):
    def run(apps, schema_editor):
        Move = apps.get_model("companion", "Move")
        changed = []
        for move in Move.objects.filter(session__game="alatriste",
                                        message__isnull=False).iterator(chunk_size=500):
            message = renamed(move.message, names)
            if message != move.message:
                move.message = message
                changed.append(move)
        Move.objects.bulk_update(changed, ["message"], batch_size=500)
    return run


class Migration(migrations.Migration):

    dependencies = [
        ("companion", "0015_result_score_none"),
    ]

    operations = [
        migrations.RunPython(rename(RENAMED),
                             rename({new: old for old, new in RENAMED.items()})),
    ]
