"""Don Quixote (Reinhard Staupe, Pegasus 2010): position cards, the three scorings, the track.

Spec: shared/specs/quixote.md; rulebook: shared/rules/don-quixote.txt. Pure Python, no Django.

Readings where the spec leaves the choice to the app (the app's reading):
- `current` is the field of the card turned last (None before the first card); during scoring it
  still names the last card, and it is the field to fill while the phase is "placing".
- `castles` is {"6": None, "4": None} until the castles are placed.
- The scoring that completes a round (every seat has scored it) opens the next round at once:
  `round` + 1, phase "placing", no card turned in it yet. After round 3 the phase is "finished".
- deck=none: no castles or cards (those moves are refused); phase is "scoring" from the start and
  "finished" once every seat has scored round 3; `round` is the lowest round some seat has still to
  score (3 once finished); `cards_in_round` and `turned_in_round` are None.
- With deck=table the sixth card of round 3 may leave out `field`: it can only be the last free
  field (rulebook: "you place the tile set aside on the last free field").
- `church_groups` and `windmill_groups` are required (an empty list: no group); `knight_groups`
  may be left out or empty in every round, and is refused when it has a group in rounds 1 and 2.
- A solitaire rating is given once the game is finished ("" before, and for 70 or less).

The numbers must fit the tiles (`ceilings`): a round's score is checked against what the
principality can hold once that round's tiles are placed (a correction of an earlier round too).
The rulebook prints no count of the churches, windmills and knights on the tiles, only the tiles,
so each ceiling is the most the tiles could hold, never less than a real principality holds:
- The tiles: "In the first round, each player places 9 tiles in his Principality, in the second
  round 7 tiles, and in the third round, the remaining 5 (+1) tiles": 9, 16, 22 tiles after
  rounds 1, 2, 3. The two castle tiles are placed before ("Place your remaining 22 tiles") and
  hold no church, windmill or knight.
- A tile holds at most one church, windmill or knight on each half: "Every tile has two halves!",
  and a knight stands on "his tile half". So 18, 32, 44 of each kind: the church groups together
  (the windmill groups, the knight groups of round 3) have at most that many members, and a castle
  ("connect it to at least one knight") at most that many knights connected.
- The defense: "All knights which are placed on the edge of the Principality whose tile half is
  directly connected by road to the outermost edge" count "using the points on their shields".
  18 of the 24 fields are on the edge (rows 1 and 3, columns A and H: the spec), so at most
  min(tiles, 18) tiles defend, each with a knight on both halves of at most 3 shields (the shields
  are 1 to 3): 54, 96, 108 shields.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from typing import Any

from companion.engine import (
    Game,
    Option,
    RuleViolation,
    Text,
    _,
    copied,
    joined,
    listing,
    n_,
    rank_by_score,
    required,
)

COLUMNS = "ABCDEFGH"
ROWS = (1, 2, 3)
FIELDS = tuple(f"{column}{row}" for column in COLUMNS for row in ROWS)
CARDS_PER_ROUND = {1: 9, 2: 7, 3: 6}
ROUNDS = (1, 2, 3)
DECKS = ("app", "table", "none")
CASTLE_POINTS = {"6": 6, "4": 4}
DEFENSE_POINTS = 5
SHIELDS_PER_ROUND = 4  # rulebook: at least 4, 8, 12 shield points in rounds 1, 2, 3
KNIGHTS_ROUND = 3  # the round whose scoring counts the best group of knights
KNIGHT_SHIELDS = (1, 2, 3)  # the shields a knight tile may show
HALVES_PER_TILE = 2  # rulebook: "Every tile has two halves!" (one church, windmill or knight each)
# The fields on the edge of the principality (rulebook: "placed on the edge of the Principality").
EDGE_FIELDS = tuple(name for name in FIELDS
                    if name[0] in (COLUMNS[0], COLUMNS[-1]) or int(name[1:]) in (ROWS[0], ROWS[-1]))
BREAKDOWN_KEYS = ("round", "castle6", "castle4", "churches", "windmills", "defense", "knights",
                  "total")
RATINGS = ((100, _("absolutely incredible")), (85, _("quite rare")), (70, _("very good")))


# --- fields -------------------------------------------------------------------------------------

def field_position(name: str) -> tuple[int, int]:
    """(column index 0-7, row 1-3) of a known field such as "F1"."""
    return COLUMNS.index(name[0]), int(name[1:])


def fields_touch(a: str, b: str) -> bool:
    """Two different fields that share a side or a corner (rulebook: "not even diagonally")."""
    (col_a, row_a), (col_b, row_b) = field_position(a), field_position(b)
    return a != b and abs(col_a - col_b) <= 1 and abs(row_a - row_b) <= 1


def parse_field(value: Any, name: str) -> str:
    """A known field's name ("f1" and " F1 " read as "F1"), or RuleViolation naming `name`."""
    text = value.strip().upper() if isinstance(value, str) else value
    if text not in FIELDS:
        shown = (text or _("(blank)")) if isinstance(text, str) else repr(value)
        raise RuleViolation(_("There is no field {field}: the fields are A1 to H3.", field=shown),
                            field=name)
    return text


