"""El Capitán Alatriste's own statistics: games won at El Valido or on points
(templates/games/alatriste/stats.html)."""

from django.db.models import Count
from django.db.models.fields.json import KT


def figures(*, owner, results):
    rows = (results.filter(winner=True).values(valido=KT("details__valido"))
            .annotate(count=Count("id")).order_by())
    counts = {row["valido"]: row["count"] for row in rows}
    return {"victories": {"valido": counts.get("true", 0),
                          "score": sum(n for key, n in counts.items() if key != "true")}}
