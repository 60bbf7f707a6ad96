from django.db import migrations, models

# A result of a game without points (the score pad's "no points") was kept as a score of 0,
# which every average, record and distribution counted. It keeps no score now.


def unscored(apps, schema_editor):
    Result = apps.get_model("companion", "Result")
    Result.objects.filter(session__options__win="none").update(score=None)


def scored_zero(apps, schema_editor):
    Result = apps.get_model("companion", "Result")
    Result.objects.filter(score=None).update(score=0)


class Migration(migrations.Migration):

    dependencies = [
        ("companion", "0014_knights_card_of"),
    ]

    operations = [
        migrations.AlterField(
            model_name="result",
            name="score",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.RunPython(unscored, scored_zero),
    ]
