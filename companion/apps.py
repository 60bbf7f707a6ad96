from django.apps import AppConfig


class CompanionConfig(AppConfig):
    name = "companion"
    verbose_name = "Companion"

    def ready(self):
        from companion import language, streams  # noqa: F401 - streams: the broker's hooks

        language.install()


class GameConfig(AppConfig):
    """A game's Django app. Its subclass declares, as dotted names, everything the game brings;
    on start they are resolved into a `companion.plugins.Plugin` and registered. The platform
    reads nothing else of a game (templates are found by convention under templates/games/<slug>/,
    static files under static/games/<slug>/).

    Not an app of its own: Django skips it (default = False); each game's subclass says
    default = True, so that Django picks it although this base is imported beside it."""

    default = False

    rules = None  # "games.<slug>.rules.GAME": the pure engine.Game
    moves = None  # "games.<slug>.moves.SERIALIZERS": move type -> serializer
    panel_model = None  # "games.<slug>.panel.panel_model" (pure)
    live_model = None  # "games.<slug>.panel.live_model": the part pushed once (optional)
    panel_data = None  # "games.<slug>.panel_data.load": what the model needs from the database
    stats = None  # "games.<slug>.stats.figures" (optional)
    samples = None  # "games.<slug>.samples.candidates": plausible moves, for the conformance test
    # "games.<slug>.panel_data.suggestions": (*, owner) -> {list name: [text]}, what a text option
    # with `suggest` offers first in the new-game form (e.g. names used before)
    option_suggestions = None
    urls = None  # "games.<slug>.urls", mounted at /g/<slug>/ with its app_name
    api_urls = None  # "games.<slug>.api_urls", mounted at /api/games/<slug>/
    styles = ()  # static paths, loaded once in the head of the game's pages
    scripts = ()
    enum_names = {}  # drf-spectacular ENUM_NAME_OVERRIDES the game's serializers need

    def ready(self):
        from django.conf import settings

        from companion import plugins

        resolve = plugins.resolve
        plugins.register(plugins.Plugin(
            rules=resolve(self.rules), serializers=dict(resolve(self.moves) or {}),
            panel_model=resolve(self.panel_model), live_model=resolve(self.live_model),
            panel_data=resolve(self.panel_data), stats=resolve(self.stats),
            samples=resolve(self.samples), option_suggestions=resolve(self.option_suggestions),
            urls=self.urls, api_urls=self.api_urls,
            styles=tuple(self.styles), scripts=tuple(self.scripts),
        ))
        if self.enum_names:
            overrides = settings.SPECTACULAR_SETTINGS.setdefault("ENUM_NAME_OVERRIDES", {})
            overrides.update(self.enum_names)
