from django.db import migrations

# El Capitán Alatriste's turn line said "+1 ducats" and "wanted 1 more turns": its two plurals
# had the plural's words for one too. Their message ids changed with the singular; a stored log
# line keeps the id it was made with (Move.message), and an id the catalogue no longer has is
# shown in English on a Spanish page. The turn lines kept so far take the new ids.
RENAMED = {
    "{name}'s turn: +{n} ducats": "{name}'s turn: +{n} ducat",
    "wanted {n} more turns": "wanted {n} more turn",
}


def renamed(message, names):
    """The stored line (engine.Text.as_data) with each renamed plural's id replaced."""
    if isinstance(message, dict):
        if message.get("id") in names and "plural" in message:
            return {**message, "id": names[message["id"]]}
        return {key: renamed(value, names) for key, value in message.items()}
    if isinstance(message, list):
        return [renamed(item, names) for item in message]
    return message


def rename(names):
    def run(apps, schema_editor):
        Move = apps.get_model("companion", "Move")
        changed = []
        for move in Move.objects.filter(session__game="alatriste", type="turn",
                                        message__isnull=False).iterator(chunk_size=500):
            message = renamed(move.message, names)
            if message != move.message:
                move.message = message
                changed.append(move)
        Move.objects.bulk_update(changed, ["message"], batch_size=500)
    return run


class Migration(migrations.Migration):

    dependencies = [
        ("companion", "0012_move_dice_of"),
    ]

    operations = [
        migrations.RunPython(rename(RENAMED),
                             rename({new: old for old, new in RENAMED.items()})),
    ]
