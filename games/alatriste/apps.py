from django.apps import AppConfig


class AlatristeConfig(AppConfig):
    name = "games.alatriste"
    label = "alatriste"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "El Capitán Alatriste"

    def ready(self):
        from companion import engine
        from games.alatriste.moves import SERIALIZERS
        from games.alatriste.rules import GAME

        engine.register(GAME, SERIALIZERS)
