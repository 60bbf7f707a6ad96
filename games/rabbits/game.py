"""Lenino's Jack Rabbits, as the platform sees it: the one declaration of
this game (its rules are the pure `rules.GAME`; companion.plugins.Plugin says what each field
is for)."""

from companion.plugins import Plugin
from games.rabbits import moves, panel, rules, samples

GAME = Plugin(
    rules=rules.GAME,
    serializers=moves.SERIALIZERS,
    panel_model=panel.panel_model,
    live_model=panel.live_model,
    standing_note=panel.standing_note,
    samples=samples.candidates,
    urls="games.rabbits.urls",
    styles=("games/rabbits/panel.css",),
    scripts=("games/rabbits/panel.js",),
)
