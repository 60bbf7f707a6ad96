from django.db import migrations

from companion import message_ids

# El Capitán Alatriste's log said "Ana is saved by his cards" whoever the player was. The three
# lines' message ids changed with the wording; a stored log line keeps the id it was made with
# (Move.message), and an id the catalogue no longer has is shown in English on a Spanish page.
# The lines kept so far take the new ids.
RENAMED = {
    "{name} saved by his cards": "{name} saved by their cards",
    "{text}: {name} is saved by his cards": "{text}: {name} is saved by their cards",
    "{name} is saved by his cards": "{name} is saved by their cards",
}


class Migration(migrations.Migration):

    dependencies = [
        ("companion", "0015_result_score_none"),
    ]

    operations = [
        message_ids.renamed_in_logs(game="alatriste", names=RENAMED),
    ]
