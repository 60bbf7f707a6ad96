from django.apps import AppConfig


class KnightsConfig(AppConfig):
    name = "games.knights"
    label = "knights"
    verbose_name = "Knights & Damosels"

    def ready(self):
        from companion import engine
        from games.knights.moves import SERIALIZERS
        from games.knights.rules import GAME

        engine.register(GAME, SERIALIZERS)
