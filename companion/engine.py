"""The game protocol every game module fulfils, and the one replay of a move log.

Pure Python on purpose: `games/<game>/rules.py` imports this module, and rule tests run with no
database and no Django settings.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

# The games' sentences come from here too: `from companion.engine import _, Text`.
from companion.sentences import Text, _, joined, listing, n_  # noqa: F401

State = dict[str, Any]


def copied(value: Any) -> Any:
    """A deep copy of a state (plain data: dicts, lists, numbers, text) for a rule to change: the
    C pickler's round trip copies one about four times faster than copy.deepcopy (a move copies
    its state, and so does each redaction of it)."""
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))  # noqa: S301 - our own bytes


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


@dataclass(frozen=True)
class Option:
    """How the new-game form shows one set-up option: a label, a line of help, and its kind.

    Kinds: "choice" (radio buttons of `choices`, (value, label) pairs), "switch" (a checkbox of
    a bool), "number" (a whole number from `minimum` to `maximum`; with `optional`, empty means
    None), "text" (with `suggest`: the name of a list the game's `option_suggestions` fills, such
    as names used before), "seat" (one of the seats, or none with `optional`), "teams" (lists of
    seats, written on the form as its player numbers: "1 3, 2 4"), "names" (a list of names in
    seat order, written between commas; `names` the ones the game knows, matched whatever their
    case), and "advanced" (JSON, folded away under "More options"). The API takes the
    same values as before.

    `required`: the sentence said when a "text" option is left empty, for an option the game
    cannot be set up without (the score pad's game name); the form asks for it first, before
    the players, and says the sentence beside it. The rules refuse it empty with the same one.
    """

    name: str
    label: str
    kind: str
    help: str = ""
    choices: tuple[tuple[Any, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    optional: bool = False
    suggest: str | None = None
    names: tuple[str, ...] = ()
    required: str = ""


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
    - pending(state) -> bool: whether a hidden choice is still to be made or revealed (the
      host's export waits until none is); without it, whether redact(state, None) hides anything.
    - options: every option with its default; check_options(options, seat_count) raises
      RuleViolation for a bad value; option_fields: an `Option` per option, how the new-game
      form shows it (an option without one is shown by the type of its default).
    - title(options) -> str: the name of the game played, where one game's rules serve many
      (the score pad): history and statistics count each title as a game of its own (optional);
      with it, titled_options(title, win) -> the options of a play of that named game won by
      the highest score ("high"), the lowest ("low"), together ("coop") or with no points
      ("none"): a play logged afterwards of any other game is one of this game.
    - tallies(details) -> {name: number}: the numbers of a finished seat's standing details that
      statistics average (optional). The services keep their sums and counts per host and game
      as results are written and removed, so the details' shape stays the game's own.
    - round_scores(details) -> [points of round 1, 2, ...]: a seat's score per round, for the
      charts of a game scored in rounds (optional).
    - score_label: what the scoreboard's number counts ("Points", "Worship"); rank_rule: one line
      of how the places are decided ("Most points wins"), or a function of the state where the
      options decide it; now(state) -> a line of where the game
      stands (the phase, whose turn) for the table's "now" line (optional).
    - awaited(state) -> the seats the table waits on now: whose turn it is, who has yet to seal
      or to score (seat indices; none once the game is over). Each such seat's phone tells its
      player without being looked at (a vibration, the tab's title) (optional: none).
    - authority: who may make each move type (see `move_authority`): a rule, or a function
      (state, data) -> rule; a move type left out is a seat's move when its fields name a
      "seat", else the table's.
    - host_undoes(move, state) -> a sentence when only the host may undo `move` (the last active
      one, {"type", "data"}; `state` is the state it left), else None: a phone may as usual
      (optional; Knights: the seal that showed every seat's faces).
    - bgg_id: the game's BoardGameGeek id, which other apps (BG Stats) match a game by; None
      where it is not known.
    - first: the name of the option that says which seat starts, where the game has a first
      player (a "seat" option: the score pad's "first", Knights' "merlin"); None where no seat
      starts. The platform offers it as "Who starts?" at set-up and at a rematch, and takes
      DRAW for it besides a seat (or None, where its Option is optional: the table decides):
      the set-up draws the seat from the game's seed (`first_seat`), so that `setup` is handed
      a seat, a replay draws the same one, and the log tells the draw (`setup_line`).
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
    option_fields: tuple[Option, ...] = ()
    title: Callable[[Mapping[str, Any]], str] | None = None
    titled_options: Callable[[str, str], dict[str, Any]] | None = None
    check_options: Callable[[dict[str, Any], int], None] | None = None
    redact: Callable[[State, int | None], State] = _identity_state
    redact_move: Callable[[Mapping[str, Any], State, int | None], Mapping[str, Any]] = (
        _identity_move
    )
    pending: Callable[[State], bool] | None = None
    host_undoes: Callable[[Mapping[str, Any], State], Text | None] | None = None
    tallies: Callable[[dict[str, Any]], dict[str, float]] | None = None
    round_scores: Callable[[dict[str, Any]], list[float] | None] | None = None
    authority: Mapping[str, Any] = field(default_factory=dict)
    score_label: str = _("Points")
    rank_rule: str | Callable[[State], str] = _("Most points wins.")
    now: Callable[[State], str | None] | None = None
    awaited: Callable[[State], list[int]] | None = None
    bgg_id: int | None = None
    first: str | None = None

    @property
    def first_option(self) -> Option | None:
        """How the form shows the option of who starts (`first`), or None without one."""
        if self.first is None:
            return None
        return next((option for option in self.option_fields if option.name == self.first),
                    Option(name=self.first, label=self.first, kind="seat"))

    def resolve_options(self, given: Mapping[str, Any] | None, seat_count: int) -> dict[str, Any]:
        """The declared defaults overlaid with `given`; unknown names and bad values refused."""
        given = dict(given or {})
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            known = ", ".join(sorted(self.options))
            if not known:
                raise RuleViolation(_("{game} has no options (given: {unknown}).",
                                      game=self.name, unknown=", ".join(unknown)),
                                    field="options")
            raise RuleViolation(
                _("{game} has no option {unknown} (its options: {known}).",
                  game=self.name, unknown=", ".join(unknown), known=known),
                field="options",
            )
        options = {**self.options, **given}
        if self.check_options:
            # A draw gives one of the seats: the game checks the rest as for any seat.
            self.check_options(_drawn_as_a_seat(self, options), seat_count)
        self.check_first(options, seat_count)
        return options

    def check_first(self, options: Mapping[str, Any], seat_count: int) -> None:
        """Who starts is a seat, the draw, or (where its Option is optional) nobody named."""
        if self.first is None:
            return
        chosen = options.get(self.first)
        if chosen == DRAW or is_seat_index(chosen, seat_count=seat_count):
            return
        if chosen is None and self.first_option.optional:
            return
        raise RuleViolation(
            _("Who starts is one of the seats, 0 to {last}, or \"draw\", not {given}.",
              last=seat_count - 1, given=repr(str(chosen)[:20])), field=self.first)

    def check_seat_count(self, seat_count: int) -> None:
        if not self.min_players <= seat_count <= self.max_players:
            if self.min_players == self.max_players:
                refusal = _("{game} is played by {n} players, not {count}.", game=self.name,
                            n=self.min_players, count=seat_count)
            else:
                refusal = _("{game} is played by {low} to {high} players, not {count}.",
                            game=self.name, low=self.min_players, high=self.max_players,
                            count=seat_count)
            raise RuleViolation(refusal, field="players")


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


# Who starts, drawn by the set-up from the game's seed (Game.first).
DRAW = "draw"


def _drawn_as_a_seat(game: Game, options: dict[str, Any]) -> dict[str, Any]:
    if game.first is not None and options.get(game.first) == DRAW:
        return {**options, game.first: 0}
    return options


def first_seat(game: Game, options: Mapping[str, Any], seat_count: int,
               seed: str) -> int | None:
    """The seat that starts: the one the options name, or the one the draw gives. The draw has
    its own random source, apart from the set-up's (move 0's): a replay draws the same seat,
    and the dice of the set-up are the same with a draw or without. None: the game has no first
    player, or leaves it to the table."""
    if game.first is None:
        return None
    # Options kept before the game had the option (Jack Rabbits' seat 0) hold its default.
    chosen = options.get(game.first, game.options.get(game.first))
    if chosen == DRAW:
        return random.Random(f"{seed}:first").randrange(seat_count)
    return chosen


def setup_line(game: Game, seat_names: list[str], options: Mapping[str, Any],
               seed: str) -> Text | None:
    """What the set-up drew, for the log before the first move: "The draw: Ana starts"; None
    when nothing was drawn (a seat the table named is the game's own to show)."""
    if game.first is None or options.get(game.first) != DRAW:
        return None
    seat = first_seat(game, options, len(seat_names), seed)
    return _("The draw: {name} starts", name=seat_names[seat])


def move_rng(seed: str, seq: int, dice_of: int | None = None) -> Dice:
    """The random source of move `seq` (0 is the set-up): a replay rolls the same dice. A redo
    rolls those of the move it puts back (`dice_of`, Move.dice_of)."""
    return Dice(f"{seed}:{dice_of or seq}")


def apply(game: Game, state: State, move_type: str, data: dict[str, Any], actor: int | None,
          seed: str, seq: int, rng: random.Random | None = None, *,
          dice_of: int | None = None) -> State:
    """One move applied to `state`, or RuleViolation."""
    rng = rng or move_rng(seed, seq, dice_of)
    try:
        rule = game.moves[move_type]
    except KeyError:
        known = ", ".join(sorted(game.moves))
        raise RuleViolation(
            _("{game} has no move called {move} (its moves: {known}).", game=game.name,
              move=repr(move_type), known=known), field="type"
        ) from None
    return rule(state, data, actor, rng)


def initial_state(game: Game, seat_names: list[str], options: dict[str, Any], seed: str) -> State:
    """The state before the first move; the game's `setup` is handed the seat a draw gives."""
    options = dict(options)
    if game.first is not None and options.get(game.first) == DRAW:
        options[game.first] = first_seat(game, options, len(seat_names), seed)
    return game.setup(list(seat_names), options, move_rng(seed, 0))


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
    """The one fold of a move log ({"seq", "type", "data", "actor", "undone"?, "dice_of"?: the
    seq whose dice a redo rolls again}, in seq order) over
    `state`: replay, import and the timeline all read it. A refused move raises RuleViolation,
    or with `tolerant` is yielded with its refusal and leaves the state as it was (an old log
    the rules no longer take)."""
    for move in moves:
        if move.get("undone"):
            yield Step(move, state, state, [])
            continue
        rng = move_rng(seed, move["seq"], move.get("dice_of"))
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


def rank_rule_of(game: Game, state: State) -> str:
    return game.rank_rule(state) if callable(game.rank_rule) else game.rank_rule


# Who may make a move. The platform decides from these, for the API and the pages alike.
TABLE = "table"  # a move of the whole table (turn a card, roll for the table): any seat's phone
SEAT = "seat"  # a seat's own move: that seat's phone, or the host's
OWN = "own"  # a seat's secret or binding choice: that seat's phone only (the host while no phone
# holds the seat)
HOST = "host"  # a move that ends or overrules the game for everyone: the host's only
LEVELS = (TABLE, SEAT, OWN, HOST)


def move_authority(game: Game, move_type: str, data: Any,
                   state: State) -> tuple[str, tuple[int, ...]]:
    """(level, seats) for a move: how far its authority reaches and the seats it is about.

    `game.authority[move_type]` is a level, optionally with the fields that name its seats:
    "seat:challenger,challenged" is a move of either seat's phone (or the host's). The fields
    default to "seat". A field written "@arthur" is read from the state the move is played on,
    not from the move: the seat holding a role ("seat:@arthur", Arthur's step whoever is Arthur
    this round). Where it depends on the move or the moment, the entry is a function
    (state, data) -> such a rule. A seat's move whose fields name no seat is the table's."""
    rule = game.authority.get(move_type)
    data = data if isinstance(data, Mapping) else {}
    if callable(rule):
        rule = rule(state, data)
    if rule is None:
        rule = SEAT if _is_seat(data.get("seat")) else TABLE
    level, _colon, names = rule.partition(":")
    fields = names.split(",") if names else ["seat"]
    seats = tuple(value for value in (_named_seat(name, data, state) for name in fields)
                  if _is_seat(value))
    if level in (SEAT, OWN) and not seats:
        level = TABLE
    return level, seats


def _named_seat(name: str, data: Mapping[str, Any], state: State) -> Any:
    return state.get(name[1:]) if name.startswith("@") else data.get(name)


def _is_seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


# ---------------------------------------------------------------------------------------------
# Reading a move's fields: the small checks of type and shape that every game's rules make on
# what a move gives. They say nothing of their own: a game passes the sentence it refuses with
# (its msgid stays in the game's module, so in the game's catalogue), and a player reads what
# that game always said.


def is_int(value: Any) -> bool:
    """Whether `value` is a whole number: an int and not a bool (True is not 1 here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_seat_index(value: Any, *, seat_count: int) -> bool:
    """Whether `value` numbers a seat at a table of `seat_count` seats: a whole number (`is_int`)
    from 0 to seat_count - 1."""
    return is_int(value) and 0 <= value < seat_count


def fields(data: Any, *, refusal: Text, field: str | None = None, none_is_empty: bool = False,
           any_mapping: bool = False) -> Any:
    """A move's fields: `data` itself when it is a dict (with `any_mapping`, any Mapping), {} for
    None when `none_is_empty`; anything else is refused: RuleViolation(refusal, field=field)."""
    if data is None and none_is_empty:
        return {}
    if isinstance(data, Mapping if any_mapping else dict):
        return data
    raise RuleViolation(refusal, field=field)


def required(data: Mapping[str, Any], name: str, *, refusal: Callable[[str], Text]) -> Any:
    """The value of the field `name` of a move's fields, which must be given: a field missing or
    None is refused with the game's sentence for it, RuleViolation(refusal(name), field=name)."""
    value = data.get(name)
    if value is None:
        raise RuleViolation(refusal(name), field=name)
    return value


def seat_name(state: Mapping[str, Any], seat: int) -> str:
    """The name of seat `seat` (its index in state["seats"]) as the table wrote it."""
    return state["seats"][seat]["name"]


def signed(value: int, *, plus_zero: bool = True) -> str:
    """A change with its sign, as a score line shows it: "+3", "-2"; zero is "+0", or "0" with
    plus_zero=False."""
    return f"+{value}" if value > 0 or (plus_zero and value == 0) else str(value)
