from companion.apps import GameConfig


class RabbitsConfig(GameConfig):
    name = "games.rabbits"
    label = "rabbits"
    default = True
    verbose_name = "Lenino's Jack Rabbits"
    rules = "games.rabbits.rules.GAME"
    moves = "games.rabbits.moves.SERIALIZERS"
    urls = "games.rabbits.urls"
