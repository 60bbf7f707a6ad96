from django.db import migrations

from companion import message_ids

# Knights & Damosels' grant line said "was granted a honor card" ("a armor", "a honor"): it says
# "was granted a card of honor" now, under a new message id. A stored log line keeps the id it
# was made with (Move.message), and an id the catalogue no longer has is shown in English on a
# Spanish page: the grant lines kept so far take the new id (as 0013 did for Alatriste).
RENAMED = {"{knight} was granted a {chivalry} card": "{knight} was granted a card of {chivalry}"}


class Migration(migrations.Migration):

    dependencies = [
        ("companion", "0013_alatriste_one_ducat"),
    ]

    operations = [
        message_ids.renamed_in_logs(game="knights", names=RENAMED, move_type="grant"),
    ]