def castle_fields(state: Mapping[str, Any]) -> list[str]:
    return [where for where in state["castles"].values() if where]


def free_fields(state: Mapping[str, Any]) -> list[str]:
    """Fields with no castle and no card turned yet, in A1 … H3 order."""
    taken = set(castle_fields(state)) | set(state["turned"])
    return [name for name in FIELDS if name not in taken]


def round_of_card(position: int) -> int:
    """The round of the `position`-th card turned (0-based): 9, then 7, then 6 cards."""
    turned = 0
    for round_ in ROUNDS:
        turned += CARDS_PER_ROUND[round_]
        if position < turned:
            return round_
    return ROUNDS[-1]


# --- a score as written ------------------------------------------------------------------------
# How a person writes the groups of a score (the forms, and the API, which takes the same text):
# group sizes as a list or as text such as "2 3"; knight groups as a list of lists, as JSON, or as
# text such as "2 3 1 3; 1" (groups split by ";", "/" or a new line). Each reading raises
# RuleViolation with the sentence, without a field (the caller knows which it read).

# What a group's size is called, a whole phrase per building (el tamaño de un grupo de iglesias).
GROUP_SIZE = {"church": _("The size of a church group"),
              "windmill": _("The size of a windmill group")}
SHIELD = _("A knight's shield")

GROUP_SPLIT = re.compile(r"[;/|\n]+")
MEMBER_SPLIT = re.compile(r"[\s,+]+")


def written_whole(value: Any, *, low: int, high: int | None = None, what: Text) -> int:
    """A whole number given as a number or as its digits ("3", " 3 "). `what` names it (a
    Text: "The size of a church group")."""
    if isinstance(value, bool):
        raise RuleViolation(_("{what} must be a whole number, not {value}.", what=what,
                              value=repr(value)))
    if isinstance(value, str):
        value = value.strip()
        if not re.fullmatch(r"-?\d+", value):
            raise RuleViolation(_("{what} must be a whole number, not {value}.", what=what,
                                  value=repr(value)))
        value = int(value)
    if not isinstance(value, int):
        raise RuleViolation(_("{what} must be a whole number, not {value}.", what=what,
                              value=repr(value)))
    if high is not None and not low <= value <= high:
        raise RuleViolation(_("{what} is {low} to {high}, not {value}.", what=what, low=low,
                              high=high, value=value))
    if value < low:
        raise RuleViolation(_("{what} is at least {low}, not {value}.", what=what, low=low,
                              value=value))
    return value


def _written_list(data: Any) -> list[Any] | None:
    """A list as given, or the JSON list in a string, or None for plain text."""
    if isinstance(data, list):
        return data
    if isinstance(data, str) and data.strip().startswith("["):
        try:
            parsed = json.loads(data)
        except (ValueError, RecursionError):  # a few kilobytes of "[" are deeper than it goes
            raise RuleViolation(_("This is not a readable list.")) from None
        if isinstance(parsed, list):
            return parsed
    if isinstance(data, str):
        return None
    raise RuleViolation(_("Give a list of group sizes, e.g. [2, 5] or \"2 5\"."))


