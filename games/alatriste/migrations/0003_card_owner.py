"""Cards a host added become that host's own (owner = who created them); the printed cards (no
creator) stay shared."""

import django.db.models.deletion
import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models


def hosts_own_their_cards(apps, schema_editor):
    Card = apps.get_model("alatriste", "Card")
    Card.objects.filter(created_by__isnull=False).update(owner=models.F("created_by"))


class Migration(migrations.Migration):

    dependencies = [
        ('alatriste', '0002_seed_cards'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='card',
            name='alatriste_card_name_unique',
        ),
        migrations.AddField(
            model_name='card',
            name='owner',
            field=models.ForeignKey(blank=True, help_text='The host whose own card this is; none for the printed cards, which every table shares.', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.RunPython(hosts_own_their_cards, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='card',
            constraint=models.UniqueConstraint(django.db.models.functions.text.Lower('name'), condition=models.Q(('owner__isnull', True)), name='alatriste_printed_card_name_unique'),
        ),
        migrations.AddConstraint(
            model_name='card',
            constraint=models.UniqueConstraint(django.db.models.functions.text.Lower('name'), models.F('owner'), name='alatriste_own_card_name_unique_per_host'),
        ),
    ]
