"""Knights & Damosels, as the platform sees it: the one declaration of this game (its rules are the
pure `rules.GAME`; companion.plugins.Plugin says what each field is for)."""

from companion.plugins import Plugin
from games.knights import moves, panel, panel_data, rules, samples, stats

GAME = Plugin(
    rules=rules.GAME,
    serializers=moves.SERIALIZERS,
    panel_model=panel.panel_model,
    live_model=panel.live_model,
    panel_data=panel_data.phones,
    stats=stats.figures,
    samples=samples.candidates,
    urls="games.knights.urls",
    styles=("games/knights/panel.css",),
    scripts=("games/knights/panel.js",),
    enum_names={"KnightsEventEnum": "games.knights.rules.EVENTS"},
)
