"""The games this installation plays, one Django app each. companion/settings.py adds this list to
INSTALLED_APPS; adding a game is one line here (each app declares the rest in its apps.py)."""

INSTALLED_APPS = [
    "games.quixote",
    "games.alatriste",
    "games.knights",
    "games.rabbits",
    "games.pad",
]
