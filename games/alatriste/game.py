"""El Capitán Alatriste, as the platform sees it: the one declaration of
this game (its rules are the pure `rules.GAME`; companion.plugins.Plugin says what each field
is for)."""

from companion.plugins import Plugin
from games.alatriste import moves, panel, panel_data, rules, samples, stats

GAME = Plugin(
    rules=rules.GAME,
    serializers=moves.SERIALIZERS,
    panel_model=panel.panel_model,
    live_model=panel.live_model,
    panel_data=panel_data.catalogue,
    stats=stats.figures,
    samples=samples.candidates,
    api_urls="games.alatriste.api_urls",
    styles=("games/alatriste/panel.css",),
    scripts=("games/alatriste/panel.js",),
)
