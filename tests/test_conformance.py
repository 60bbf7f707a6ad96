"""Every installed game fits the shared shape (docs/adding-a-game.md).

Parametrized over `plugins.all_plugins()` (test-only games, whose rules live under tests/, left
out), so that a new game is checked the day it is registered:

- its declaration is complete: rules, a serializer entry for every move type, the panel model,
  its templates and static files, urls modules with `app_name`, samples;
- its rules, panel and samples import no Django (checked in a fresh interpreter);
- over random legal move sequences drawn from its `samples.candidates` (keeping the candidates
  the rules accept, applied as the platform applies them: `engine.apply` with the seeds of
  `engine.move_rng`, undo marking the last active move undone): the replay of the log equals the
  state folded move by move, undo restores the state before, every move has a one-line summary
  and leaves `state["last"]` a dict of its type, the state stays JSON, a move never mutates its
  input, standings are well formed, and redaction hides only what a viewer may not see;
- its panel model answers for a few states of those games, for every viewer.

A game's samples module (games/<slug>/samples.py, pure) gives `candidates(state, rng)`, and may
give `OPTIONS`, the option sets to play (default: the game's defaults only).
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import importlib.util
import itertools
import json
import os
import random
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.staticfiles import finders
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rest_framework import serializers

from companion import engine, plugins
from companion.apps import GameConfig

ROOT = Path(__file__).resolve().parent.parent

# Random games: at most this many legal moves, and this many draws of candidates (a draw none of
# whose candidates the rules accept is a stuck step). An active move is undone now and then.
MAX_MOVES = 200
MAX_STEPS = 400
UNDO_CHANCE = 0.04

# Hypothesis draws the games (seed, seat count, option set): a few per test and game, more with
# CONFORMANCE_EXAMPLES=200 for a deeper run. Shrinking would only try other seeds, that is other
# games: it is left out so that a failure is reported at once, with the game to replay
# (`play(slug, seed, seats, option_set)`).
RANDOM_GAMES = settings(max_examples=int(os.environ.get("CONFORMANCE_EXAMPLES", "8")),
                        deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
                        suppress_health_check=[HealthCheck.too_slow])

# The samples must reach deep: over these games every move type is played, some game finishes,
# and most draws find a legal move.
SURVEY_SEEDS = range(12)
MIN_LEGAL_SHARE = 0.8


# --- the games ----------------------------------------------------------------------------------


def _config_of(plugin: plugins.Plugin) -> GameConfig | None:
    """The game's app: the GameConfig whose folder declares this plugin (games/<slug>/game.py)."""
    for config in apps.get_app_configs():
        if isinstance(config, GameConfig) and getattr(
                import_module(f"{config.name}.game"), "GAME", None) is plugin:
            return config
    return None


def _rules_module(plugin: plugins.Plugin) -> str:
    return plugin.rules.setup.__module__


def _package(plugin: plugins.Plugin) -> str:
    return _rules_module(plugin).rpartition(".")[0]


def product_games() -> list[plugins.Plugin]:
    """The registered games but those made for tests (their rules module is under tests/)."""
    return [plugin for plugin in plugins.all_plugins()
            if not _rules_module(plugin).startswith("tests.")]


GAMES = product_games()
SLUGS = [plugin.slug for plugin in GAMES]
by_game = pytest.mark.parametrize("slug", SLUGS)


def plugin_of(slug: str) -> plugins.Plugin:
    return plugins.get(slug)


def samples_module(slug: str):
    """The game's samples: the declared `samples`, else games/<slug>/samples.py by convention."""
    plugin = plugin_of(slug)
    if plugin.samples is not None:
        return sys.modules[plugin.samples.__module__]
    name = f"{_package(plugin)}.samples"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        pytest.fail(f"{plugin.rules.name} has no samples: write {name.replace('.', '/')}.py "
                    "with candidates(state, rng) -> [{'type', 'data', 'actor'}] (see "
                    "tests/test_conformance.py) and declare it in its apps.py.")


