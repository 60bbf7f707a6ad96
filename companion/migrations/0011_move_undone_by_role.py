from django.db import migrations, models

# Until this migration the host or a phone without a seat that undid a move was kept as the word
# the undoing phone's language had for it, which a phone in the other language then showed as it
# was ("el anfitrión undid: …"). These are the words the catalogues had for them (English and
# Spanish, the only languages so far); a row holding one now keeps the role instead.
OLD_WORDS = {"the host": "host", "el anfitrión": "host", "a phone": "phone", "un móvil": "phone"}


def roles_from_words(apps, schema_editor):
    Move = apps.get_model("companion", "Move")
    for word, role in OLD_WORDS.items():
        Move.objects.filter(undone_by=word).update(undone_by="", undone_by_role=role)


def words_from_roles(apps, schema_editor):
    Move = apps.get_model("companion", "Move")
    for role, word in (("host", "the host"), ("phone", "a phone")):
        Move.objects.filter(undone_by_role=role).update(undone_by=word, undone_by_role="")


class Migration(migrations.Migration):

    dependencies = [
        ("companion", "0010_session_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="move",
            name="undone_by_role",
            field=models.CharField(blank=True, choices=[("host", "the host"), ("phone", "a phone")],
                                   default="", max_length=5),
        ),
        migrations.RunPython(roles_from_words, words_from_roles),
    ]
