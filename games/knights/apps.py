from companion.apps import GameConfig


class KnightsConfig(GameConfig):
    name = "games.knights"
    label = "knights"
    default = True
    verbose_name = "Knights & Damosels"
