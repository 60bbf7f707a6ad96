"""The boundary between the platform and the games: what each game declares, and where the
platform finds it. The platform reads a game only through its `Plugin`; it names no game.

A game is a Django app under `games/<slug>/`: its one declaration is `GAME` in
`games/<slug>/game.py`, a `Plugin`, which its AppConfig (a `companion.apps.GameConfig`)
registers here when Django starts. docs/adding-a-game.md walks through adding one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion import engine


@dataclass(frozen=True)
class Plugin:
    """One game, as the platform sees it.

    - rules: the pure `engine.Game` (games/<slug>/rules.py).
    - serializers: move type -> DRF serializer checking a move's fields (games/<slug>/moves.py).
    - panel_model(state, *, viewer, is_host, data, posted, refusal) -> dict: what the panel
      template shows this viewer, pure (games/<slug>/panel.py, no Django). `state` is already
      redacted for the viewer; `data` what `panel_data(session)` loaded (or None); `posted` a
      refused form's fields as {name: [values]} (or None); `refusal` {"form", "message"} (or
      None).
    - live_model(state, standings) -> dict: the model of `panel_live.html`, the part of the
      panel every phone sees alike, rendered once per version and pushed (optional).
    - standing_note(details) -> str | None: a word beside a seat's name on the scoreboard while
      the game is on, from its standing's details (where a rabbit is), pure; on every phone's
      first screen and the board, pushed with the scoreboard (optional).
    - panel_data(session) -> Any: what the pure model needs from the database (optional).
    - stats(*, owner, results) -> dict: the game's own figures for its statistics page and the
      API (optional; shown by games/<slug>/stats.html).
    - samples(state, rng) -> [{"type", "data", "actor"}]: plausible moves for a state, legal or
      not, from which the conformance test draws random games (games/<slug>/samples.py, pure).
    - option_suggestions(*, owner) -> {list name: [text]}: what a text option with `suggest`
      offers first in the new-game form, loaded from the database (optional).
    - urls / api_urls: modules with `app_name` mounted at /g/<slug>/ and /api/games/<slug>/.
    - styles / scripts: static files loaded once in the page head of its tables.
    - enum_names: drf-spectacular ENUM_NAME_OVERRIDES its serializers need (a choice set that
      several moves share, named once in the schema).
    """

    rules: engine.Game
    serializers: Mapping[str, Any] = field(default_factory=dict)
    panel_model: Callable[..., dict[str, Any]] | None = None
    live_model: Callable[..., dict[str, Any]] | None = None
    standing_note: Callable[[Mapping[str, Any]], str | None] | None = None
    panel_data: Callable[[Any], Any] | None = None
    stats: Callable[..., dict[str, Any]] | None = None
    samples: Callable[..., list[dict[str, Any]]] | None = None
    option_suggestions: Callable[..., dict[str, list[str]]] | None = None
    urls: str | None = None
    api_urls: str | None = None
    styles: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()
    enum_names: Mapping[str, str] = field(default_factory=dict)

    @property
    def slug(self) -> str:
        return self.rules.slug

    @property
    def panel_template(self) -> str:
        if self.panel_model is None:
            return "companion/panel_generic.html"
        return f"games/{self.slug}/panel.html"

    @property
    def live_template(self) -> str | None:
        return f"games/{self.slug}/panel_live.html" if self.live_model else None

    @property
    def stats_template(self) -> str | None:
        return f"games/{self.slug}/stats.html" if self.stats else None


# The one registry: slug -> Plugin, filled by each game's AppConfig (companion.apps.GameConfig).
_plugins: dict[str, Plugin] = {}


def register(plugin: Plugin) -> None:
    _plugins[plugin.slug] = plugin


def unregister(slug: str) -> None:
    _plugins.pop(slug, None)


def get(slug: str) -> Plugin:
    try:
        return _plugins[slug]
    except (KeyError, TypeError):
        raise engine.RuleViolation(engine._("There is no game called {slug}.", slug=repr(slug)),
                                   field="game") from None


def rules_of(slug: str) -> engine.Game:
    """The pure rules of the game called `slug`; a refusal in a sentence for an unknown one."""
    return get(slug).rules


def all_rules() -> list[engine.Game]:
    return [plugin.rules for plugin in all_plugins()]


def titled_game() -> engine.Game | None:
    """The installed game whose rules serve any named game (it declares `titled_options`)."""
    return next((game for game in all_rules() if game.titled_options), None)


def all_plugins() -> list[Plugin]:
    return sorted(_plugins.values(), key=lambda plugin: plugin.rules.name)
