"""Stored log lines whose message ids a game renamed: a data migration's one helper.

A move keeps its log line as data (Move.message, an engine.Text as_data) with the message id it
was made with, and an id the catalogue no longer has is shown in English on a Spanish page. When
a game rewords a sentence (a new msgid), its migration moves the lines kept so far to the new id:

    operations = [message_ids.renamed_in_logs(game="knights", names=RENAMED, move_type="grant")]
"""

from django.db import migrations


def renamed(message, names):
    """The stored line with each id of `names` (old id -> new id) replaced, at any depth."""
    if isinstance(message, dict):
        message = {key: renamed(value, names) for key, value in message.items()}
        if message.get("id") in names:
            message["id"] = names[message["id"]]
        return message
    if isinstance(message, list):
        return [renamed(item, names) for item in message]
    return message


def _renaming(game, names, move_type):
    def run(apps, schema_editor):
        Move = apps.get_model("companion", "Move")
        moves = Move.objects.filter(session__game=game, message__isnull=False)
        if move_type is not None:
            moves = moves.filter(type=move_type)
        changed = []
        for move in moves.iterator(chunk_size=500):
            message = renamed(move.message, names)
            if message != move.message:
                move.message = message
                changed.append(move)
        Move.objects.bulk_update(changed, ["message"], batch_size=500)

    return run


def renamed_in_logs(*, game, names, move_type=None):
    """A migration operation: the game's stored lines (of one move type, if given) take the new
    ids; reversed, the old ones."""
    return migrations.RunPython(_renaming(game, names, move_type),
                                _renaming(game, {new: old for old, new in names.items()},
                                          move_type))
