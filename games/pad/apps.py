from companion.apps import GameConfig


class PadConfig(GameConfig):
    name = "games.pad"
    label = "pad"
    default = True
    verbose_name = "Any game (score pad)"
    rules = "games.pad.rules.GAME"
    moves = "games.pad.moves.SERIALIZERS"
    panel_model = "games.pad.panel.panel_model"
    live_model = "games.pad.panel.live_model"
    samples = "games.pad.samples.candidates"
    option_suggestions = "games.pad.panel_data.suggestions"
    styles = ("games/pad/panel.css",)
    scripts = ("games/pad/panel.js",)
