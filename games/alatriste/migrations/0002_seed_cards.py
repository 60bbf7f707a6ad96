"""The cards the rules name. The rules give no printed values: every value here that the spec does
not fix is a placeholder (0), and every seeded card is marked `placeholder` for the group to
correct from its own cards."""

from django.db import migrations

SEED = [
    {"name": "Quevedo", "kind": "character", "enemies": ["Pacheco"]},
    {"name": "Pacheco", "kind": "character", "enemies": ["Quevedo"]},
    {"name": "Emilio Bocanegra", "kind": "character"},
    {"name": "Pistolas de silla", "kind": "possession", "pistols": True, "fencing": 1,
     "fame": -1},
    {"name": "Dados trucados", "kind": "possession", "fame": -1},
    {"name": "Carroza", "kind": "possession", "vehicle": True},
    {"name": "Caballo", "kind": "possession", "vehicle": True},
    {"name": "Silla de manos", "kind": "possession", "vehicle": True},
]


def seed(apps, schema_editor):
    Card = apps.get_model("alatriste", "Card")
    for values in SEED:
        if not Card.objects.filter(name__iexact=values["name"]).exists():
            Card.objects.create(placeholder=True, **values)


def unseed(apps, schema_editor):
    Card = apps.get_model("alatriste", "Card")
    Card.objects.filter(name__in=[values["name"] for values in SEED], placeholder=True).delete()


class Migration(migrations.Migration):
    dependencies = [("alatriste", "0001_initial")]

    operations = [migrations.RunPython(seed, unseed)]
