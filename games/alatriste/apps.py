from companion.apps import GameConfig


class AlatristeConfig(GameConfig):
    name = "games.alatriste"
    label = "alatriste"
    default = True
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "El Capitán Alatriste"
