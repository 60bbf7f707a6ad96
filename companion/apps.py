from importlib import import_module

from django.apps import AppConfig


class CompanionConfig(AppConfig):
    name = "companion"
    verbose_name = "Companion"


class GameConfig(AppConfig):
    """A game's Django app: on start it registers `<app>.rules.GAME` with the serializers of
    `<app>.moves.SERIALIZERS`, so that the API and the pages know the game.

    Not an app of its own: Django skips it (default = False); each game's subclass says
    default = True, so that Django picks it although this base is imported beside it."""

    default = False

    def ready(self):
        from companion import engine

        rules = import_module(f"{self.name}.rules")
        moves = import_module(f"{self.name}.moves")
        engine.register(rules.GAME, moves.SERIALIZERS)
