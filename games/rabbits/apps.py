from django.apps import AppConfig


class RabbitsConfig(AppConfig):
    name = "games.rabbits"
    label = "rabbits"
    verbose_name = "Lenino's Jack Rabbits"

    def ready(self):
        from companion import engine
        from games.rabbits.moves import SERIALIZERS
        from games.rabbits.rules import GAME

        engine.register(GAME, SERIALIZERS)
