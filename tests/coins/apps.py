from companion.apps import GameConfig


class CoinsConfig(GameConfig):
    name = "tests.coins"
    label = "coins"
    default = True
    verbose_name = "Coins"