def candidates_of(slug: str):
    plugin = plugin_of(slug)
    return plugin.samples or samples_module(slug).candidates


def option_sets(slug: str) -> list[dict[str, Any]]:
    return list(getattr(samples_module(slug), "OPTIONS", None) or [{}])


# --- playing a random game ----------------------------------------------------------------------


@dataclass
class Played:
    """One random game: the platform's log (undone moves kept, marked) and what each move did."""

    slug: str
    seed: int
    names: list[str]
    options: dict[str, Any]
    setup: dict[str, Any]
    log: list[dict[str, Any]] = field(default_factory=list)
    # Every move applied, undone later or not: (log entry, state before, state after).
    moves: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = field(
        default_factory=list)
    # Each undo: (the log just after it, the move undone, the state it must give back).
    undos: list[tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]] = field(
        default_factory=list)
    final: dict[str, Any] = field(default_factory=dict)
    steps: int = 0
    stuck: int = 0
    tried: Counter = field(default_factory=Counter)
    refused: Counter = field(default_factory=Counter)
    mutations: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return (f"{self.slug}: play({self.slug!r}, seed={self.seed}, seats={len(self.names)}, "
                f"options={self.options})")

    @property
    def active(self) -> list[dict[str, Any]]:
        return [entry for entry in self.log if not entry.get("undone")]


def _check_candidate(game: engine.Game, candidate: Any, seats: int, where: str) -> None:
    assert isinstance(candidate, dict) and set(candidate) == {"type", "data", "actor"}, (
        f"{where}: a candidate is {{'type', 'data', 'actor'}}, not {candidate!r}")
    assert candidate["type"] in game.moves, (
        f"{where}: {candidate['type']!r} is not a move of {game.name} ({sorted(game.moves)})")
    data = candidate["data"]
    assert isinstance(data, dict) and json.loads(json.dumps(data)) == data, (
        f"{where}: a candidate's data is a JSON object (as a log stores it), not {data!r}")
    actor = candidate["actor"]
    assert actor is None or (isinstance(actor, int) and not isinstance(actor, bool)
                             and 0 <= actor < seats), (
        f"{where}: a candidate's actor is a seat or None, not {actor!r}")


@lru_cache(maxsize=64)
def play(slug: str, seed: int, seats: int, option_set: int = 0) -> Played:
    """A random game of `slug`: each step draws the samples' candidates for the state, applies
    every one to that same state (the next seq's seeded dice) and keeps one the rules accept, at
    random; now and then the last active move is undone instead, as services.move_undo does."""
    plugin = plugin_of(slug)
    game = plugin.rules
    candidates = candidates_of(slug)
    names = [f"Seat {index}" for index in range(seats)]
    options = game.resolve_options(option_sets(slug)[option_set], seats)
    key = str(seed)
    state = engine.initial_state(game, names, options, key)
    played = Played(slug, seed, names, options, setup=state)
    rng = random.Random(f"conformance:{slug}:{seed}")
    active: list[int] = []  # positions in played.moves of the active moves
    while (not game.finished(state) and len(active) < MAX_MOVES
           and played.steps < MAX_STEPS):
        played.steps += 1
        if active and rng.random() < UNDO_CHANCE:
            entry, before, _after = played.moves[active.pop()]
            entry["undone"] = True
            state = before
            played.undos.append(([dict(logged) for logged in played.log], entry, before))
            continue
        snapshot = copy.deepcopy(state)
        drawn = candidates(state, rng)
        assert state == snapshot, f"{played.where}: candidates mutated the state"
        assert isinstance(drawn, list), f"{played.where}: candidates returns a list"
        seq = (played.log[-1]["seq"] if played.log else 0) + 1
        accepted = []
        for candidate in drawn:
            _check_candidate(game, candidate, seats, played.where)
            kind, data, actor = candidate["type"], candidate["data"], candidate["actor"]
            given_data = copy.deepcopy(data)
            played.tried[kind] += 1
            try:
                after = engine.apply(game, state, kind, data, actor, key, seq)
            except engine.RuleViolation:
                played.refused[kind] += 1
                after = None
            except Exception as error:
                raise AssertionError(
                    f"{played.where}: {kind} {data} (actor {actor}) raised {error!r}, not "
                    f"RuleViolation, at move {seq} in state {json.dumps(state)[:2000]}"
                ) from error
            if state != snapshot or data != given_data:
                what = "its input state" if state != snapshot else "the move's data"
                played.mutations.append(f"{kind} {given_data} (actor {actor}) mutated {what}")
                state = copy.deepcopy(snapshot)
            if after is not None:
                accepted.append((candidate, given_data, after))
        if not accepted:
            played.stuck += 1
            continue
        candidate, data, after = rng.choice(accepted)
        entry = {"seq": seq, "type": candidate["type"], "data": data,
                 "actor": candidate["actor"]}
        played.log.append(entry)
        played.moves.append((entry, state, after))
        active.append(len(played.moves) - 1)
        state = after
    played.final = state
    return played


