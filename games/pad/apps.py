from companion.apps import GameConfig


class PadConfig(GameConfig):
    name = "games.pad"
    label = "pad"
    default = True
    verbose_name = "Any game (score pad)"
