"""The table the rate limits count in (settings.CACHES["limits"], unless CACHE_URL names Redis),
made by `migrate` like every other table: a database made by `migrate` alone registers."""

from django.core.management import call_command
from django.db import migrations


def cache_table_create(apps, schema_editor):
    # Makes only the tables of database caches that are missing.
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("companion", "0019_session_last_seq")]

    operations = [migrations.RunPython(cache_table_create, migrations.RunPython.noop)]