def random_game(slug: str, data: st.DataObject) -> Played:
    """A game hypothesis draws; its states can be trusted only if no move mutated its input."""
    played = play(slug, *data.draw(_games(slug), label="game"))
    assert not played.mutations, (
        f"{played.where}: a move mutated its input, so the states kept are not what was played: "
        f"{played.mutations[:3]}")
    return played


def _games(slug: str) -> st.SearchStrategy:
    game = plugin_of(slug).rules
    return st.tuples(st.integers(0, 2**31), st.integers(game.min_players, game.max_players),
                     st.integers(0, len(option_sets(slug)) - 1))


def _replay(played: Played, log: list[dict[str, Any]]) -> dict[str, Any]:
    game = plugin_of(played.slug).rules
    return engine.replay(game, played.names, played.options, str(played.seed), log)


def _undo_last(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log with its last active move marked undone, as services.move_undo leaves it."""
    log = [dict(entry) for entry in log]
    last = next(entry for entry in reversed(log) if not entry.get("undone"))
    last["undone"] = True
    return log


# --- the declaration ----------------------------------------------------------------------------


@by_game
def test_the_declaration_is_complete(slug):
    plugin = plugin_of(slug)
    game = plugin.rules
    problems = []
    if not isinstance(game, engine.Game):
        problems.append("rules is not an engine.Game")
    config = _config_of(plugin)
    if config is None:
        problems.append("no GameConfig in INSTALLED_APPS declares this game")
    elif config.label != slug:
        problems.append(f"the app's label is {config.label!r}, the rules' slug {slug!r}")
    if not game.min_players <= game.max_players:
        problems.append("min_players is above max_players")
    missing = sorted(set(game.moves) - set(plugin.serializers))
    extra = sorted(set(plugin.serializers) - set(game.moves))
    if missing:
        problems.append(f"moves without a serializer entry (a serializer, or None): {missing}")
    if extra:
        problems.append(f"serializers for moves the rules do not have: {extra}")
    for kind, serializer in plugin.serializers.items():
        if serializer is not None and not (isinstance(serializer, type) and issubclass(
                serializer, serializers.BaseSerializer)):
            problems.append(f"the serializer of {kind} is not a DRF serializer: {serializer!r}")
    if plugin.panel_model is None:
        problems.append("no panel_model (games/<slug>/panel.py, declared as panel_model)")
    templates = {
        f"games/{slug}/panel.html": True,
        f"games/{slug}/panel_live.html": plugin.live_model is not None,
        f"games/{slug}/stats.html": plugin.stats is not None,
    }
    for name, wanted in templates.items():
        try:
            get_template(name)
            found = True
        except TemplateDoesNotExist:
            found = False
        if found != wanted:
            because = {"panel_live.html": "live_model", "stats.html": "stats"}.get(
                name.rpartition("/")[2])
            problems.append(f"templates/{name} {'is missing' if wanted else 'exists'}" + (
                f" but {because} is {'declared' if wanted else 'not declared'}" if because
                else ""))
    for attribute in ("urls", "api_urls"):
        dotted = getattr(plugin, attribute)
        if dotted is None:
            continue
        module = importlib.import_module(dotted)
        app_name = getattr(module, "app_name", None)
        if not isinstance(app_name, str) or not app_name:
            problems.append(f"{dotted} sets no app_name")
        if not hasattr(module, "urlpatterns"):
            problems.append(f"{dotted} has no urlpatterns")
    for path in (*plugin.styles, *plugin.scripts):
        if not path.startswith(f"games/{slug}/"):
            problems.append(f"static file {path} is not under games/{slug}/static/games/{slug}/")
        found = finders.find(path)
        if found is None:
            problems.append(f"static file {path} does not exist")
        elif not Path(found).is_relative_to(ROOT / "games" / slug):
            problems.append(f"static file {path} is outside the game's folder")
    assert not problems, f"{game.name}'s declaration: " + "; ".join(problems)


@by_game
def test_the_samples_are_declared(slug):
    plugin = plugin_of(slug)
    module = samples_module(slug)
    assert callable(getattr(module, "candidates", None)), f"{module.__name__} has no candidates"
    assert plugin.samples is not None, (
        f"{plugin.rules.name} does not declare its samples: add to GAME in its game.py "
        f"samples={module.__name__}.candidates")


# --- purity -------------------------------------------------------------------------------------

PURE_PROBE = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
print(json.dumps(sorted(name for name in sys.modules
                        if name.split(".")[0] in ("django", "rest_framework"))))
"""


def _pure_modules(slug: str) -> list[str]:
    plugin = plugin_of(slug)
    package = _package(plugin)
    names = [_rules_module(plugin)]
    names.append(plugin.panel_model.__module__ if plugin.panel_model else f"{package}.panel")
    if plugin.live_model is not None:
        names.append(plugin.live_model.__module__)
    names.append(plugin.samples.__module__ if plugin.samples else f"{package}.samples")
    return list(dict.fromkeys(names))


@by_game
def test_rules_panel_and_samples_import_no_django(slug):
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = str(ROOT)
    impure = {}
    for module in _pure_modules(slug):
        assert importlib.util.find_spec(module) is not None, f"{module} does not exist"
        done = subprocess.run([sys.executable, "-c", PURE_PROBE, module], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, f"importing {module} alone failed:\n{done.stderr}"
        loaded = json.loads(done.stdout)
        if loaded:
            impure[module] = loaded[:8] + (["..."] if len(loaded) > 8 else [])
    assert not impure, f"pure modules imported Django: {impure}"


# --- random games -------------------------------------------------------------------------------


@by_game
@RANDOM_GAMES
@given(data=st.data())
def test_replay_equals_the_state_folded_move_by_move(slug, data):
    played = random_game(slug, data)
    game = plugin_of(slug).rules
    assert engine.initial_state(game, played.names, played.options, str(played.seed)) == (
        played.setup), f"{played.where}: the set-up is not the same twice"
    after_of = {entry["seq"]: after for entry, _before, after in played.moves}
    state = played.setup
    for step in engine.steps(game, played.setup, str(played.seed), played.log):
        if step.applied:
            assert step.after == after_of[step.move["seq"]], (
                f"{played.where}: replaying move {step.move} gives another state than playing it")
        state = step.after
    assert state == played.final, f"{played.where}: the fold of the log is not the cached state"
    assert _replay(played, played.log) == played.final, (
        f"{played.where}: replay is not the cached state")


@by_game
@RANDOM_GAMES
@given(data=st.data())
def test_undo_restores_the_state_before(slug, data):
    played = random_game(slug, data)
    for log, undone, before in played.undos:
        assert _replay(played, log) == before, (
            f"{played.where}: after undoing {undone} the replay is not the state before it")
    if played.active:
        last = played.active[-1]
        before = next(before for entry, before, _after in played.moves if entry is last)
        assert _replay(played, _undo_last(played.log)) == before, (
            f"{played.where}: undoing the last move {last} does not give the state before it")
        without = [entry for entry in played.log if entry is not last]
        assert _replay(played, without) == before, (
            f"{played.where}: the log without its last move does not replay to the state before")


@by_game
@RANDOM_GAMES
@given(data=st.data())
def test_every_move_has_a_one_line_summary(slug, data):
    played = random_game(slug, data)
    game = plugin_of(slug).rules
    for entry, before, after in played.moves:
        try:
            line = game.summary({"type": entry["type"], "data": entry["data"]}, before, after)
        except Exception as error:
            raise AssertionError(f"{played.where}: the summary of {entry} raised {error!r}"
                                 ) from error
        assert isinstance(line, str) and line.strip() and "\n" not in line, (
            f"{played.where}: the summary of {entry} is {line!r}")


@by_game
@RANDOM_GAMES
@given(data=st.data())
def test_every_move_leaves_last_a_dict_of_its_type(slug, data):
    played = random_game(slug, data)
    wrong = Counter()
    example = {}
    for entry, _before, after in played.moves:
        last = after.get("last")
        if not (isinstance(last, dict) and last.get("type") == entry["type"]):
            wrong[entry["type"]] += 1
            example.setdefault(entry["type"], last)
    assert not wrong, (
        f"{played.where}: state['last'] is not a dict with the move's type after "
        f"{dict(wrong)} (e.g. {json.dumps(example)[:400]})")


@by_game
@RANDOM_GAMES
@given(data=st.data())
def test_states_stay_json_and_moves_never_mutate_their_input(slug, data):
    played = random_game(slug, data)
    for state in [played.setup, *(after for _entry, _before, after in played.moves)]:
        assert json.loads(json.dumps(state)) == state, (
            f"{played.where}: a state is not plain JSON: {state!r}"[:600])


@by_game
@RANDOM_GAMES
@given(data=st.data())
def test_standings_rank_every_seat_and_the_seats_awaited_are_the_tables(slug, data):
    played = random_game(slug, data)
    game = plugin_of(slug).rules
    states = [played.setup, *(after for _entry, _before, after in played.moves)]
    for state in states[:: max(1, len(states) // 8)] + [played.final]:
        rows = game.standings(copy.deepcopy(state))
        assert sorted(row["seat"] for row in rows) == list(range(len(played.names))), (
            f"{played.where}: standings need one row per seat: {rows}")
        for row in rows:
            assert {"seat", "name", "score", "rank", "winner", "details"} <= set(row), (
                f"{played.where}: a standings row lacks keys: {row}")
            assert row["name"] == played.names[row["seat"]]
            assert isinstance(row["rank"], int) and row["rank"] >= 1
            assert json.loads(json.dumps(row)) == row
        if game.awaited is not None:
            # Whom the table waits on: seats of this table, each once; no one once it is over.
            awaited = game.awaited(copy.deepcopy(state))
            assert all(isinstance(seat, int) and 0 <= seat < len(played.names)
                       for seat in awaited) and len(set(awaited)) == len(awaited), (
                f"{played.where}: awaited names no seats of the table: {awaited}")
            assert not (game.finished(state) and awaited), (
                f"{played.where}: a finished game awaits {awaited}")
        if game.finished(state):
            # Winners are ranked first; a game nobody wins is one the table lost together
            # (a cooperative game), every seat sharing the first place.
            assert all(row["rank"] == 1 for row in rows if row["winner"]), (
                f"{played.where}: a winner not ranked 1: {rows}")
            assert any(row["winner"] for row in rows) or all(
                row["rank"] == 1 for row in rows), (
                f"{played.where}: a finished game has a winner ranked 1, or the table lost "
                f"together: {rows}")


def _differences(one: Any, other: Any, path: tuple = ()) -> set[tuple]:
    """The paths at which two JSON values differ (a key on one side only differs there)."""
    if isinstance(one, dict) and isinstance(other, dict):
        found = set()
        for key in set(one) | set(other):
            if key not in one or key not in other:
                found.add((*path, key))
            else:
                found |= _differences(one[key], other[key], (*path, key))
        return found
    if isinstance(one, list) and isinstance(other, list) and len(one) == len(other):
        found = set()
        for index, (a, b) in enumerate(zip(one, other, strict=True)):
            found |= _differences(a, b, (*path, index))
        return found
    return set() if one == other else {path}


def _within(paths: set[tuple], hidden: set[tuple]) -> set[tuple]:
    """The paths of `paths` that are not in, above or below a path of `hidden`."""
    def related(a, b):
        return a[:len(b)] == b or b[:len(a)] == a

    return {path for path in paths if not any(related(path, other) for other in hidden)}


@by_game
@RANDOM_GAMES
@given(data=st.data())
def test_redaction_hides_only_what_a_viewer_may_not_see(slug, data):
    played = random_game(slug, data)
    game = plugin_of(slug).rules
    viewers = [None, *range(len(played.names))]
    states = [played.setup, *(after for _entry, _before, after in played.moves)]
    for state in states:
        kept = copy.deepcopy(state)
        board_hides = None
        for viewer in viewers:
            seen = game.redact(state, viewer)
            assert state == kept, f"{played.where}: redact(state, {viewer}) mutated the state"
            assert json.loads(json.dumps(seen)) == seen, (
                f"{played.where}: redact(state, {viewer}) is not plain JSON")
            assert game.redact(seen, viewer) == seen, (
                f"{played.where}: redacting twice for {viewer} hides more than once")
            hidden = _differences(state, seen)
            if viewer is None:
                board_hides = hidden
            else:
                # The board (viewer None) is the most public view: a seat sees all it shows.
                assert not _within(hidden, board_hides), (
                    f"{played.where}: seat {viewer} is shown less than the board: "
                    f"{list(_within(hidden, board_hides))[:5]}")
            if game.finished(state):
                assert seen == state, (
                    f"{played.where}: once the game is over nothing is hidden, but redact for "
                    f"{viewer} hides {list(hidden)[:5]}")
    for entry, _before, after in played.moves:
        move = {**entry, "undone": bool(entry.get("undone"))}
        for viewer in viewers:
            shown = game.redact_move(move, after, viewer)
            assert json.loads(json.dumps(shown)) == shown and shown["type"] == move["type"], (
                f"{played.where}: redact_move({move}, {viewer}) gives {shown!r}")
            assert game.redact_move(shown, after, viewer) == shown
            if game.finished(played.final) and not move["undone"]:
                assert game.redact_move(move, played.final, viewer) == move, (
                    f"{played.where}: once the game is over {move} is hidden from {viewer}")


# --- the samples reach deep ---------------------------------------------------------------------


@lru_cache(maxsize=8)
def survey(slug: str) -> list[Played]:
    game = plugin_of(slug).rules
    seat_counts = range(game.min_players, game.max_players + 1)
    sets = len(option_sets(slug))
    return [play(slug, seed, seat_counts[seed % len(seat_counts)], seed % sets)
            for seed in SURVEY_SEEDS]


@by_game
def test_the_samples_reach_every_move_and_the_end(slug):
    game = plugin_of(slug).rules
    games = survey(slug)
    played = Counter(entry["type"] for one in games for entry, _b, _a in one.moves)
    steps = sum(one.steps - len(one.undos) for one in games)
    stuck = sum(one.stuck for one in games)
    finished = sum(game.finished(one.final) for one in games)
    unplayed = sorted(set(game.moves) - set(played))
    assert not unplayed, f"{game.name}: the samples never led to a legal {unplayed}"
    assert finished, f"{game.name}: none of {len(games)} random games finished"
    assert stuck <= (1 - MIN_LEGAL_SHARE) * steps, (
        f"{game.name}: {stuck} of {steps} draws of candidates had no legal move")


# --- the panel ----------------------------------------------------------------------------------


def _panel_data(plugin: plugins.Plugin, seats: int) -> list[Any]:
    """What panel_data loads (from the test database) for a fresh session of the game, and for
    the same session once a guest phone holds every seat."""
    if plugin.panel_data is None:
        return [None]
    from companion import services
    from tests.factories import UserFactory

    session = services.session_create(owner=UserFactory(username=f"conformance{seats}"),
                                      game=plugin.slug,
                                      players=[f"Seat {index}" for index in range(seats)])
    fresh = plugin.panel_data(session)
    for seat in range(seats):
        services.guest_join(code=session.code, seat=seat)
    return [fresh, plugin.panel_data(session)]


@pytest.mark.django_db
@by_game
def test_the_panel_model_answers_every_viewer(slug):
    plugin = plugin_of(slug)
    assert plugin.panel_model is not None, f"{plugin.rules.name} declares no panel_model"
    game = plugin.rules
    for seats in sorted({game.min_players, game.max_players}):
        played = play(slug, 1, seats, 0)
        loaded = _panel_data(plugin, seats)
        states = [played.setup, *(after for _entry, _before, after in played.moves)]
        picked = [states[index] for index in sorted({0, len(states) // 3,
                                                     2 * len(states) // 3, len(states) - 1})]
        views = [(None, True), (None, False), *((seat, False) for seat in range(seats))]
        for state in picked:
            for (viewer, is_host), data in itertools.product(views, loaded):
                seen = game.redact(state, viewer)
                try:
                    model = plugin.panel_model(seen, viewer=viewer, is_host=is_host, data=data,
                                               posted=None, refusal=None)
                except Exception as error:
                    raise AssertionError(
                        f"{played.where}: panel_model for viewer {viewer} (host {is_host}, data "
                        f"{data!r:.100}) raised {error!r} in state {json.dumps(seen)[:600]}"
                    ) from error
                assert isinstance(model, dict), f"{played.where}: panel_model gives a dict"
            if plugin.live_model is not None:
                live = plugin.live_model(game.redact(state, None), game.standings(state))
                assert isinstance(live, dict), f"{played.where}: live_model gives a dict"



# What a phone or a client may send for a field: the serializer is the one shape check.
_ANY_VALUE = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.floats(-2, 8, allow_nan=False),
    st.text(max_size=5), st.lists(st.one_of(st.integers(-1, 7), st.text(max_size=3)),
                                  max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(-1, 3), max_size=2))


@by_game
@pytest.mark.django_db
@settings(max_examples=int(os.environ.get("CONFORMANCE_EXAMPLES", "8")) * 25, deadline=None,
          derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_whatever_a_serializer_lets_through_the_rules_apply_or_refuse_with_a_sentence(slug,
                                                                                    data):
    """The rules are handed a move's fields as its serializer made them and check rules, not
    types: for any fields at all, the serializer refuses them (Refused) or the rules take them
    or refuse them with a sentence (RuleViolation), never another error."""
    from companion.errors import Refused
    from companion.payloads import move_payload

    plugin = plugin_of(slug)
    played = play(slug, data.draw(st.integers(0, 3), label="seed"), plugin.rules.min_players + 1,
                  data.draw(st.integers(0, len(option_sets(slug)) - 1), label="options"))
    state = data.draw(st.sampled_from([played.setup] + [after for _, _, after in played.moves]),
                      label="state")
    # A move the samples offer for that state (mostly well formed), one field of it replaced by
    # anything at all, or a move of any type with any fields.
    offered = candidates_of(slug)(state, random.Random(0))
    if offered and data.draw(st.booleans(), label="offered"):
        move = data.draw(st.sampled_from(offered), label="move")
        move_type, fields = move["type"], dict(move["data"])
    else:
        move_type, fields = data.draw(st.sampled_from(sorted(plugin.rules.moves)), label="type"), {}
    serializer = plugin.serializers.get(move_type)
    names = (list(serializer().get_fields()) if serializer else []) or ["note"]
    fields.update(data.draw(st.dictionaries(st.sampled_from(names), _ANY_VALUE, max_size=2),
                            label="changed"))
    try:
        typed = move_payload(game=slug, move_type=move_type, fields=fields)
    except Refused:
        return
    with contextlib.suppress(engine.RuleViolation):
        engine.apply(plugin.rules, state, move_type, typed, None, "s", 1)
