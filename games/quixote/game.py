"""Don Quixote, as the platform sees it: the one declaration of this game (its rules are the
pure `rules.GAME`; companion.plugins.Plugin says what each field is for)."""

from companion.plugins import Plugin
from games.quixote import moves, panel, rules, samples, stats

GAME = Plugin(
    rules=rules.GAME,
    serializers=moves.SERIALIZERS,
    panel_model=panel.panel_model,
    live_model=panel.live_model,
    stats=stats.figures,
    samples=samples.candidates,
    urls="games.quixote.urls",
    styles=("games/quixote/panel.css",),
    scripts=("games/quixote/panel.js",),
)
