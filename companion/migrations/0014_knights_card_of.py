from django.db import migrations

# Knights & Damosels' grant line said "was granted a honor card" ("a armor", "a honor"): it says
# "was granted a card of honor" now, under a new message id. A stored log line keeps the id it
# was made with (Move.message), and an id the catalogue no longer has is shown in English on a
# Spanish page: the grant lines kept so far take the new id (as 0013 did for Alatriste).
RENAMED = {"{knight} was granted a {chivalry} card": "{knight} was granted a card of {chivalry}"}


def renamed(message, names):
    """The stored line (engine.Text.as_data) with each renamed id replaced, at any depth."""
    if isinstance(message, dict):
        if message.get("id") in names:
            return {**message, "id": names[message["id"]]}
        return {key: renamed(value, names) for key, value in message.items()}
    if isinstance(message, list):
        return [renamed(item, names) for item in message]
    return message


def rename(names):
    def run(apps, schema_editor):
        Move = apps.get_model("companion", "Move")
        changed = []
        for move in Move.objects.filter(session__game="knights", type="grant",
                                        message__isnull=False).iterator(chunk_size=500):
            message = renamed(move.message, names)
            if message != move.message:
                move.message = message
                changed.append(move)
        Move.objects.bulk_update(changed, ["message"], batch_size=500)
    return run


class Migration(migrations.Migration):

    dependencies = [
        ("companion", "0013_alatriste_one_ducat"),
    ]

    operations = [
        migrations.RunPython(rename(RENAMED),
                             rename({new: old for old, new in RENAMED.items()})),
    ]
