from importlib import import_module

from django.apps import AppConfig


class CompanionConfig(AppConfig):
    name = "companion"
    verbose_name = "Companion"

    def ready(self):
        from companion import language

        language.install()


class GameConfig(AppConfig):
    """A game's Django app: it registers the game's one declaration, `GAME` in
    games/<slug>/game.py (a companion.plugins.Plugin), when Django starts. The game's templates
    (templates/games/<slug>/), static files (static/games/<slug>/), catalogue (locale/) and
    migrations live in its app folder, where Django finds them.

    Not an app of its own: Django skips it (default = False); each game's subclass says
    default = True, so that Django picks it although this base is imported beside it."""

    default = False

    def ready(self):
        from django.conf import settings

        from companion import plugins

        game = import_module(f"{self.name}.game").GAME
        plugins.register(game)
        if game.enum_names:
            overrides = settings.SPECTACULAR_SETTINGS.setdefault("ENUM_NAME_OVERRIDES", {})
            overrides.update(game.enum_names)
