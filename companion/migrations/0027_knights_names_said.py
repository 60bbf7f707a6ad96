from django.db import migrations

# Knights & Damosels' log lines named the events and the chivalries as the state keeps them, in
# English, as plain values ("revealed The Adultery (Disaster: honor, loyalty, valor)"): a Spanish
# page showed them in English. The game says each name under a message id of its own now
# (rules.EVENT_NAMES, CHIVALRY_NAMES). A stored line keeps what it was made with (Move.message),
# so the lines kept so far take the names as those ids: the same lines the game makes now.
CHIVALRIES = {"armor", "horse", "sword", "honor", "loyalty", "valor", "farmer", "fisher",
              "forester"}
EVENTS = {"Battle of Mt Badon", "Conquest of Rome", "Siege of Carlion", "Holy Grail",
          "Tristram & Isoud", "Questing Beast", "Arthur's Marriage", "Excalibur",
          "The Round Table", "The Adultery", "The Death of Merlin", "The Treason of Mordred"}
# The values that held a name: a chivalry (a grant, an offer, a card's worship, a joust for an
# offered card), an event, and an event's list of chivalries.
CHIVALRY_KEYS = {"chivalry", "card"}


def _name(name):
    return {"id": name, "values": {}}


def said(key, value):
    """A stored value said by its own message id, if it is a name the game says so."""
    if not isinstance(value, str):
        return value
    if (key in CHIVALRY_KEYS and value in CHIVALRIES) or (key == "event" and value in EVENTS):
        return _name(value)
    if key == "chivalries" and value and all(c in CHIVALRIES for c in value.split(", ")):
        return {"sep": ", ", "parts": [_name(c) for c in value.split(", ")]}
    return value


def plain(key, value):
    """The other way: a name's message id back to the plain name (the migration reversed)."""
    if not isinstance(value, dict):
        return value
    if value.get("values") == {} and (
            (key in CHIVALRY_KEYS and value.get("id") in CHIVALRIES)
            or (key == "event" and value.get("id") in EVENTS)):
        return value["id"]
    parts = value.get("parts")
    if key == "chivalries" and value.get("sep") == ", " and parts and all(
            isinstance(p, dict) and p.get("values") == {} and p.get("id") in CHIVALRIES
            for p in parts):
        return ", ".join(p["id"] for p in parts)
    return value


def line(message, change):
    """The stored line with each of its values (at any depth) passed through `change`."""
    if isinstance(message, list):
        return [line(item, change) for item in message]
    if not isinstance(message, dict):
        return message
    message = dict(message)
    if isinstance(message.get("values"), dict):
        message["values"] = {key: change(key, line(value, change))
                             for key, value in message["values"].items()}
    if isinstance(message.get("parts"), list):
        message["parts"] = line(message["parts"], change)
    return message


def _changing(change):
    def run(apps, schema_editor):
        Move = apps.get_model("companion", "Move")
        changed = []
        for move in Move.objects.filter(session__game="knights", message__isnull=False).iterator(
                chunk_size=500):
            message = line(move.message, change)
            if message != move.message:
                move.message = message
                changed.append(move)
        Move.objects.bulk_update(changed, ["message"], batch_size=500)

    return run


class Migration(migrations.Migration):

    dependencies = [
        ("companion", "0026_groups_and_linked_players"),
    ]

    operations = [
        migrations.RunPython(_changing(said), _changing(plain)),
    ]
