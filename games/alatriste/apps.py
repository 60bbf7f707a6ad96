from companion.apps import GameConfig


class AlatristeConfig(GameConfig):
    name = "games.alatriste"
    label = "alatriste"
    default = True
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "El Capitán Alatriste"
    rules = "games.alatriste.rules.GAME"
    moves = "games.alatriste.moves.SERIALIZERS"
    api_urls = "games.alatriste.api_urls"
    stats = "games.alatriste.stats.figures"
    panel_model = "games.alatriste.panel.panel_model"
    live_model = "games.alatriste.panel.live_model"
    panel_data = "games.alatriste.panel_data.catalogue"
    samples = "games.alatriste.samples.candidates"
    styles = ("games/alatriste/panel.css",)
    scripts = ("games/alatriste/panel.js",)
