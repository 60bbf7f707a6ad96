"""The game protocol every game module fulfils, and the one replay of a move log.

Pure Python on purpose: `games/<game>/rules.py` imports this module, and rule tests run with no
database and no Django settings.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

State = dict[str, Any]


def mark(text: str) -> str:
    """Marks a sentence of a pure module as one a person reads (for translation at the edge);
    returns it unchanged, so that modules without Django can use it as `_`."""
    return text


class Refused(Exception):  # noqa: N818 (a refusal is not a program error)
    """The one root of every refusal, the rules' and the platform's: a sentence a person
    understands, an HTTP status and a code for the API, and the fields it is about."""

    status = 400
    code = "invalid"

    def __init__(self, message: str, *, field: str | None = None,
                 fields: Mapping[str, list[str]] | None = None, session: Any = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.fields = dict(fields or ({field: [message]} if field else {}))
        # For 412 (errors.Stale): the answer carries the fresh session.
        self.session = session


class RuleViolation(Refused):
    """A move the rules refuse."""

    code = "rule"


def _identity_state(state: State, viewer: int | None) -> State:
    return state


def _identity_move(move: Mapping[str, Any], state: State, viewer: int | None) -> Mapping[str, Any]:
    return move


@dataclass(frozen=True)
class Game:
    """One game's rules, as `companion` calls them.

    - setup(seat_names, options, rng) -> state
    - moves[type](state, data, actor, rng) -> new state; `actor` is the acting device's seat, or
      None for the host (or a guest without a seat). Raises RuleViolation; never mutates `state`.
    - standings(state) -> rows {"seat", "name", "score", "rank", "winner", "details"}
    - finished(state) -> bool
    - summary(move, before, after) -> one line for the timeline; `move` is {"type", "data"}.
    - redact(state, viewer) / redact_move(move, state, viewer): hide what a viewer may not see yet
      (sealed choices). `viewer` is a seat index, or None for the host and the board.
    - options: every option with its default; check_options(options, seat_count) raises
      RuleViolation for a bad value.
    - tallies(details) -> {name: number}: the numbers of a finished seat's standing details that
      statistics average (optional). The services keep their sums and counts per host and game
      as results are written and removed, so the details' shape stays the game's own.
    - round_scores(details) -> [points of round 1, 2, ...]: a seat's score per round, for the
      charts of a game scored in rounds (optional).
    - Every move leaves `state["last"]` a dict whose "type" is the move's type (what it did, for
      the panels and the log).
    """

    slug: str
    name: str
    min_players: int
    max_players: int
    setup: Callable[[list[str], dict[str, Any], random.Random], State]
    moves: Mapping[str, Callable[[State, dict[str, Any], int | None, random.Random], State]]
    standings: Callable[[State], list[dict[str, Any]]]
    finished: Callable[[State], bool]
    summary: Callable[[Mapping[str, Any], State, State], str]
    options: Mapping[str, Any] = field(default_factory=dict)
    check_options: Callable[[dict[str, Any], int], None] | None = None
    redact: Callable[[State, int | None], State] = _identity_state
    redact_move: Callable[[Mapping[str, Any], State, int | None], Mapping[str, Any]] = (
        _identity_move
    )
    tallies: Callable[[dict[str, Any]], dict[str, float]] | None = None
    round_scores: Callable[[dict[str, Any]], list[float] | None] | None = None

    def resolve_options(self, given: Mapping[str, Any] | None, seat_count: int) -> dict[str, Any]:
        """The declared defaults overlaid with `given`; unknown names and bad values refused."""
        given = dict(given or {})
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            known = ", ".join(sorted(self.options)) or "none"
            raise RuleViolation(
                f"{self.name} has no option {', '.join(unknown)} (its options: {known}).",
                field="options",
            )
        options = {**self.options, **given}
        if self.check_options:
            self.check_options(options, seat_count)
        return options

    def check_seat_count(self, seat_count: int) -> None:
        if not self.min_players <= seat_count <= self.max_players:
            if self.min_players == self.max_players:
                wanted = f"{self.min_players}"
            else:
                wanted = f"{self.min_players} to {self.max_players}"
            raise RuleViolation(
                f"{self.name} is played by {wanted} players, not {seat_count}.", field="players"
            )


class Dice(random.Random):
    """A move's seeded random source, noting every six-sided die it rolls (for the timeline)."""

    def __init__(self, seed: str):
        super().__init__(seed)
        self.rolled: list[int] = []

    def randint(self, a: int, b: int) -> int:
        value = super().randint(a, b)
        if (a, b) == (1, 6):
            self.rolled.append(value)
        return value