def written_group_sizes(data: Any, building: str) -> list[int]:
    """The sizes of connected groups of `building`: [2, 5], ["2", "5"] (repeated form fields)
    or "2 5"."""
    items = _written_list(data)
    if items is None:
        items = [item for item in MEMBER_SPLIT.split(data) if item]
    # A repeated form field may also hold "2 5" in one of its values.
    flat: list[Any] = []
    for item in items:
        if isinstance(item, str) and MEMBER_SPLIT.search(item.strip()):
            flat.extend(part for part in MEMBER_SPLIT.split(item) if part)
        elif not (isinstance(item, str) and not item.strip()):
            flat.append(item)
    return [written_whole(item, low=1, what=GROUP_SIZE[building]) for item in flat]


def written_knight_groups(data: Any) -> list[list[int]]:
    """Groups of connected knights, each the list of its shields: [[2, 3], [1]] or "2 3; 1"."""
    groups = _written_list(data)
    if groups is None:
        groups = [[item for item in MEMBER_SPLIT.split(group) if item]
                  for group in GROUP_SPLIT.split(data) if group.strip()]
    else:
        groups = [MEMBER_SPLIT.split(group.strip()) if isinstance(group, str) else group
                  for group in groups]
    result = []
    for group in groups:
        if not isinstance(group, list):
            raise RuleViolation(
                _("Each knight group is a list of shields, e.g. [[2, 3], [1]]."))
        if not group:
            raise RuleViolation(_("A knight group has at least 1 knight."))
        result.append([written_whole(shield, low=KNIGHT_SHIELDS[0], high=KNIGHT_SHIELDS[-1],
                                     what=SHIELD) for shield in group])
    return result


# --- numbers of a score -------------------------------------------------------------------------

def _whole(value: int, name: str, what: Text, low: int = 0, high: int | None = None) -> int:
    """`value` (a whole number) if in [low, high], or a sentence naming the field."""
    if value >= low and (high is None or value <= high):
        return value
    if high is not None:
        refusal = _("{what} must be {low} to {high}, not {value} ({name}).", what=what, low=low,
                    high=high, value=repr(value), name=name)
    else:
        refusal = _("{what} must be a whole number, {low} or more, not {value} ({name}).",
                    what=what, low=low, value=repr(value), name=name)
    raise RuleViolation(refusal, field=name)


def _missing(name: str) -> Text:
    """The refusal of a move without its field `name` (engine.required)."""
    return _("The score needs {name}.", name=name)


def check_round(value: int) -> int:
    return _whole(value, "round", _("The round"), ROUNDS[0], ROUNDS[-1])


def castle_knights_needed(round_: int) -> int:
    """The knights a castle needs connected to it to score in round `round_` (1, 2, 3)."""
    return round_


def shields_needed(round_: int) -> int:
    """The shields defending the realm that score its points in round `round_` (4, 8, 12)."""
    return SHIELDS_PER_ROUND * round_


def tiles_after(round_: int) -> int:
    """The tiles a principality holds, its castles aside, once round `round_` is placed."""
    return sum(CARDS_PER_ROUND[earlier] for earlier in ROUNDS if earlier <= round_)


def ceilings(round_: int) -> dict[str, int]:
    """The most a principality can hold after round `round_` (see the module's docstring): its
    tiles, those on the edge, the churches, windmills, knights, and shields defending the realm."""
    tiles = tiles_after(round_)
    edge_tiles = min(tiles, len(EDGE_FIELDS))
    halves = HALVES_PER_TILE * tiles
    return {"tiles": tiles, "edge_tiles": edge_tiles, "churches": halves, "windmills": halves,
            "knights": halves,
            "defense_shields": KNIGHT_SHIELDS[-1] * HALVES_PER_TILE * edge_tiles}


def _groups_over(name: str, **values: Any) -> Text:
    """Too many members in the groups of field `name`: a whole sentence per kind."""
    if name == "church_groups":
        return _("The church groups add up to {n} churches: after round {round} the {tiles} "
                 "tiles hold at most {most} (one on each tile half).", **values)
    if name == "windmill_groups":
        return _("The windmill groups add up to {n} windmills: after round {round} the {tiles} "
                 "tiles hold at most {most} (one on each tile half).", **values)
    return _("The knight groups add up to {n} knights: after round {round} the {tiles} tiles "
             "hold at most {most} (one on each tile half).", **values)


