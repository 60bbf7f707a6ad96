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

        # Every phone sees the same sheets; "(you)" is marked by the page's CSS.
        engine.register(GAME, SERIALIZERS, shared_panel=True)
