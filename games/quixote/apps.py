from companion.apps import GameConfig


class QuixoteConfig(GameConfig):
    name = "games.quixote"
    label = "quixote"
    default = True
    verbose_name = "Don Quixote"
    rules = "games.quixote.rules.GAME"
    moves = "games.quixote.moves.SERIALIZERS"
    panel_model = "games.quixote.panel.panel_model"
    live_model = "games.quixote.panel.live_model"
    urls = "games.quixote.urls"
    stats = "games.quixote.stats.figures"
    styles = ("games/quixote/panel.css",)
    scripts = ("games/quixote/panel.js",)
    samples = "games.quixote.samples.candidates"
