from django.apps import AppConfig


class QuixoteConfig(AppConfig):
    name = "games.quixote"
    label = "quixote"
    verbose_name = "Don Quixote"

    def ready(self):
        from companion import engine
        from games.quixote.moves import SERIALIZERS
        from games.quixote.rules import GAME

        engine.register(GAME, SERIALIZERS)
