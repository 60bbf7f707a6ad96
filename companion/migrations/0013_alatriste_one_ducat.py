from django.db import migrations

from companion import message_ids

# El Capitán Alatriste's turn line said "+1 ducats" and "wanted 1 more turns": its two plurals
# had the plural's words for one too. Their message ids changed with the singular; a stored log
# line keeps the id it was made with (Move.message), and an id the catalogue no longer has is
# shown in English on a Spanish page. The turn lines kept so far take the new ids.
RENAMED = {
    "{name}'s turn: +{n} ducats": "{name}'s turn: +{n} ducat",
    "wanted {n} more turns": "wanted {n} more turn",
}


class Migration(migrations.Migration):

    dependencies = [
        ("companion", "0012_move_dice_of"),
    ]

    operations = [
        message_ids.renamed_in_logs(game="alatriste", names=RENAMED, move_type="turn"),
    ]
