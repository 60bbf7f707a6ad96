from companion.apps import GameConfig


class KnightsConfig(GameConfig):
    name = "games.knights"
    label = "knights"
    default = True
    verbose_name = "Knights & Damosels"
    rules = "games.knights.rules.GAME"
    moves = "games.knights.moves.SERIALIZERS"
    urls = "games.knights.urls"
    # One name for the choice set that several of its moves share.
    enum_names = {"KnightsEventEnum": "games.knights.rules.EVENTS"}
    stats = "games.knights.stats.figures"