def move_rng(seed: str, seq: int) -> Dice:
    """The random source of move `seq` (0 is the set-up): a replay rolls the same dice."""
    return Dice(f"{seed}:{seq}")


def apply(game: Game, state: State, move_type: str, data: dict[str, Any], actor: int | None,
          seed: str, seq: int, rng: random.Random | None = None) -> State:
    """One move applied to `state`, or RuleViolation."""
    rng = rng or move_rng(seed, seq)
    try:
        rule = game.moves[move_type]
    except KeyError:
        known = ", ".join(sorted(game.moves))
        raise RuleViolation(
            f"{game.name} has no move called {move_type!r} (its moves: {known}).", field="type"
        ) from None
    return rule(state, data, actor, rng)


def initial_state(game: Game, seat_names: list[str], options: dict[str, Any], seed: str) -> State:
    return game.setup(list(seat_names), dict(options), move_rng(seed, 0))


@dataclass(frozen=True)
class Step:
    """One move of a log folded: the state before and after it and the dice it rolled. An undone
    move is not applied (after is before); a refused one carries its refusal (tolerant folds)."""

    move: Mapping[str, Any]
    before: State
    after: State
    dice: list[int]
    refusal: RuleViolation | None = None

    @property
    def applied(self) -> bool:
        return self.refusal is None and not self.move.get("undone")


def steps(game: Game, state: State, seed: str, moves: Iterable[Mapping[str, Any]], *,
          tolerant: bool = False) -> Iterator[Step]:
    """The one fold of a move log ({"seq", "type", "data", "actor", "undone"?}, in seq order) over
    `state`: replay, import and the timeline all read it. A refused move raises RuleViolation,
    or with `tolerant` is yielded with its refusal and leaves the state as it was (an old log
    the rules no longer take)."""
    for move in moves:
        if move.get("undone"):
            yield Step(move, state, state, [])
            continue
        rng = move_rng(seed, move["seq"])
        try:
            after = apply(game, state, move["type"], move["data"], move.get("actor"), seed,
                          move["seq"], rng)
        except RuleViolation as refusal:
            if not tolerant:
                raise
            yield Step(move, state, state, [], refusal)
            continue
        yield Step(move, state, after, rng.rolled)
        state = after


def replay(game: Game, seat_names: list[str], options: dict[str, Any], seed: str,
           moves: Iterable[Mapping[str, Any]]) -> State:
    """Fold the active moves ({"seq", "type", "data", "actor"}) over the set-up, in seq order."""
    state = initial_state(game, seat_names, options, seed)
    for step in steps(game, state, seed, moves):
        state = step.after
    return state


def standings_of(game: Game, state: State) -> list[dict[str, Any]]:
    """The game's standings as the table, the history and the API show them: nobody is the
    winner of a game in play; `leader` marks its first place (rank 1) instead. Once the game is
    finished, its winners are the game's own (`winner`), and `leader` still marks rank 1."""
    finished = game.finished(state)
    rows = game.standings(state)
    for row in rows:
        row["leader"] = row["rank"] == 1
        row["winner"] = bool(row.get("winner")) and finished
    return rows


def rank_by_score(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rank rows by "score", highest first: rank = 1 + seats strictly ahead; rank 1 wins.

    Rows keep their other keys; they come back sorted by rank, then seat.
    """
    ordered = sorted(rows, key=lambda row: (-row["score"], row["seat"]))
    for row in ordered:
        ahead = sum(1 for other in ordered if other["score"] > row["score"])
        row["rank"] = 1 + ahead
        row["winner"] = row["rank"] == 1
    return ordered


# The rules of every registered game: slug -> Game. Filled by companion.plugins.register.
_registry: dict[str, Game] = {}


def register(game: Game) -> None:
    _registry[game.slug] = game


def unregister(slug: str) -> None:
    _registry.pop(slug, None)


def get(slug: str) -> Game:
    try:
        return _registry[slug]
    except (KeyError, TypeError):
        raise RuleViolation(f"There is no game called {slug!r}.", field="game") from None


def all_games() -> list[Game]:
    return sorted(_registry.values(), key=lambda game: game.name)
