"""What the score pad reads from the database: the names of the games a host has kept on it, for
the new-game form to offer first."""

from companion.models import Session

SUGGESTED = 30


def suggestions(*, owner):
    """{"titles": the names this host gave pad games, most recent first, each once}."""
    titles: list[str] = []
    seen: set[str] = set()
    recent = (Session.objects.filter(owner=owner, game="pad").exclude(title="")
              .order_by("-created_at", "-id").values_list("title", flat=True)[:500])
    for title in recent:
        if title.lower() not in seen:
            seen.add(title.lower())
            titles.append(title)
        if len(titles) == SUGGESTED:
            break
    return {"titles": titles}
