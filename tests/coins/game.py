"""Coins, as the platform sees it: the one declaration of this game."""

from companion.plugins import Plugin
from tests.coins import moves, panel, rules

GAME = Plugin(
    rules=rules.GAME,
    serializers=moves.SERIALIZERS,
    panel_model=panel.panel_model,
)
