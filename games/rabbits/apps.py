from companion.apps import GameConfig


class RabbitsConfig(GameConfig):
    name = "games.rabbits"
    label = "rabbits"
    default = True
    verbose_name = "Lenino's Jack Rabbits"
