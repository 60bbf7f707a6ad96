"""the score pad (any other game), as the platform sees it: the one declaration of
this game (its rules are the pure `rules.GAME`; companion.plugins.Plugin says what each field
is for)."""

from companion.plugins import Plugin
from games.pad import moves, panel, panel_data, rules, samples

GAME = Plugin(
    rules=rules.GAME,
    serializers=moves.SERIALIZERS,
    panel_model=panel.panel_model,
    live_model=panel.live_model,
    samples=samples.candidates,
    option_suggestions=panel_data.suggestions,
    styles=("games/pad/panel.css",),
    scripts=("games/pad/panel.js",),
)
