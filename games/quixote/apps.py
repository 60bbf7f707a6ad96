from companion.apps import GameConfig


class QuixoteConfig(GameConfig):
    name = "games.quixote"
    label = "quixote"
    default = True
    verbose_name = "Don Quixote"
