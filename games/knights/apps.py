from companion.apps import GameConfig


class KnightsConfig(GameConfig):
    name = "games.knights"
    label = "knights"
    default = True
    verbose_name = "Knights & Damosels"
    rules = "games.knights.rules.GAME"
    moves = "games.knights.moves.SERIALIZERS"
    panel_model = "games.knights.panel.panel_model"
    live_model = "games.knights.panel.live_model"
    panel_data = "games.knights.panel_data.phones"
    urls = "games.knights.urls"
    styles = ("games/knights/panel.css",)
    scripts = ("games/knights/panel.js",)
    # One name for the choice set that several of its moves share.
    enum_names = {"KnightsEventEnum": "games.knights.rules.EVENTS"}
    stats = "games.knights.stats.figures"
    samples = "games.knights.samples.candidates"
