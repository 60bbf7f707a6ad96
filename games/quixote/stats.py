"""Don Quixote's own statistics: each round's and each scoring category's average, and the
solitaire players' personal bests (shown by templates/games/quixote/stats.html)."""

from django.db.models import F, Max, Q, Window
from django.db.models.expressions import RowRange

from companion.models import ResultTally
from companion.stats import rounded
from games.quixote import rules

CATEGORIES = ("castle6", "castle4", "churches", "windmills", "defense", "knights")


def _sums(owner, results):
    """[(name, total, count)] of the game's tallies: a host's as the services keep them; a
    group's (`owner` None, no tally is kept per group) added up from its results' details."""
    if owner is not None:
        return ResultTally.objects.filter(owner=owner, game=rules.GAME.slug).values_list(
            "name", "total", "count")
    sums = {}
    for details in results.values_list("details", flat=True):
        for name, value in rules.tallies(details).items():
            total, count = sums.get(name, (0.0, 0))
            sums[name] = (total + float(value), count + 1)
    return [(name, total, count) for name, (total, count) in sums.items()]


def _averages(owner, results):
    """{"round{i}": average of round i's total, "{category}{i}": average of round i's category}
    (i from 0; knights only for the last round; None where no result has the value), from the
    sums and counts of the game's tallies (rules.tallies: "round1_total", "round1_castle6", …)
    that the services keep per host: one small read instead of ~73,000 JSON documents."""
    found = {name: total / count for name, total, count in _sums(owner, results) if count}
    averages = {}
    for index, number in enumerate(rules.ROUNDS):
        averages[f"round{index}"] = found.get(f"round{number}_total")
        for category in CATEGORIES:
            if category == "knights" and number != rules.KNIGHTS_ROUND:
                continue  # the knights score in one round only
            averages[f"{category}{index}"] = found.get(f"round{number}_{category}")
    return averages


def figures(*, owner, results):
    """Average of each round and of each scoring category (per round and over the rounds)."""
    row = _averages(owner, results)
    indexes = range(len(rules.ROUNDS))
    rounds = [{"round": index + 1, "average": rounded(row[f"round{index}"]),
               "categories": {category: rounded(row.get(f"{category}{index}"))
                              for category in CATEGORIES if f"{category}{index}" in row}}
              for index in indexes]
    categories = {}
    for category in CATEGORIES:
        values = [row[key] for index in indexes
                  if (key := f"{category}{index}") in row and row[key] is not None]
        # Per round: each finished result has all three rounds, so the rounds weigh the same.
        categories[category] = rounded(sum(values) / len(values)) if values else None
    return {"rounds": rounds, "categories": categories,
            "solitaire_bests": _solitaire_bests(results)}


def _solitaire_bests(results):
    """Each solitaire player's personal-best progression: the results that beat every earlier
    solitaire score of the same player (a window over the player's scores, in the database)."""
    previous_best = Window(Max("score"), partition_by=[F("player_id")],
                           order_by=[F("finished_at").asc(), F("session_id").asc()],
                           frame=RowRange(start=None, end=-1))
    rows = (results.filter(details__has_key="rating", player__isnull=False)
            .annotate(previous_best=previous_best)
            .filter(Q(previous_best__isnull=True) | Q(score__gt=F("previous_best")))
            .order_by("player_id", "finished_at", "session_id")
            .values_list("player_id", "name", "score", "finished_at", "session_id")[:500])
    progression = {}
    for player, name, score, at, session in rows:
        entry = progression.setdefault(player, {"player": player, "name": name, "bests": []})
        entry["bests"].append({"score": score, "date": at.date().isoformat(),
                               "session": session})
    return sorted(progression.values(), key=lambda entry: entry["name"].lower())