def _check_ceilings(score: Mapping[str, Any]) -> None:
    """Refuse a score the tiles placed by the end of its round could not hold."""
    round_ = score["round"]
    most = ceilings(round_)
    for name, plural in (("church_groups", "churches"), ("windmill_groups", "windmills"),
                         ("knight_groups", "knights")):
        sizes = score[name] if name != "knight_groups" else [len(g) for g in score[name]]
        if sum(sizes) > most[plural]:
            raise RuleViolation(
                _groups_over(name, n=sum(sizes), round=round_, tiles=most["tiles"],
                             most=most[plural]),
                field=name,
            )
    for castle in CASTLE_POINTS:
        knights = score[f"castle{castle}_knights"]
        if knights > most["knights"]:
            raise RuleViolation(
                _("The {castle}-castle cannot have {n} knights connected: after round {round} "
                  "the {tiles} tiles hold at most {most} knights (one on each tile half).",
                  castle=castle, n=knights, round=round_, tiles=most["tiles"],
                  most=most["knights"]),
                field=f"castle{castle}_knights",
            )
    shields = score["defense_shields"]
    if shields > most["defense_shields"]:
        raise RuleViolation(
            _("{n} shields cannot defend the realm: after round {round} at most {edge} tiles lie "
              "on the edge, with at most {most} shields (a knight of {best} on each tile half).",
              n=shields, round=round_, edge=most["edge_tiles"], most=most["defense_shields"],
              best=KNIGHT_SHIELDS[-1]),
            field="defense_shields",
        )


def _group_sizes(data: Mapping[str, Any], name: str) -> list[int]:
    return required(data, name, refusal=_missing)


def _knight_groups(data: Mapping[str, Any], round_: int) -> list[list[int]]:
    groups = data.get("knight_groups")
    if groups is None:
        return []
    if groups and round_ != KNIGHTS_ROUND:
        raise RuleViolation(
            _("Knight groups score only in round {knights}, not in round {round}.",
              knights=KNIGHTS_ROUND, round=round_),
            field="knight_groups",
        )
    return groups


