from companion.apps import GameConfig


class RabbitsConfig(GameConfig):
    name = "games.rabbits"
    label = "rabbits"
    default = True
    verbose_name = "Lenino's Jack Rabbits"
    rules = "games.rabbits.rules.GAME"
    moves = "games.rabbits.moves.SERIALIZERS"
    urls = "games.rabbits.urls"
    panel_model = "games.rabbits.panel.panel_model"
    live_model = "games.rabbits.panel.live_model"
    samples = "games.rabbits.samples.candidates"
    styles = ("games/rabbits/panel.css",)
    scripts = ("games/rabbits/panel.js",)
