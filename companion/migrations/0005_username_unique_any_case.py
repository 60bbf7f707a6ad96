"""One account per name in any case: "Alice" and "alice" cannot both register, even at the same
moment (the services check first; this index settles a race)."""

from django.db import migrations

INDEX = "auth_user_username_lower_unique"


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("companion", "0004_result_tally"),
    ]

    operations = [
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX IF NOT EXISTS {INDEX} ON auth_user (LOWER(username))",
            f"DROP INDEX IF EXISTS {INDEX}",
        ),
    ]