def read_score(round_: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """The checked numbers of one round's score (the fields of the `score` move but seat, as its
    serializer makes them: whole numbers and lists of them)."""
    round_ = check_round(round_)
    score = {
        "round": round_,
        "castle6_knights": _whole(required(data, "castle6_knights", refusal=_missing),
                                  "castle6_knights", _("The knights connected to the 6-castle")),
        "castle4_knights": _whole(required(data, "castle4_knights", refusal=_missing),
                                  "castle4_knights", _("The knights connected to the 4-castle")),
        "church_groups": _group_sizes(data, "church_groups"),
        "windmill_groups": _group_sizes(data, "windmill_groups"),
        "defense_shields": _whole(required(data, "defense_shields", refusal=_missing),
                                  "defense_shields", _("The shields defending the realm")),
        "knight_groups": _knight_groups(data, round_),
    }
    _check_ceilings(score)
    return score


def group_points(size: int) -> int:
    """Churches or windmills connected together: 1 scores 0, exactly 2 score 2, 3+ score 2 each."""
    if size == 1:
        return 0
    return 2 if size == 2 else 2 * size


def best_knight_group(groups: list[list[int]]) -> int:
    """The shields of the best group of at least two connected knights, or 0."""
    return max((sum(group) for group in groups if len(group) >= 2), default=0)


def points_of(score: Mapping[str, Any]) -> dict[str, int]:
    """The breakdown of an already checked score (see read_score)."""
    round_ = score["round"]
    breakdown = {
        "round": round_,
        "castle6": CASTLE_POINTS["6"]
        if score["castle6_knights"] >= castle_knights_needed(round_) else 0,
        "castle4": CASTLE_POINTS["4"]
        if score["castle4_knights"] >= castle_knights_needed(round_) else 0,
        "churches": sum(group_points(size) for size in score["church_groups"]),
        "windmills": sum(group_points(size) for size in score["windmill_groups"]),
        "defense": DEFENSE_POINTS if score["defense_shields"] >= shields_needed(round_) else 0,
        "knights": best_knight_group(score["knight_groups"]) if round_ == KNIGHTS_ROUND else 0,
    }
    breakdown["total"] = sum(value for key, value in breakdown.items() if key != "round")
    return breakdown


def round_points(round_: Any, data: Any) -> dict[str, int]:
    """The breakdown of one round's score, for the page's live preview. RuleViolation if bad."""
    return points_of(read_score(round_, data))


def track_of(total: int) -> dict[str, int]:
    """Where the token stands on the 60-space scoreboard (0 is the castle between 60 and 1)."""
    if total <= 0:
        return {"space": 0, "laps": 0}
    laps = (total - 1) // 60
    return {"space": total - 60 * laps, "laps": laps}


# --- set-up and phases --------------------------------------------------------------------------

def check_options(options: dict[str, Any], seat_count: int) -> None:
    if options.get("deck") not in DECKS:
        raise RuleViolation(
            _("The deck is app, table or none, not {given}.", given=repr(options.get("deck"))),
            field="deck",
        )


def setup(seat_names: list[str], options: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    deck = options.get("deck", "app")
    cards = deck != "none"
    return {
        "phase": "castles" if cards else "scoring",
        "round": 1,
        "deck": deck,
        "castles": {"6": None, "4": None},
        "turned": [],
        "current": None,
        "cards_in_round": CARDS_PER_ROUND[1] if cards else None,
        "turned_in_round": 0 if cards else None,
        "seats": [{"name": name, "rounds": [], "total": 0, "track": track_of(0)}
                  for name in seat_names],
        "last": None,
    }


def scored_rounds(seat: Mapping[str, Any]) -> list[int]:
    return [entry["round"] for entry in seat["rounds"]]


def _everyone_scored(state: Mapping[str, Any], round_: int) -> bool:
    return all(round_ in scored_rounds(seat) for seat in state["seats"])


def unscored(state: Mapping[str, Any], round_: int) -> list[int]:
    """The seats yet to score `round_`."""
    return [index for index, seat in enumerate(state["seats"])
            if round_ not in scored_rounds(seat)]


def not_scored(state: Mapping[str, Any], round_: int) -> list[str]:
    return [state["seats"][index]["name"] for index in unscored(state, round_)]


def _refresh_without_cards(state: dict[str, Any]) -> None:
    waiting = [round_ for round_ in ROUNDS if not _everyone_scored(state, round_)]
    state["round"] = waiting[0] if waiting else 3
    state["phase"] = "scoring" if waiting else "finished"


def _refresh(state: dict[str, Any]) -> None:
    """Phase and round from the cards turned and the scores (opens the next round when due)."""
    if state["deck"] == "none":
        _refresh_without_cards(state)
        return
    if not state["castles"]["6"]:
        state["phase"] = "castles"
        return
    if state["turned_in_round"] < state["cards_in_round"]:
        state["phase"] = "placing"
        return
    round_ = state["round"]
    if not _everyone_scored(state, round_):
        state["phase"] = "scoring"
    elif round_ == 3:
        state["phase"] = "finished"
    else:
        # Rulebook: "After the first score is determined, the second round ensues."
        state.update(round=round_ + 1, phase="placing",
                     cards_in_round=CARDS_PER_ROUND[round_ + 1], turned_in_round=0)


def _refuse_without_cards(state: Mapping[str, Any], move: str) -> None:
    if state["deck"] != "none":
        return
    if move == "castles":
        refusal = _("This session keeps only the scores (deck: none): there are no castle "
                    "cards.")
    else:
        refusal = _("This session keeps only the scores (deck: none): there are no position "
                    "cards to turn.")
    raise RuleViolation(refusal, field="type")


def _refuse_named_fields(data: Mapping[str, Any], names: tuple[str, ...]) -> None:
    named = [name for name in names if data.get(name) not in (None, "")]
    if named:
        raise RuleViolation(
            _("The app turns the position cards itself (deck: app): leave out {fields}.",
              fields=", ".join(named)), field=named[0],
        )


# --- moves --------------------------------------------------------------------------------------

def _draw_castles(rng: random.Random) -> tuple[str, str, list[str]]:
    """The 6-castle's card, then the 4-castle's, redrawn while it touches the 6 (rulebook:
    "draw a new card for the 4-point castle and mix the previous one back into the deck")."""
    six = rng.choice(FIELDS)
    deck = [name for name in FIELDS if name != six]
    four = rng.choice(deck)
    refused = []
    while fields_touch(six, four):
        refused.append(four)
        four = rng.choice([name for name in deck if name != four])
    return six, four, refused


def _table_castles(data: Mapping[str, Any]) -> tuple[str, str]:
    six = required(data, "castle6", refusal=_missing)
    four = required(data, "castle4", refusal=_missing)
    if six == four:
        raise RuleViolation(_("The two castles cannot share {field}.", field=six),
                            field="castle4")
    if fields_touch(six, four):
        raise RuleViolation(
            _("The castles may not touch, not even diagonally: {six} and {four}", six=six,
              four=four), field="castle4"
        )
    return six, four


def move_castles(state: dict[str, Any], data: Any, actor: int | None,
                 rng: random.Random) -> dict[str, Any]:
    _refuse_without_cards(state, "castles")
    if state["castles"]["6"]:
        raise RuleViolation(
            _("The castles are already placed: 6 at {six}, 4 at {four}.",
              six=state["castles"]["6"], four=state["castles"]["4"]), field="type",
        )
    if state["deck"] == "app":
        _refuse_named_fields(data, ("castle6", "castle4"))
        six, four, refused = _draw_castles(rng)
    else:
        six, four = _table_castles(data)
        refused = []
    new = copied(state)
    new["castles"] = {"6": six, "4": four}
    new["last"] = {"type": "castles", "castle6": six, "castle4": four, "refused": refused}
    _refresh(new)
    return new


def _refuse_turn(state: Mapping[str, Any]) -> None:
    phase = state["phase"]
    if phase == "castles":
        raise RuleViolation(_("Place the castles first."), field="type")
    if phase == "finished":
        raise RuleViolation(_("The game is over: every field is filled."), field="type")
    if phase == "scoring":
        round_ = state["round"]
        waiting = not_scored(state, round_)
        raise RuleViolation(
            n_("Round {round} is over: the next card is turned once {names} has scored round "
               "{round}.",
               "Round {round} is over: the next card is turned once {names} have scored round "
               "{round}.", len(waiting), round=round_, names=listing(waiting)),
            field="type",
        )


def _table_turn(state: Mapping[str, Any], data: Mapping[str, Any]) -> str:
    free = free_fields(state)
    if data.get("field") in (None, "") and len(free) == 1:
        return free[0]  # the last card can only be the last free field
    field = required(data, "field", refusal=_missing)
    if field in castle_fields(state):
        which = "6" if state["castles"]["6"] == field else "4"
        raise RuleViolation(_("{field} holds the {castle}-castle.", field=field, castle=which),
                            field="field")
    if field in state["turned"]:
        raise RuleViolation(_("{field} was already turned.", field=field), field="field")
    return field


def move_turn(state: dict[str, Any], data: Any, actor: int | None,
              rng: random.Random) -> dict[str, Any]:
    _refuse_without_cards(state, "turn")
    _refuse_turn(state)
    if state["deck"] == "app":
        _refuse_named_fields(data, ("field",))
        field = rng.choice(free_fields(state))
    else:
        field = _table_turn(state, data)
    new = copied(state)
    new["turned"].append(field)
    new["current"] = field
    new["turned_in_round"] += 1
    new["last"] = {
        "type": "turn", "field": field, "round": new["round"], "card": new["turned_in_round"],
        "of": new["cards_in_round"], "set_aside": not free_fields(new),
    }
    _refresh(new)
    return new


def _seat_index(state: Mapping[str, Any], data: Mapping[str, Any]) -> int:
    seat = data["seat"]
    count = len(state["seats"])
    if not seat < count:
        raise RuleViolation(_("There is no seat {seat}: the seats are 0 to {last}.",
                              seat=repr(seat), last=count - 1), field="seat")
    return seat


def cards_left(state: Mapping[str, Any], round_: int) -> int:
    """The cards of round `round_` still to be turned before it can be scored (0 without cards:
    deck none)."""
    if state["deck"] == "none" or round_ < state["round"]:
        return 0
    if round_ > state["round"]:
        return CARDS_PER_ROUND[round_]
    if not state["castles"]["6"]:
        return CARDS_PER_ROUND[round_]
    return state["cards_in_round"] - state["turned_in_round"]


def _check_score_allowed(state: Mapping[str, Any], seat: Mapping[str, Any], round_: int) -> None:
    missing = [earlier for earlier in range(1, round_) if earlier not in scored_rounds(seat)]
    if missing:
        raise RuleViolation(
            _("{name} has not scored round {round} yet: rounds are scored in order.",
              name=seat["name"], round=missing[0]),
            field="round",
        )
    left = cards_left(state, round_)
    if left:
        raise RuleViolation(
            # The English says "cards are" for any number; the plural is for other languages.
            n_("Round {round} cannot be scored yet: {left} of its {cards} cards are still to be "
               "turned.",
               "Round {round} cannot be scored yet: {left} of its {cards} cards are still to be "
               "turned.", left, round=round_, left=left, cards=CARDS_PER_ROUND[round_]),
            field="round",
        )


def _set_round(seat: dict[str, Any], breakdown: dict[str, int]) -> int | None:
    """Put `breakdown` in the seat's rounds (replacing a correction); the earlier total, if any."""
    earlier = [entry for entry in seat["rounds"] if entry["round"] == breakdown["round"]]
    kept = [entry for entry in seat["rounds"] if entry["round"] != breakdown["round"]]
    seat["rounds"] = sorted(kept + [breakdown], key=lambda entry: entry["round"])
    seat["total"] = sum(entry["total"] for entry in seat["rounds"])
    seat["track"] = track_of(seat["total"])
    return earlier[0]["total"] if earlier else None


def move_score(state: dict[str, Any], data: Any, actor: int | None,
               rng: random.Random) -> dict[str, Any]:
    if state["phase"] == "finished":
        raise RuleViolation(_("The game is over: every seat has scored round 3."), field="type")
    index = _seat_index(state, data)
    score = read_score(required(data, "round", refusal=_missing), data)
    _check_score_allowed(state, state["seats"][index], score["round"])
    breakdown = points_of(score)
    new = copied(state)
    previous = _set_round(new["seats"][index], breakdown)
    round_before = new["round"]
    _refresh(new)
    new["last"] = {
        "type": "score", "seat": index, "score": score, "breakdown": breakdown,
        "previous": previous, "round_complete": _everyone_scored(new, score["round"])
        and score["round"] == round_before and previous is None,
    }
    return new


# --- reading the state --------------------------------------------------------------------------

def finished(state: Mapping[str, Any]) -> bool:
    return state["phase"] == "finished"


def rating_of(total: int) -> str:
    """The rulebook's solitaire verdict: over 70 very good, over 85 quite rare, over 100 …"""
    return next((words for above, words in RATINGS if total > above), "")


def standings(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    solitaire = len(state["seats"]) == 1
    rows = []
    for index, seat in enumerate(state["seats"]):
        details: dict[str, Any] = {
            "round_totals": [entry["total"] for entry in seat["rounds"]],
            "rounds": copied(seat["rounds"]),
            "track": dict(seat["track"]),
        }
        if solitaire:
            details["rating"] = rating_of(seat["total"]) if finished(state) else ""
        rows.append({"seat": index, "name": seat["name"], "score": seat["total"],
                     "details": details})
    return rank_by_score(rows)


TALLIED = ("castle6", "castle4", "churches", "windmills", "defense")


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def tallies(details: Mapping[str, Any]) -> dict[str, float]:
    """The numbers statistics average, from a standings row's details: each round's total
    ("round1_total") and its categories ("round1_castle6", …; the knights in round 3 only, the
    only round they score in), for the rounds present. Rounds are numbered by their place."""
    found: dict[str, float] = {}
    for index, total in enumerate(details.get("round_totals") or []):
        if _number(total):
            found[f"round{index + 1}_total"] = total
    for index, entry in enumerate(details.get("rounds") or []):
        if not isinstance(entry, Mapping):
            continue
        number = index + 1
        keys = (*TALLIED, "knights") if number == KNIGHTS_ROUND else TALLIED
        for key in keys:
            if _number(entry.get(key)):
                found[f"round{number}_{key}"] = entry[key]
    return found


def round_scores(details: Mapping[str, Any]) -> list[float] | None:
    """A seat's points per round, from its standings details (the charts' rounds)."""
    return details.get("round_totals")


def _breakdown_words(breakdown: Mapping[str, int]) -> Text:
    values = {"six": breakdown["castle6"], "four": breakdown["castle4"],
              "churches": breakdown["churches"], "windmills": breakdown["windmills"],
              "defense": breakdown["defense"]}
    if breakdown["round"] == KNIGHTS_ROUND:
        return _("castles {six}+{four}, churches {churches}, windmills {windmills}, defense "
                 "{defense}, knights {knights}", knights=breakdown["knights"], **values)
    return _("castles {six}+{four}, churches {churches}, windmills {windmills}, defense {defense}",
             **values)


def _summary_score(after: Mapping[str, Any]) -> Text:
    last = after["last"]
    seat = after["seats"][last["seat"]]
    breakdown = last["breakdown"]
    values = {"name": seat["name"], "round": breakdown["round"], "points": breakdown["total"],
              "breakdown": _breakdown_words(breakdown), "total": seat["total"]}
    if last["previous"] is not None:
        line = _("{name} re-scored round {round}: {points} (was {previous}) ({breakdown}); "
                 "total {total}", previous=last["previous"], **values)
    else:
        line = _("{name} scored round {round}: {points} ({breakdown}); total {total}", **values)
    if after["phase"] == "finished":
        return joined("; ", [line, _("the game is over")])
    if last["round_complete"]:
        return joined("; ", [line, _("everyone has scored round {round}",
                                     round=breakdown["round"])])
    return line


def _summary_turn(after: Mapping[str, Any]) -> Text:
    last = after["last"]
    values = {"round": last["round"], "card": last["card"], "of": last["of"],
              "field": last["field"]}
    if last["set_aside"]:
        return _("Round {round} · card {card} of {of}: {field}, the last free field (the tile "
                 "set aside)", **values)
    return _("Round {round} · card {card} of {of}: {field}", **values)


def _summary_castles(after: Mapping[str, Any]) -> Text:
    last = after["last"]
    if last["refused"]:
        # One sentence in English for any number; the plural is for other languages' verbs.
        return n_("Castles: 6 at {six}, 4 at {four} ({refused} touched the 6-castle and went "
                  "back into the deck)",
                  "Castles: 6 at {six}, 4 at {four} ({refused} touched the 6-castle and went "
                  "back into the deck)", len(last["refused"]), six=last["castle6"],
                  four=last["castle4"], refused=", ".join(last["refused"]))
    return _("Castles: 6 at {six}, 4 at {four}", six=last["castle6"], four=last["castle4"])


def summary(move: Mapping[str, Any], before: Mapping[str, Any], after: Mapping[str, Any]) -> Text:
    kind = move.get("type")
    if kind == "castles":
        return _summary_castles(after)
    if kind == "turn":
        return _summary_turn(after)
    if kind == "score":
        return _summary_score(after)
    return joined("", [str(kind)])


# How the new-game form shows the options (the API takes the same values).
OPTION_FIELDS = (
    Option("deck", _("Position cards"), "choice", choices=(
        ("app", _("The app shuffles and turns them")),
        ("table", _("We turn the real cards and enter each one")),
        ("none", _("No cards: keep only the scores")),
    ), help=_("Who turns the position cards that say where each tile goes.")),
)


def now(state: Mapping[str, Any]) -> Text | None:
    """Where the game stands, for the table's "now" line."""
    round_, phase = state["round"], state["phase"]
    if phase == "castles":
        return _("Round {round}: place the castles", round=round_)
    if phase == "placing":
        return _("Round {round}: turn card {card} of {of}", round=round_,
                 card=state["turned_in_round"] + 1, of=state["cards_in_round"])
    if phase == "scoring":
        waiting = not_scored(state, round_)
        return n_("Round {round}: score the round (waiting for {names})",
                  "Round {round}: score the round (waiting for {names})", len(waiting),
                  round=round_, names=listing(waiting))
    return None


def awaited(state: Mapping[str, Any]) -> list[int]:
    """The seats the table waits on: while a round is scored, those yet to score it (castles are
    placed and cards turned at the table, for no seat in particular)."""
    return unscored(state, state["round"]) if state["phase"] == "scoring" else []


GAME = Game(
    slug="quixote",
    name="Don Quixote",
    min_players=1,
    max_players=4,
    options={"deck": "app"},
    option_fields=OPTION_FIELDS,
    check_options=check_options,
    setup=setup,
    moves={"castles": move_castles, "turn": move_turn, "score": move_score},
    standings=standings,
    finished=finished,
    summary=summary,
    tallies=tallies,
    round_scores=round_scores,
    score_label=_("Points"),
    rank_rule=_("Most points after the third round wins."),
    now=now,
    awaited=awaited,
)
