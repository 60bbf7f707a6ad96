"""Knights & Damosels' own statistics: how the games were won (shown by stats.html)."""

from django.db.models import Count
from django.db.models.fields.json import KT

VICTORIES = ("damosel", "knight", "worship")


def figures(*, owner, results):
    rows = (results.filter(winner=True).values(victory=KT("details__victory"))
            .annotate(count=Count("id")).order_by())
    counts = {row["victory"]: row["count"] for row in rows}
    return {"victories": {name: counts.get(name, 0) for name in VICTORIES}}
