from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery
from django.db.models.functions import Coalesce


def newest_seq(apps, schema_editor):
    Session = apps.get_model("companion", "Session")
    Move = apps.get_model("companion", "Move")
    newest = Move.objects.filter(session=OuterRef("pk")).values("session").annotate(
        last=Max("seq")).values("last")
    Session.objects.update(last_seq=Coalesce(Subquery(newest), 0))


class Migration(migrations.Migration):
    dependencies = [("companion", "0018_rabbits_no_points")]

    operations = [
        migrations.AddField(model_name="session", name="last_seq",
                            field=models.PositiveIntegerField(default=0)),
        migrations.RunPython(newest_seq, migrations.RunPython.noop),
    ]
