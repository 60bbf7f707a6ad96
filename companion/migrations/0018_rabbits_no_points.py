from django.db import migrations

# Jack Rabbits has no points: its results kept the royals each seat held as a score, which the
# statistics counted (best score 3, averages, records). They keep no score now, as the score
# pad's plays without points do (0015); the rank and the winner stay.


def unscored(apps, schema_editor):
    Result = apps.get_model("companion", "Result")
    Result.objects.filter(game="rabbits").update(score=None)


class Migration(migrations.Migration):

    dependencies = [
        ("companion", "0017_guest_came_from"),
    ]

    operations = [
        migrations.RunPython(unscored, migrations.RunPython.noop),
    ]
