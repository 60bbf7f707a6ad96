"""El Capitán Alatriste (Antonio Catalán, Devir 2002): the bank and the individual boards.

Pure rules: no Django. The app keeps every player's chips, the cards on the individual board,
jail and lost turns, and resolves duels, combats and the Plaza Mayor events with the rules'
arithmetic. The board, the pawns, the Patrol pawn and the deck stay on the table.

Rulebook: shared/rules/el-capitan-alatriste.txt. Spec: shared/specs/alatriste.md.

Readings the app makes where the rules or the spec leave a point open ("the app's reading"):
- Before `setup` a seat has Vigour 12 and no other chips; it plays no move but `setup`.
- A dead seat keeps `ready` true and status "dead": it plays no move but `setup` again.
- Two cards are equal when their names are, ignoring case and outer spaces.
- "Escape justice": killing a player in a duel or combat, or challenging (duel) or attacking
  (combat) a player who has 3 Vigour chips or less, makes the challenger wanted for 3 turns
  ("During 3 turns ..."). The challenge itself is the fault: the challenger is wanted even if the
  duel is refused or the Patrol stops it. Being sent to the court jail ends the prosecution (he
  was captured), as refuge or leaving Madrid ("away") evade it.
- A challenged (duel) or attacked (combat) player with 3 Vigour chips or less dies without dice
  when the fight would take place (after the Patrol): no winner's Fame, nothing to take.
- Ties (the rules say nothing): only the tied leaders roll again. Dice a player gave that end
  equal are refused ("Equal: roll again"); dice the server rolled are rolled again. In a duel or
  combat the dice of the deciding roll are the ones whose 6 or 1/2 count.
- A player saved from death by cards (Vigour chips 0) stays saved while his cards give Vigour;
  losing those cards with no Vigour chips is death.
- In the dice game every joiner rolls too (the rules: entering "gives the player the right to
  roll the dice"); their dice go in `rolls` under their seat number, beside "player" and "bank".
- Emilio Bocanegra wins the Act of Faith for a player who takes part in it (free, no lost turns).
- Scores are ints when whole and floats on a half ducat (13.5 beats 13).
- Turn order: "the player who gets the highest die roll starts, followed by the player at his/her
  right, keeping this order during the whole game". The seats are numbered in that order round
  the table: the game's first `turn` is the seat the set-up names (the option "first", the
  platform's "Who starts?": a seat, or the app's draw in place of the die) or, left to the
  table, any seat's (whoever rolled highest); then `turn` goes to the next seat, 0, 1, 2, ...
  and round again (`state["turn"]` is the seat whose turn was started last; `next_turn` the one
  that comes next). "Each player in his turn receives
  money from the bank": once, so a seat can't start its turn again out of order. A seat that
  has not set up or is dead is skipped; it comes back into the order once it has set up ("He
  will be able to reinitiate the game ... in the following turn"). A player losing turns still
  takes his `turn` ("Until the end of the lost turns, the player can collect his ducados at
  the beginning of the turn"): income paid, one lost turn counted. Only `turn` follows the
  order: the other moves record what happened at the table, in or out of a turn (cards "to
  counteract another player's attack card", the duel offered by the one already in the box).
- Lost turns keep the pawn off the board ("the player's pawn will be placed in his game board
  ... the character is out of the board"): "He will not be able to have duels or combats", so
  he may not challenge, be challenged, attack or be attacked; nor play the game of dice or join
  it, whose box is on the board ("When a player reaches this box"); nor the bullfight or the
  Act of Faith ("will not be affected by the ... Plaza Mayor (Main Square) boxes").
- El Valido is a box: "until one of them gets to EL VALIDO (the King's Favourite) box". Only a
  pawn on the board gets there: free (not in a jail, in refuge or away) and losing no turns. A
  wanted player is free on the board and may.
- Characters are cards, one of each ("24 cards for Characters - number in black From 1 to
  24"): while one player holds a character, it can't be put on another's board. Possessions
  are not checked across players: the rules forbid "two equal cards" on one board only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.engine import (
    Game,
    Option,
    RuleViolation,
    Text,
    _,
    copied,
    is_int,
    joined,
    n_,
    rank_by_score,
    seat_name,
    signed,
)

MAX_VIGOUR = 12
SETUP_POINTS = 10  # Fencing + ducats at the start
MIN_SETUP = 2
WEAK_VIGOUR = 3  # "If a player has 3 Vigour points or less and is challenged ... he will die"
WANTED_TURNS = 3
MAX_ATTACKS = 3
MIN_BET = 5
VALIDO_FAME = 30
BULLFIGHT_FAME = 3
ACT_OF_FAITH_FAME = 4
MAX_CARD_VALUE = 99
MAX_LOST_TURNS = 99

STATS = ("vigour", "fame", "fencing", "ducats")
STATUSES = ("free", "jail", "court_jail", "away", "refuge")
CARD_KINDS = ("character", "possession", "attack", "help")
BOARD_KINDS = ("character", "possession")
BOCANEGRA = "emilio bocanegra"

# Where a player is, as "{name} is ..." ends; the jails keep the edition's names in Spanish
# (la Cárcel de la Villa, la Cárcel de la Corte).
STATUS_WORDS = {
    "free": _("free"),
    "jail": _("in the town jail"),
    "court_jail": _("in the court jail"),
    "away": _("away from Madrid"),
    "refuge": _("in refuge in a church"),
    "dead": _("dead"),
}
# A chip pile's name in a log line ("Íñigo -5 fame") and in a card's refusal.
STAT_WORDS = {"vigour": _("vigour"), "fame": _("fame"), "fencing": _("fencing"),
              "ducats": _("ducats")}
# The one pile counted one by one, for a change of one ("Cleo +1 ducat").
STAT_ONE = {"ducats": _("ducat")}
# The reasons the panel's chip buttons give (a reason typed through the API is kept as given).
REASON_WORDS = {"box": _("box"), "card": _("card"), "payment": _("payment")}
# The fighters' roles, where the dice of one are asked for ("Give two dice for challenger.").
ROLE_WORDS = {"challenger": _("challenger"), "challenged": _("challenged"),
              "attacker": _("attacker"), "defender": _("defender")}


# ---------------------------------------------------------------- the sheet and its helpers


def totals(seat: Mapping[str, Any]) -> dict[str, int]:
    """Chips plus the board cards' values; a total never goes below 0."""

    def total(stat: str) -> int:
        return max(0, seat[stat] + sum(card[stat] for card in seat["cards"]))

    return {"fame": total("fame"), "vigour": total("vigour"), "fencing": total("fencing")}


def income(seat: Mapping[str, Any]) -> int:
    """What the bank pays at the start of a turn, by total Fame (Game Mechanics)."""
    fame = totals(seat)["fame"]
    if fame >= 30:
        return 3
    if fame >= 15:
        return 2
    return 1


def zone(seat: Mapping[str, Any]) -> int:
    """The highest board zone the player may walk: Fame and a carriage, horse or sedan chair."""
    fame = totals(seat)["fame"]
    if not any(card["vehicle"] for card in seat["cards"]):
        return 1
    if fame >= 30:
        return 3
    if fame >= 15:
        return 2
    return 1


def has_pistols(seat: Mapping[str, Any]) -> bool:
    return any(card["pistols"] for card in seat["cards"])


def card_fencing(seat: Mapping[str, Any], kind: str) -> int:
    """The board cards' Fencing for a fight: pistols count in combats, not in duels."""
    return sum(
        card["fencing"] for card in seat["cards"] if kind == "combat" or not card["pistols"]
    )


def card_vigour(seat: Mapping[str, Any]) -> int:
    return sum(card["vigour"] for card in seat["cards"])


def _refresh(seat: dict[str, Any]) -> dict[str, Any]:
    """Recompute the derived fields after any change of chips or cards."""
    seat["totals"] = totals(seat)
    seat["zone"] = zone(seat)
    seat["income"] = income(seat)
    return seat


def _blank_sheet(name: str) -> dict[str, Any]:
    return _refresh({
        "name": name, "ready": False,
        "vigour": MAX_VIGOUR, "fame": 0, "fencing": 0, "ducats": 0,
        "cards": [], "attacks": 0, "status": "free", "recovering": False,
        "lost_turns": 0, "wanted_turns": 0,
    })


# ---------------------------------------------------------------- reading the move's fields


# A move's fields come as its serializer (moves.py) made them: whole numbers, yes or no, the
# rules' own names, dice from 1 to 6, cards resolved from the catalogue; a field it leaves
# optional may be missing where the rules need it.


# The whole-number fields, each asked for in a sentence of its own (the noun's article and
# agreement are the language's).
_WHOLE = {
    "fencing": _("Give Fencing as a whole number."),
    "ducats": _("Give ducats as a whole number."),
    "distance": _("Give the Patrol's distance as a whole number."),
    "lost_turns": _("Give the lost turns as a whole number."),
}


def _bounds(field: str, low: int, high: int, value: int) -> Text:
    values = {"low": low, "high": high, "value": value}
    if field == "fencing":
        return _("Fencing must be from {low} to {high}, not {value}.", **values)
    if field == "ducats":
        return _("Ducats must be from {low} to {high}, not {value}.", **values)
    if field == "distance":
        return _("The Patrol's distance must be from {low} to {high}, not {value}.", **values)
    return _("The lost turns must be from {low} to {high}, not {value}.", **values)


def _int(data: Mapping[str, Any], field: str, low: int, high: int) -> int:
    value = data.get(field)
    if value is None:
        raise RuleViolation(_WHOLE[field], field=field)
    if not low <= value <= high:
        raise RuleViolation(_bounds(field, low, high, value), field=field)
    return value


def _bool(data: Mapping[str, Any], field: str, what: Text,
          default: bool | None = None) -> bool:
    """`what`: the question's clause, "the duel is accepted"."""
    value = data.get(field, default)
    if value is None:
        raise RuleViolation(_("Say whether {what} (yes or no).", what=what), field=field)
    return value


def _choice(data: Mapping[str, Any], field: str, allowed: tuple[str, ...]) -> str:
    value = data.get(field)
    if value not in allowed:
        raise RuleViolation(_("Choose {field}: one of {allowed}.", field=field,
                              allowed=", ".join(allowed)), field=field)
    return value


def _seat_no(state: Mapping[str, Any], value: int | None, field: str) -> int:
    if value is None:
        raise RuleViolation(_("Choose a player for {field}.", field=field), field=field)
    if not value < len(state["seats"]):
        raise RuleViolation(_("There is no seat {seat}.", seat=value), field=field)
    return value


def _check_playing(state: Mapping[str, Any], index: int, field: str) -> None:
    seat = state["seats"][index]
    if not seat["ready"]:
        raise RuleViolation(
            _("{name} has not set up yet: choose Fencing and ducats first.", name=seat["name"]),
            field=field)
    if seat["status"] == "dead":
        raise RuleViolation(_("{name} is dead: set up again to play on.", name=seat["name"]),
                            field=field)


def _player(state: Mapping[str, Any], data: Mapping[str, Any], field: str) -> int:
    """A seat that has set up and is alive."""
    index = _seat_no(state, data.get(field), field)
    _check_playing(state, index, field)
    return index


def _check_on_board(state: Mapping[str, Any], index: int, field: str, away: Text,
                    losing: Text) -> None:
    """A pawn on the board: free (not in a jail, a church or away from Madrid) and losing no
    turns ("the player's pawn will be placed in his game board ... out of the board"). `away`
    and `losing` end the sentence that refuses each case, naming the rule."""
    seat = state["seats"][index]
    if seat["status"] != "free":
        raise RuleViolation(_("{name} is {where}: {why}", name=seat["name"],
                              where=STATUS_WORDS[seat["status"]], why=away), field=field)
    if seat["lost_turns"] > 0:
        left = seat["lost_turns"]
        raise RuleViolation(n_("{name} is losing turns ({n} left): {why}",
                               "{name} is losing turns ({n} left): {why}", left,
                               name=seat["name"], n=left, why=losing), field=field)


def _check_recovered(state: Mapping[str, Any], index: int, field: str, why: Text) -> None:
    """Saved from death by his cards, a player "will have to recover a minimum of 3 points to be
    able to continue playing ... remaining there until he reaches the minimum" (Death of a
    player): he starts nothing (a duel, a combat, a game of dice, El Valido) and is not in the
    Plaza Mayor until his Vigour chips are back to 3. `why` ends the sentence."""
    seat = state["seats"][index]
    if seat["recovering"]:
        raise RuleViolation(
            _("{name} was saved from death and recovers until back at {n} Vigour chips ({vigour} "
              "now): {why}", name=seat["name"], n=WEAK_VIGOUR, vigour=seat["vigour"], why=why),
            field=field)


def _fighter(state: Mapping[str, Any], data: Mapping[str, Any], field: str) -> int:
    """A player who may duel or fight: on the board and not wanted. No duels or combats in jail,
    church or away boxes (the Patrol), nor while losing turns ("He will not be able to have
    duels or combats"). A wanted player who "coincides in a same box with another player" is
    captured (the court jail, a `status` move), so he meets no one to fight: the app's reading
    of "To take refuge in a church and to escape justice"."""
    index = _player(state, data, field)
    _check_on_board(state, index, field, _("no duels or combats there."),
                    _("no duels or combats until they are over."))
    seat = state["seats"][index]
    if seat["wanted_turns"] > 0:
        raise RuleViolation(
            _("{name} is wanted: meeting another player means the court jail.",
              name=seat["name"]), field=field)
    return index


# ---------------------------------------------------------------- cards


def _card_key(name: str) -> str:
    return name.strip().casefold()


def _card_value(raw: Mapping[str, Any], stat: str) -> int:
    value = raw.get(stat, 0)
    if not is_int(value) or not -MAX_CARD_VALUE <= value <= MAX_CARD_VALUE:
        raise RuleViolation(_("The card's {stat} must be a whole number.",
                              stat=STAT_WORDS[stat]), field="card")
    return value


FLAG_WORDS = {"pistols": _("pistols"), "vehicle": _("vehicle")}


def _card_flag(raw: Mapping[str, Any], flag: str) -> bool:
    value = raw.get(flag, False)
    if not isinstance(value, bool):
        raise RuleViolation(_("Say whether the card has {flag} (yes or no).",
                              flag=FLAG_WORDS[flag]), field="card")
    return value


def card_of(raw: Any, field: str = "card") -> dict[str, Any]:
    """A card as the rules keep it: the catalogue's fields, values 0 and flags off when left
    out, enemies as a list of names, the catalogue id and number kept when given."""
    if not isinstance(raw, dict):
        raise RuleViolation(_("Give the card with its name and values."), field=field)
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise RuleViolation(_("A card needs a name."), field=field)
    kind = raw.get("kind")
    if kind not in CARD_KINDS:
        raise RuleViolation(
            _("{name}: a card is a character, possession, attack, help card.", name=name),
            field=field)
    enemies = raw.get("enemies") or []
    if not isinstance(enemies, list) or not all(isinstance(e, str) for e in enemies):
        raise RuleViolation(_("{name}: give the enemies as a list of names.", name=name),
                            field=field)
    card: dict[str, Any] = {}
    for key in ("id", "number"):
        if raw.get(key) is not None:
            if not isinstance(raw[key], str | int) or isinstance(raw[key], bool):
                raise RuleViolation(_("{name}: the card's {key} is not valid.", name=name,
                                      key=key), field=field)
            card[key] = raw[key]
    card.update({
        "name": name.strip(), "kind": kind,
        "fame": _card_value(raw, "fame"), "vigour": _card_value(raw, "vigour"),
        "fencing": _card_value(raw, "fencing"),
        "pistols": _card_flag(raw, "pistols"), "vehicle": _card_flag(raw, "vehicle"),
        "enemies": [e.strip() for e in enemies if e.strip()],
    })
    return card


def _card_name(raw: Any, field: str) -> str:
    """A card named by its name, or by the card itself (only its name counts)."""
    if isinstance(raw, dict):
        raw = raw.get("name")
    if not isinstance(raw, str) or not raw.strip():
        raise RuleViolation(_("Name the card."), field=field)
    return raw.strip()


def equal_cards(one: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
    return _card_key(one["name"]) == _card_key(other["name"])


def enemy_cards(one: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
    """Enemies when either card lists the other ("not possible to have Quevedo and Pacheco")."""
    return (_card_key(other["name"]) in {_card_key(e) for e in one["enemies"]}
            or _card_key(one["name"]) in {_card_key(e) for e in other["enemies"]})


def _check_fits(seat: Mapping[str, Any], card: Mapping[str, Any], field: str) -> None:
    if card["kind"] == "attack":
        raise RuleViolation(
            _("{card} is an attack card: it is played on another player (attack).",
              card=card["name"]), field=field)
    if card["kind"] == "help":
        raise RuleViolation(
            _("{card} is a help card: it is played from the hand, not kept on the board.",
              card=card["name"]), field=field)
    for held in seat["cards"]:
        if equal_cards(held, card):
            raise RuleViolation(
                _("{name} already has {card}: never two equal cards.", name=seat["name"],
                  card=held["name"]), field=field)
        if enemy_cards(held, card):
            raise RuleViolation(
                _("{card} and {held} are enemies: {name} can't have both.", card=card["name"],
                  held=held["name"], name=seat["name"]), field=field)


def _check_character_free(state: Mapping[str, Any], index: int, card: Mapping[str, Any],
                          field: str) -> None:
    """A character is one card of the deck (24 characters, numbered 1 to 24): while one
    player holds it, no other can. Possessions may come twice in the deck (the rules forbid
    only "two equal cards" on one board), so they are not checked across players."""
    if card["kind"] != "character":
        return
    for other, seat in enumerate(state["seats"]):
        for held in seat["cards"] if other != index else ():
            if equal_cards(held, card):
                raise RuleViolation(
                    _("There is one {card} card and {name} holds it.", card=held["name"],
                      name=seat["name"]), field=field)


def _find_card(seat: Mapping[str, Any], name: str, field: str) -> int:
    for position, held in enumerate(seat["cards"]):
        if _card_key(held["name"]) == _card_key(name):
            return position
    raise RuleViolation(_("{name} has no {card} on the board.", name=seat["name"], card=name),
                        field=field)


# ---------------------------------------------------------------- chips, life and death


def _gain(seat: dict[str, Any], stat: str, delta: int) -> int:
    """Add to a chip pile, stopping at 0 (and Vigour at 12); returns what was applied."""
    before = seat[stat]
    after = max(0, before + delta)
    if stat == "vigour":
        after = min(MAX_VIGOUR, after)
    seat[stat] = after
    return after - before


def _die(seat: dict[str, Any]) -> None:
    """Death: cards discarded, chips back to the bank (Death of a player)."""
    seat.update({
        "vigour": 0, "fame": 0, "fencing": 0, "ducats": 0, "cards": [], "attacks": 0,
        "status": "dead", "recovering": False, "lost_turns": 0, "wanted_turns": 0,
    })


def _settle_life(seat: dict[str, Any]) -> str | None:
    """After a Vigour change: death at 0 chips, unless cards give Vigour (saved, recovering
    until 3 chips). Returns "dead", "saved" or None."""
    if seat["status"] == "dead":
        return None
    if seat["vigour"] == 0:
        if card_vigour(seat) > 0:
            seat["recovering"] = True
            return "saved"
        _die(seat)
        return "dead"
    if seat["recovering"] and seat["vigour"] >= WEAK_VIGOUR:
        seat["recovering"] = False
    return None


def _make_wanted(seat: dict[str, Any]) -> None:
    if seat["status"] != "dead":
        seat["wanted_turns"] = WANTED_TURNS


def _refresh_all(state: dict[str, Any]) -> dict[str, Any]:
    for seat in state["seats"]:
        _refresh(seat)
    return state


# ---------------------------------------------------------------- dice


def _rolls(data: Mapping[str, Any], allowed: set[str]) -> dict[str, Any]:
    rolls = data.get("rolls")
    if rolls is None:
        return {}
    unknown = sorted(str(key) for key in rolls if key not in allowed)
    if unknown:
        raise RuleViolation(_("There are no dice for {keys} here.", keys=", ".join(unknown)),
                            field="rolls")
    return rolls


def _roll_pair(rng: random.Random) -> list[int]:
    return [rng.randint(1, 6), rng.randint(1, 6)]


def plaza_total(base: int, dice: list[int]) -> int:
    """A contest's score: the player's base and two dice (a bullfight, an Act of Faith, dice)."""
    return base + sum(dice)


def _contest(bases: dict[str, int], given: dict[str, list[int] | None],
             rng: random.Random) -> tuple[dict[str, list[int]], list[dict[str, Any]], str]:
    """Two dice each plus a base; the highest wins. The app's house rule for ties: only the tied
    leaders roll again; dice a player gave that end equal are refused.

    Returns the deciding dice of everyone, the tied rolls that were rolled again, the winner."""
    dice = {key: given.get(key) or _roll_pair(rng) for key in bases}
    ties: list[dict[str, Any]] = []
    contenders = list(bases)
    while True:
        scores = {key: plaza_total(bases[key], dice[key]) for key in contenders}
        best = max(scores.values())
        leaders = [key for key in contenders if scores[key] == best]
        if len(leaders) == 1:
            return dice, ties, leaders[0]
        if any(given.get(key) for key in leaders):
            raise RuleViolation(_("Equal: roll again"), field="rolls")
        ties.append({key: dice[key] for key in leaders})
        for key in leaders:
            dice[key] = _roll_pair(rng)
        given = {}
        contenders = leaders


def _patrol(data: Mapping[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The Patrol: its die roll equal to or above its distance sends both to the town jail."""
    patrol = data.get("patrol")
    if patrol is None:
        return None
    distance = patrol["distance"]
    roll = patrol.get("roll")
    rolled = roll is None
    roll = rng.randint(1, 6) if rolled else roll
    return {"distance": distance, "roll": roll, "server_rolled": rolled,
            "acts": roll >= distance}


# ---------------------------------------------------------------- duel and combat arithmetic


def fight_side(kind: str, seat: Mapping[str, Any], dice: list[int], extra: int | None = None,
               opponent_pistols: bool = False) -> dict[str, Any]:
    """One side of a duel or combat: Fencing chips + cards' Fencing + 2 dice = total.

    A 1 or 2 (1, 2 or 3 in a combat against pistols) on either die asks for one extra die and
    loses that much Vigour, once; a 6 gains one Fencing chip in a duel, once."""
    limit = 3 if kind == "combat" and opponent_pistols else 2
    needs_extra = any(die <= limit for die in dice)
    chips = seat["fencing"]
    cards = card_fencing(seat, kind)
    return {
        "name": seat["name"], "chips": chips, "cards": cards, "dice": list(dice),
        "total": chips + cards + sum(dice),
        "extra_limit": limit, "extra_needed": needs_extra,
        "extra": extra if needs_extra else None,
        "vigour_lost": extra if needs_extra and extra is not None else 0,
        "fencing_gained": 1 if kind == "duel" and 6 in dice else 0,
    }


def side_text(side: Mapping[str, Any]) -> Text:
    """'Íñigo 4 + 1 + (6+2) = 13 [+1 Fencing]': the sums are numbers, the notes words."""
    text = (f"{side['name']} {side['chips']} + {side['cards']} + "
            f"({side['dice'][0]}+{side['dice'][1]}) = {side['total']}")
    notes = []
    if side["fencing_gained"]:
        notes.append(_("+1 Fencing"))
    if side["extra"] is not None:
        notes.append(_("extra die {extra}: -{lost} Vigour", extra=side["extra"],
                       lost=side["vigour_lost"]))
    return joined("", [text, " [", joined(", ", notes), "]"]) if notes else joined("", [text])


def fight_line(sides: list[Mapping[str, Any]]) -> Text:
    """Both sides' sums, "... vs ...": made again from the sides wherever it is shown, since
    the stored state keeps the line as its English words only."""
    return _("{left} vs {right}", left=side_text(sides[0]), right=side_text(sides[1]))


def fight(kind: str, left: Mapping[str, Any], right: Mapping[str, Any], left_dice: list[int],
          right_dice: list[int], left_extra: int | None = None,
          right_extra: int | None = None) -> dict[str, Any]:
    """The full breakdown of a duel or combat (kind "duel" or "combat") between two sheets:
    both sides (see fight_side), the winning side (0, 1 or None when equal) and the line the
    page and the log show: "Íñigo 4 + 1 + (6+2) = 13 [+1 Fencing] vs Quevedo ..."."""
    sides = [
        fight_side(kind, left, left_dice, left_extra, has_pistols(right)),
        fight_side(kind, right, right_dice, right_extra, has_pistols(left)),
    ]
    if sides[0]["total"] == sides[1]["total"]:
        winner = None
    else:
        winner = 0 if sides[0]["total"] > sides[1]["total"] else 1
    return {"kind": kind, "sides": sides, "winner": winner,
            "line": fight_line(sides)}


def _extra(rolls: Mapping[str, Any], key: str, rng: random.Random) -> int:
    value = rolls.get(key)
    return rng.randint(1, 6) if value is None else value


def _resolve_fight(state: dict[str, Any], kind: str, roles: tuple[str, str],
                   seats: tuple[int, int], rolls: Mapping[str, Any],
                   rng: random.Random) -> dict[str, Any]:
    """Roll (or take) the dice, settle ties, roll the extra dice needed: the breakdown."""
    left, right = (state["seats"][i] for i in seats)
    bases = {
        roles[0]: left["fencing"] + card_fencing(left, kind),
        roles[1]: right["fencing"] + card_fencing(right, kind),
    }
    given = {role: rolls.get(role) for role in roles}
    dice, ties, _ = _contest(bases, given, rng)
    result = fight(kind, left, right, dice[roles[0]], dice[roles[1]])
    extras: list[int | None] = []
    for role, side in zip(roles, result["sides"], strict=True):
        extras.append(_extra(rolls, f"{role}_extra", rng) if side["extra_needed"] else None)
    result = fight(kind, left, right, dice[roles[0]], dice[roles[1]], *extras)
    result["ties"] = ties
    result["roles"] = list(roles)
    result["seats"] = list(seats)
    return result


def _apply_wounds(state: dict[str, Any], result: Mapping[str, Any],
                  last: dict[str, Any]) -> None:
    """Vigour lost to the extra dice; a death makes the other side wanted (escape justice)."""
    for position, index in enumerate(result["seats"]):
        seat = state["seats"][index]
        _gain(seat, "vigour", -result["sides"][position]["vigour_lost"])
        outcome = _settle_life(seat)
        if outcome == "dead":
            last["deaths"].append(index)
            killer = result["seats"][1 - position]
            _make_wanted(state["seats"][killer])
            if killer not in last["wanted"] and state["seats"][killer]["status"] != "dead":
                last["wanted"].append(killer)
        elif outcome == "saved":
            last["saved"].append(index)


# ---------------------------------------------------------------- moves


def _start(state: Mapping[str, Any], data: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    return copied(dict(state)), data or {}


def setup_move(state, data, actor, rng):
    """Fencing + ducats = 10, each at least 2; Vigour 12, Fame 0 (Preparation of the game)."""
    state, data = _start(state, data)
    index = _seat_no(state, data.get("seat"), "seat")
    seat = state["seats"][index]
    if seat["ready"] and seat["status"] != "dead":
        raise RuleViolation(_("{name} has already set up.", name=seat["name"]), field="seat")
    top = SETUP_POINTS - MIN_SETUP
    fencing = _int(data, "fencing", MIN_SETUP, top)
    ducats = _int(data, "ducats", MIN_SETUP, top)
    if fencing + ducats != SETUP_POINTS:
        raise RuleViolation(
            _("Fencing and ducats share 10 chips: {fencing} + {ducats} is {sum}.",
              fencing=fencing, ducats=ducats, sum=fencing + ducats), field="ducats")
    fresh = _blank_sheet(seat["name"])
    fresh.update({"ready": True, "fencing": fencing, "ducats": ducats})
    state["seats"][index] = _refresh(fresh)
    state["last"] = {"type": "setup", "seat": index, "again": seat["status"] == "dead"}
    return state


def _in_play(seat: Mapping[str, Any]) -> bool:
    return seat["ready"] and seat["status"] != "dead"


def next_turn(state: Mapping[str, Any]) -> int | None:
    """Whose `turn` comes next: after the last turn taken, the next seat round the table that
    has set up and is alive; the game's first turn is the first seat's (`state["first"]`), or the
    next one in play after it. None when no seat is in play, and before the first turn of a game
    that left it to the table (whoever rolled highest)."""
    last = state.get("turn")
    if last is None:
        first = state.get("first")
        if first is None:
            return None
        last = first - 1  # the first seat, when it is in play
    count = len(state["seats"])
    for step in range(1, count + 1):
        index = (last + step) % count
        if _in_play(state["seats"][index]):
            return index
    return None


def turn_move(state, data, actor, rng):
    """The start of a turn: the bank pays the income; a lost or a wanted turn is counted down.
    Turns go round the table in seat order from the first player's, once each."""
    state, data = _start(state, data)
    index = _player(state, data, "seat")
    expected = next_turn(state)
    if expected is not None and index != expected:
        raise RuleViolation(
            _("Next it is {next}'s turn, not {name}'s: turns go round the table in seat order.",
              next=seat_name(state, expected), name=seat_name(state, index)), field="seat")
    state["turn"] = index
    seat = state["seats"][index]
    paid = income(seat)
    seat["ducats"] += paid
    lost = seat["lost_turns"] > 0
    wanted = seat["wanted_turns"] > 0
    seat["lost_turns"] -= int(lost)
    seat["wanted_turns"] -= int(wanted)
    state["last"] = {"type": "turn", "seat": index, "income": paid, "lost_turn": lost,
                     "wanted_turn": wanted}
    return _refresh_all(state)


def adjust_move(state, data, actor, rng):
    """A box's or a card's effect on one chip pile."""
    state, data = _start(state, data)
    index = _player(state, data, "seat")
    seat = state["seats"][index]
    stat = _choice(data, "stat", STATS)
    delta = data["delta"]
    if delta == 0:
        raise RuleViolation(_("Give the change as a whole number other than 0."), field="delta")
    reason = data.get("reason") or ""
    last = {"type": "adjust", "seat": index, "stat": stat, "delta": delta, "reason": reason,
            "applied": 0, "jailed": False, "outcome": None}
    if stat == "ducats" and -delta > seat["ducats"]:
        # "If ... left without chips of Ducados and has to make a payment, he will be
        # transferred immediately to the town's jail": the app's reading, nothing is paid.
        last["jailed"] = True
        if seat["status"] not in ("jail", "court_jail"):
            seat["status"] = "jail"
    else:
        last["applied"] = _gain(seat, stat, delta)
        last["outcome"] = _settle_life(seat)
    state["last"] = last
    return _refresh_all(state)


def card_move(state, data, actor, rng):
    """A character or possession card put on, or taken off, a player's individual board."""
    state, data = _start(state, data)
    index = _player(state, data, "seat")
    seat = state["seats"][index]
    action = _choice(data, "action", ("add", "remove"))
    last = {"type": "card", "seat": index, "action": action, "outcome": None}
    if action == "add":
        card = card_of(data.get("card"))
        _check_fits(seat, card, "card")
        _check_character_free(state, index, card, "card")
        seat["cards"].append(card)
    else:
        position = _find_card(seat, _card_name(data.get("card"), "card"), "card")
        card = seat["cards"].pop(position)
        # A saved player with no Vigour chips left lives by his cards' Vigour alone.
        last["outcome"] = _settle_life(seat)
    last["card"] = card["name"]
    state["last"] = last
    return _refresh_all(state)


def attack_move(state, data, actor, rng):
    """An attack card played on another player (at most 3 waiting), or the oldest resolved."""
    state, data = _start(state, data)
    action = _choice(data, "action", ("play", "resolve"))
    target = _player(state, data, "to")
    seat = state["seats"][target]
    source = None
    if action == "play" or data.get("from") is not None:
        source = _player(state, data, "from")
    if action == "play":
        if source == target:
            raise RuleViolation(
                _("{name} can't play an attack card on their own board.", name=seat["name"]),
                field="to")
        if seat["attacks"] >= MAX_ATTACKS:
            raise RuleViolation(
                _("{name} already has {n} attack cards waiting.", name=seat["name"],
                  n=MAX_ATTACKS), field="to")
        seat["attacks"] += 1
    else:
        if seat["attacks"] == 0:
            raise RuleViolation(_("{name} has no attack card waiting.", name=seat["name"]),
                                field="to")
        seat["attacks"] -= 1
    state["last"] = {"type": "attack", "action": action, "from": source, "to": target,
                     "waiting": seat["attacks"]}
    return _refresh_all(state)


def status_move(state, data, actor, rng):
    """Jail, court jail, away (Flanders, travelling, at sea), refuge, free; lost turns."""
    state, data = _start(state, data)
    index = _player(state, data, "seat")
    seat = state["seats"][index]
    status = _choice(data, "status", STATUSES)
    if data.get("lost_turns") is not None:
        seat["lost_turns"] = _int(data, "lost_turns", 0, MAX_LOST_TURNS)
    was_wanted = seat["wanted_turns"] > 0
    seat["status"] = status
    if status in ("refuge", "away", "court_jail"):
        # Refuge or leaving Madrid evades justice; the court jail is where the capture ends.
        seat["wanted_turns"] = 0
    state["last"] = {"type": "status", "seat": index, "status": status,
                     "lost_turns": seat["lost_turns"],
                     "cleared_wanted": was_wanted and seat["wanted_turns"] == 0}
    return _refresh_all(state)


def _take(data: Mapping[str, Any]) -> dict[str, Any] | None:
    take = data.get("take")
    if take is None:
        return None
    return {"card": _card_name(take.get("card"), "take"),
            "keep": _bool(take, "keep", _("the winner keeps the card"), default=False)}


def _fight_last(kind: str, roles: tuple[str, str], seats: tuple[int, int]) -> dict[str, Any]:
    return {"type": kind, roles[0]: seats[0], roles[1]: seats[1], "outcome": None,
            "patrol": None, "fight": None, "winner": None, "loser": None,
            "wanted": [], "deaths": [], "saved": [], "fame": {}}


def _note_fame(state: dict[str, Any], last: dict[str, Any], index: int, delta: int) -> None:
    applied = _gain(state["seats"][index], "fame", delta)
    key = str(index)
    last["fame"][key] = last["fame"].get(key, 0) + applied


def _wanted_for_weak_target(state, last, challenger: int, target: int) -> bool:
    """Challenging a player with 3 Vigour chips or less: the challenger is prosecuted."""
    weak = state["seats"][target]["vigour"] <= WEAK_VIGOUR
    if weak:
        _make_wanted(state["seats"][challenger])
        last["wanted"].append(challenger)
    return weak


def _patrol_stops(state, last, seats, patrol) -> bool:
    last["patrol"] = patrol
    if patrol and patrol["acts"]:
        for index in seats:
            state["seats"][index]["status"] = "jail"
        last["outcome"] = "patrol"
        return True
    return False


def _weak_dies(state, last, killer: int, victim: int) -> None:
    """3 Vigour chips or less: death "even though he has cards adding Vigour"."""
    _die(state["seats"][victim])
    last["outcome"] = "weak"
    last["deaths"].append(victim)
    _make_wanted(state["seats"][killer])
    if killer not in last["wanted"]:
        last["wanted"].append(killer)


def duel_move(state, data, actor, rng):
    state, data = _start(state, data)
    roles = ("challenger", "challenged")
    challenger = _fighter(state, data, "challenger")
    _check_recovered(state, challenger, "challenger", _("no duels or combats until then."))
    challenged = _fighter(state, data, "challenged")
    if challenger == challenged:
        raise RuleViolation(_("A duel needs two different players."), field="challenged")
    accepted = _bool(data, "accepted", _("the duel is accepted"))
    patrol = _patrol(data, rng)
    rolls = _rolls(data, {*roles, "challenger_extra", "challenged_extra"})
    take = _take(data)
    hand = _bool(data, "loser_has_hand_cards", _("the loser has cards in hand"),
                 default=False)
    seats = (challenger, challenged)
    last = _fight_last("duel", roles, seats)
    _wanted_for_weak_target(state, last, challenger, challenged)
    _note_fame(state, last, challenger, 1)
    if not accepted:
        _note_fame(state, last, challenged, -2)
        last["outcome"] = "refused"
    else:
        _note_fame(state, last, challenged, 1)
        if _patrol_stops(state, last, seats, patrol):
            pass
        elif state["seats"][challenged]["vigour"] <= WEAK_VIGOUR:
            _weak_dies(state, last, challenger, challenged)
        else:
            _duel_fought(state, last, rolls, take, hand, rng)
    state["last"] = last
    return _refresh_all(state)


def _duel_fought(state, last, rolls, take, hand, rng) -> None:
    seats = (last["challenger"], last["challenged"])
    result = _resolve_fight(state, "duel", ("challenger", "challenged"), seats, rolls, rng)
    winner = seats[result["winner"]]
    loser = seats[1 - result["winner"]]
    last.update({"outcome": "fought", "fight": result, "winner": winner, "loser": loser})
    for position, index in enumerate(seats):
        state["seats"][index]["fencing"] += result["sides"][position]["fencing_gained"]
    _note_fame(state, last, winner, 1)
    loser_seat = state["seats"][loser]
    if not loser_seat["cards"] and not hand:
        _note_fame(state, last, loser, -1)
    card = None
    if take:
        card = loser_seat["cards"].pop(_find_card(loser_seat, take["card"], "take"))
        if take["keep"]:
            _check_fits(state["seats"][winner], card, "take")
    # The Vigour goes in the duel's dice, before the winner takes his card: a card he takes
    # cannot save him from a death his own extra die dealt; dead, he keeps nothing.
    _apply_wounds(state, result, last)
    if card is not None:
        keep = take["keep"] and state["seats"][winner]["status"] != "dead"
        if keep:
            state["seats"][winner]["cards"].append(card)
        last["take"] = {"card": card["name"], "keep": keep}


def _discards(data: Mapping[str, Any]) -> list[str]:
    names = data.get("discard") or []
    if len(names) > 2:
        raise RuleViolation(_("The loser discards at most 2 board cards."), field="discard")
    names = [_card_name(name, "discard") for name in names]
    if len({_card_key(name) for name in names}) != len(names):
        raise RuleViolation(_("Name two different cards to discard."), field="discard")
    return names


def combat_move(state, data, actor, rng):
    state, data = _start(state, data)
    roles = ("attacker", "defender")
    attacker = _fighter(state, data, "attacker")
    _check_recovered(state, attacker, "attacker", _("no duels or combats until then."))
    defender = _fighter(state, data, "defender")
    if attacker == defender:
        raise RuleViolation(_("A combat needs two different players."), field="defender")
    patrol = _patrol(data, rng)
    rolls = _rolls(data, {*roles, "attacker_extra", "defender_extra"})
    discard = _discards(data)
    seats = (attacker, defender)
    last = _fight_last("combat", roles, seats)
    _wanted_for_weak_target(state, last, attacker, defender)
    _note_fame(state, last, attacker, -1)
    if _patrol_stops(state, last, seats, patrol):
        pass
    elif state["seats"][defender]["vigour"] <= WEAK_VIGOUR:
        _weak_dies(state, last, attacker, defender)
    else:
        result = _resolve_fight(state, "combat", roles, seats, rolls, rng)
        winner = seats[result["winner"]]
        loser = seats[1 - result["winner"]]
        last.update({"outcome": "fought", "fight": result, "winner": winner, "loser": loser})
        loser_seat = state["seats"][loser]
        for name in discard:
            loser_seat["cards"].pop(_find_card(loser_seat, name, "discard"))
        last["discarded"] = discard
        _apply_wounds(state, result, last)
    state["last"] = last
    return _refresh_all(state)


def dice_game_move(state, data, actor, rng):
    """The game of dice against the bank: the bank matches the bet, joiners put in the same."""
    state, data = _start(state, data)
    index = _player(state, data, "seat")
    _check_on_board(state, index, "seat", _("the game of dice is played on the board."),
                    _("no game of dice until they are over."))
    _check_recovered(state, index, "seat", _("no game of dice until then."))
    seat = state["seats"][index]
    bet = data["bet"]
    if bet < MIN_BET:
        raise RuleViolation(_("The bet is at least {n} ducats.", n=MIN_BET), field="bet")
    if bet > seat["ducats"]:
        raise RuleViolation(_("{name} has only {n} ducats.", name=seat["name"],
                              n=seat["ducats"]), field="bet")
    joiners = _joiners(state, data, index, bet)
    players = [index, *joiners]
    keys = {"player": index, **{str(j): j for j in joiners}}
    rolls = _rolls(data, {*keys, "bank", *(str(i) for i in range(len(state["seats"])))})
    _check_no_strays(state, rolls, keys)
    given = {key: rolls.get(key) for key in [*keys, "bank"]}
    bases = dict.fromkeys([*keys, "bank"], 0)
    dice, ties, best = _contest(bases, given, rng)
    pot = bet * (len(players) + 1)
    for player in players:
        state["seats"][player]["ducats"] -= bet
    winner = keys.get(best)
    if winner is not None:
        state["seats"][winner]["ducats"] += pot
    state["last"] = {"type": "dice_game", "seat": index, "bet": bet, "joiners": joiners,
                     "pot": pot, "dice": dice, "ties": ties, "winner": winner,
                     "bank_won": winner is None}
    return _refresh_all(state)


def _check_no_strays(state, rolls: Mapping[str, Any], keys: Mapping[str, int]) -> None:
    """Dice given for a seat not in the game of dice, named (the panel lists every seat's dice)."""
    for key in rolls:
        if key == "bank" or key in keys:
            continue
        seat = int(key)
        if seat == keys["player"]:
            raise RuleViolation(_("{name} plays against the bank: give their dice as the "
                                  "player's.", name=seat_name(state, seat)), field="rolls")
        raise RuleViolation(_("{name} does not join this game of dice: add them to the joiners, "
                              "or leave their dice out.", name=seat_name(state, seat)),
                            field="rolls")


def _joiners(state, data, index: int, bet: int) -> list[int]:
    raw = data.get("joiners") or []
    joiners = []
    for value in raw:
        joiner = _seat_no(state, value, "joiners")
        _check_playing(state, joiner, "joiners")
        name = seat_name(state, joiner)
        if joiner == index or joiner in joiners:
            raise RuleViolation(_("{name} is in the game once.", name=name), field="joiners")
        seat = state["seats"][joiner]
        if seat["status"] != "free":
            raise RuleViolation(
                _("{name} is {where} and can't join.", name=name,
                  where=STATUS_WORDS[seat["status"]]), field="joiners")
        if seat["lost_turns"] > 0:
            left = seat["lost_turns"]
            raise RuleViolation(
                n_("{name} is losing turns ({n} left) and can't join the game of dice.",
                   "{name} is losing turns ({n} left) and can't join the game of dice.", left,
                   name=name, n=left), field="joiners")
        _check_recovered(state, joiner, "joiners", _("no game of dice until then."))
        if seat["ducats"] < bet:
            raise RuleViolation(_("{name} can't put in {bet} ducats: {name} has {ducats}.",
                                  name=name, bet=bet, ducats=seat["ducats"]), field="joiners")
        joiners.append(joiner)
    return joiners


def _plaza_players(state: Mapping[str, Any]) -> list[int]:
    """Everyone on the board: set up, free, losing no turns and not recovering (who stays on
    the box where he recovers: `_check_recovered`)."""
    players = [i for i, seat in enumerate(state["seats"])
               if seat["ready"] and seat["status"] == "free" and seat["lost_turns"] == 0
               and not seat["recovering"]]
    if not players:
        raise RuleViolation(_("No player is free to take part."), field="rolls")
    return players


def _plaza(state, data, rng, kind: str, base_of, prize: int, forced: int | None = None):
    players = _plaza_players(state)
    rolls = _rolls(data, {str(i) for i in range(len(state["seats"]))})
    for key in rolls:
        if int(key) not in players:
            raise RuleViolation(_("{name} does not take part.", name=seat_name(state, int(key))),
                                field="rolls")
    bases = {str(i): base_of(state["seats"][i]) for i in players}
    last = {"type": kind, "players": players, "bases": bases, "dice": {}, "ties": [],
            "winner": forced, "prize": prize, "bocanegra": forced is not None}
    if forced is None:
        given = {key: rolls.get(key) for key in bases}
        dice, ties, best = _contest(bases, given, rng)
        last.update({"dice": dice, "ties": ties, "winner": int(best)})
    _gain(state["seats"][last["winner"]], "fame", prize)
    state["last"] = last
    return _refresh_all(state)


def bullfight_move(state, data, actor, rng):
    """Juego de Toros: 2 dice + Fencing chips (no cards); the best gains 3 Fame."""
    state, data = _start(state, data)
    return _plaza(state, data, rng, "bullfight", lambda seat: seat["fencing"], BULLFIGHT_FAME)


def _faith_base(seat: Mapping[str, Any]) -> int:
    return seat["fame"] + sum(c["fame"] for c in seat["cards"] if c["kind"] == "character")


def act_of_faith_move(state, data, actor, rng):
    """Auto de Fe: 2 dice + Fame chips + characters' Fame; the best gains 4 Fame; Emilio
    Bocanegra on a player's board wins it."""
    state, data = _start(state, data)
    holders = [i for i in _plaza_players(state)
               if any(_card_key(c["name"]) == BOCANEGRA for c in state["seats"][i]["cards"])]
    if len(holders) > 1:
        names = seat_name(state, holders[0])
        for other in holders[1:]:
            names = _("{names} and {name}", names=names, name=seat_name(state, other))
        raise RuleViolation(_("There is one Emilio Bocanegra: {names} both have it.",
                              names=names), field="rolls")
    forced = holders[0] if holders else None
    return _plaza(state, data, rng, "act_of_faith", _faith_base, ACT_OF_FAITH_FAME, forced)


def death_move(state, data, actor, rng):
    """All Vigour lost: death, or saved by the cards' Vigour and recovering to 3 chips."""
    state, data = _start(state, data)
    index = _player(state, data, "seat")
    seat = state["seats"][index]
    seat["vigour"] = 0
    outcome = _settle_life(seat)
    state["last"] = {"type": "death", "seat": index, "outcome": outcome}
    return _refresh_all(state)


def valido_move(state, data, actor, rng):
    """El Valido: a player on the board gets to the box with 30 Fame (total); won, the game
    ends and that player wins."""
    state, data = _start(state, data)
    index = _player(state, data, "seat")
    from_board = _("El Valido is reached from the board.")
    _check_on_board(state, index, "seat", from_board, from_board)
    _check_recovered(state, index, "seat", _("El Valido waits until then."))
    seat = state["seats"][index]
    won = _bool(data, "won", _("the player won the King's service"))
    fame = totals(seat)["fame"]
    if fame < VALIDO_FAME:
        raise RuleViolation(
            _("{name} has {fame} Fame: El Valido needs {n}.", name=seat["name"], fame=fame,
              n=VALIDO_FAME), field="seat")
    if won:
        state.update({"finished": True, "winner": index, "ended_by": "valido"})
    state["last"] = {"type": "valido", "seat": index, "won": won, "fame": fame}
    return _refresh_all(state)


def end_move(state, data, actor, rng):
    """The players stop: most Fame (total) + half the ducats wins."""
    state, data = _start(state, data)
    state.update({"finished": True, "ended_by": "end"})
    state["last"] = {"type": "end"}
    return state


# ---------------------------------------------------------------- the game


def setup(seat_names: list[str], options: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    # "first": the seat whose turn is the game's first (None: whoever rolls highest).
    return {"seats": [_blank_sheet(name) for name in seat_names], "turn": None,
            "first": options.get("first"),
            "finished": False, "winner": None, "ended_by": None, "last": None}


def check_options(options: dict[str, Any], seat_count: int) -> None:
    """The one option, who starts, is checked by the engine (Game.first)."""


def score(seat: Mapping[str, Any]) -> int | float:
    """Fame (total) + half the ducats; an int when whole, halves kept as .5."""
    doubled = 2 * totals(seat)["fame"] + seat["ducats"]
    return doubled // 2 if doubled % 2 == 0 else doubled / 2


def standings(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for index, seat in enumerate(state["seats"]):
        rows.append({
            "seat": index, "name": seat["name"], "score": score(seat),
            "details": {"fame": totals(seat)["fame"], "ducats": seat["ducats"],
                        "vigour": seat["vigour"], "fencing": seat["fencing"],
                        "status": seat["status"], "valido": index == state.get("winner")},
        })
    champion = state.get("winner")
    if champion is None:
        return rank_by_score(rows)
    # El Valido won: that player first and sole winner, the others ranked behind by score.
    first = next(row for row in rows if row["seat"] == champion)
    others = rank_by_score([row for row in rows if row["seat"] != champion])
    first.update({"rank": 1, "winner": True})
    for row in others:
        row["rank"] += 1
        row["winner"] = False
    return [first, *others]


def finished(state: Mapping[str, Any]) -> bool:
    return bool(state.get("finished"))


# ---------------------------------------------------------------- the timeline


def _who(state: Mapping[str, Any], index: int | None) -> Text | str:
    return _("the bank") if index is None else seat_name(state, index)


def _deaths(state: Mapping[str, Any], last: Mapping[str, Any]) -> list[Text]:
    parts = [_("{name} dies", name=_who(state, i)) for i in last.get("deaths", [])]
    parts += [_("{name} saved by their cards", name=_who(state, i)) for i in last.get("saved", [])]
    parts += [_("{name} wanted {n} turns", name=_who(state, i), n=WANTED_TURNS)
              for i in last.get("wanted", [])]
    return parts


def _fight_summary(state: Mapping[str, Any], last: Mapping[str, Any]) -> Text:
    roles = ("challenger", "challenged") if last["type"] == "duel" else ("attacker", "defender")
    one, two = (_who(state, last[role]) for role in roles)
    head = (_("{one} challenged {two}", one=one, two=two) if last["type"] == "duel"
            else _("{one} attacked {two}", one=one, two=two))
    outcome = last["outcome"]
    parts: list[Text] = []
    if outcome == "refused":
        parts.append(_("{head}: refused ({name} -2 Fame)", head=head, name=two))
    elif outcome == "patrol":
        patrol = last["patrol"]
        parts.append(_("{head}: the Patrol rolled {roll} for distance {distance}, both to the "
                       "town jail", head=head, roll=patrol["roll"], distance=patrol["distance"]))
    elif outcome == "weak":
        parts.append(_("{head}: {name} had 3 Vigour chips or less", head=head, name=two))
    else:
        parts.append(_("{head}: {line}", head=head, line=fight_line(last["fight"]["sides"])))
        winner = _who(state, last["winner"])
        take = last.get("take")
        if not take:
            parts.append(_("{name} wins", name=winner))
        elif take["keep"]:
            parts.append(_("{name} wins, keeps {card}", name=winner, card=take["card"]))
        else:
            parts.append(_("{name} wins, discards {card}", name=winner, card=take["card"]))
        if last.get("discarded"):
            parts.append(_("{name} discards {cards}", name=_who(state, last["loser"]),
                           cards=", ".join(last["discarded"])))
    return joined("; ", parts + _deaths(state, last))


def _plaza_summary(state: Mapping[str, Any], last: Mapping[str, Any]) -> Text:
    title = _("Bullfight") if last["type"] == "bullfight" else _("Act of Faith")
    winner = _who(state, last["winner"])
    if last["bocanegra"]:
        return _("{title}: {name} wins with Emilio Bocanegra (+{prize} Fame)", title=title,
                 name=winner, prize=last["prize"])
    parts = [f"{_who(state, int(key))} {base}+{dice[0]}+{dice[1]}={plaza_total(base, dice)}"
             for key, base in last["bases"].items() for dice in [last["dice"][key]]]
    return _("{title}: {rolls}; {name} wins +{prize} Fame", title=title, rolls=", ".join(parts),
             name=winner, prize=last["prize"])


def _dice_game_summary(state: Mapping[str, Any], last: Mapping[str, Any]) -> Text:
    def who(key: str) -> Text | str:
        if key == "bank":
            return _("bank")
        return _who(state, last["seat"] if key == "player" else int(key))

    rolled = joined(", ", [joined(" ", [who(key), f"{d[0]}+{d[1]}={plaza_total(0, d)}"])
                           for key, d in last["dice"].items()])
    winner = _("the bank") if last["bank_won"] else _who(state, last["winner"])
    return _("{name} bet {bet} at dice: {rolled}; {winner} takes the pot of {pot}",
             name=_who(state, last["seat"]), bet=last["bet"], rolled=rolled, winner=winner,
             pot=last["pot"])


def _with_outcome(text: Text, name: str, outcome: str | None) -> Text:
    """A line, and what the change did to the player's life."""
    if outcome == "dead":
        return _("{text}: {name} dies", text=text, name=name)
    if outcome == "saved":
        return _("{text}: {name} is saved by their cards", text=text, name=name)
    return text


def _adjust_summary(who: str, last: Mapping[str, Any]) -> Text:
    reason = REASON_WORDS.get(last["reason"], last["reason"])
    if last["jailed"]:
        if reason:
            return _("{name} can't pay {n} ducats ({reason}): to the town jail", name=who,
                     n=-last["delta"], reason=reason)
        return _("{name} can't pay {n} ducats: to the town jail", name=who, n=-last["delta"])
    stat = last["stat"]
    words = STAT_ONE.get(stat, STAT_WORDS[stat]) if abs(last["delta"]) == 1 else STAT_WORDS[stat]
    values = {"name": who, "delta": signed(last["delta"]), "stat": words}
    text = (_("{name} {delta} {stat} ({reason})", reason=reason, **values) if reason
            else _("{name} {delta} {stat}", **values))
    if last["applied"] != last["delta"]:
        text = _("{text} ({applied} applied)", text=text, applied=signed(last["applied"]))
    return _with_outcome(text, who, last["outcome"])


def _turn_summary(who: str, seat: Mapping[str, Any], last: Mapping[str, Any]) -> Text:
    paid = last["income"]
    parts = [n_("{name}'s turn: +{n} ducat", "{name}'s turn: +{n} ducats", paid, name=who,
                n=paid)]
    if last["lost_turn"]:
        left = seat["lost_turns"]
        parts.append(n_("a lost turn ({n} left)", "a lost turn ({n} left)", left, n=left))
    if last["wanted_turn"]:
        more = seat["wanted_turns"]
        parts.append(n_("wanted {n} more turn", "wanted {n} more turns", more, n=more) if more
                     else _("no longer wanted"))
    return joined(", ", parts)


def _status_summary(who: str, last: Mapping[str, Any]) -> Text:
    parts = [_("{name} is {where}", name=who, where=STATUS_WORDS[last["status"]])]
    if last["lost_turns"]:
        lost = last["lost_turns"]
        parts.append(n_("{n} lost turns", "{n} lost turns", lost, n=lost))
    if last["cleared_wanted"]:
        parts.append(_("no longer wanted"))
    return joined(", ", parts)


def summary(move: Mapping[str, Any], before: Mapping[str, Any],
            after: Mapping[str, Any]) -> Text | str:
    last = after.get("last") or {}
    kind = move.get("type")
    if kind in ("duel", "combat"):
        return _fight_summary(after, last)
    if kind in ("bullfight", "act_of_faith"):
        return _plaza_summary(after, last)
    if kind == "dice_game":
        return _dice_game_summary(after, last)
    if kind == "end":
        leader = standings(after)[0]
        return _("The players stopped: {name} leads with {score}", name=leader["name"],
                 score=leader["score"])
    who = _who(after, last.get("seat"))
    seat = after["seats"][last["seat"]] if last.get("seat") is not None else None
    if kind == "setup":
        return _("{name} set up: Fencing {fencing}, {ducats} ducats", name=who,
                 fencing=seat["fencing"], ducats=seat["ducats"])
    if kind == "turn":
        return _turn_summary(who, seat, last)
    if kind == "adjust":
        return _adjust_summary(who, last)
    if kind == "card":
        text = (_("{name} put {card} on the board", name=who, card=last["card"])
                if last["action"] == "add"
                else _("{name} discarded {card}", name=who, card=last["card"]))
        return _with_outcome(text, who, last["outcome"])
    if kind == "attack":
        target = _who(after, last["to"])
        if last["action"] == "play":
            return _("{name} played an attack card on {target}", name=_who(after, last["from"]),
                     target=target)
        return _("{name} resolved an attack card ({n} waiting)", name=target,
                 n=last["waiting"])
    if kind == "status":
        return _status_summary(who, last)
    if kind == "death":
        if last["outcome"] == "saved":
            return _("{name} is saved by their cards", name=who)
        return _("{name} died", name=who)
    if kind == "valido":
        if last["won"]:
            return _("{name} at El Valido with {fame} Fame: enters the King's service and wins",
                     name=who, fame=last["fame"])
        return _("{name} at El Valido with {fame} Fame: is not taken", name=who,
                 fame=last["fame"])
    return str(kind)


def _attack_authority(state: Mapping[str, Any], data: Mapping[str, Any]) -> str:
    """An attack card is played by its player (`from`) and carried out by the player it was
    played on (`to`): "The player will verify if he must perform an action ordered by attack
    cards in his game board [...] in order" (the rulebook)."""
    return "seat:to" if data.get("action") == "resolve" else "seat:from"


# Who may make a move (engine.move_authority): a move whose fields name a "seat" is that seat's;
# a fight is either fighter's; an attack card its player's, then its target's; ending the game is
# the host's.
AUTHORITY = {
    "duel": "seat:challenger,challenged",
    "combat": "seat:attacker,defender",
    "attack": _attack_authority,
    "end": "host",
}


def now(state: Mapping[str, Any]) -> Text | None:
    """Where the game stands, for the table's "now" line."""
    if finished(state):
        return None
    upcoming = next_turn(state)
    if upcoming is None and state.get("turn") is None and state.get("first") is not None:
        return _("{name} takes the first turn", name=seat_name(state, state["first"]))
    if upcoming is None:
        return _("Whoever rolls highest takes the first turn")
    return _("Next: {name}'s turn", name=seat_name(state, upcoming))


OPTIONS = {"first": None}

# How the new-game form shows the options (the API takes the same values).
OPTION_FIELDS = (
    Option("first", _("Starting player"), "seat", optional=True,
           help=_("The rules: whoever rolls the die highest starts, then turns go round the "
                  "table in seat order. The app's draw can stand in for the die.")),
)


def awaited(state: Mapping[str, Any]) -> list[int]:
    """The seat the table waits on: the one whose turn comes next, to take it (none before the
    first turn, which goes to whoever rolls highest)."""
    upcoming = None if finished(state) else next_turn(state)
    return [] if upcoming is None else [upcoming]


GAME = Game(
    slug="alatriste",
    name="El Capitán Alatriste",
    min_players=2,
    max_players=6,
    options=OPTIONS,
    option_fields=OPTION_FIELDS,
    first="first",
    check_options=check_options,
    authority=AUTHORITY,
    setup=setup,
    moves={
        "setup": setup_move,
        "turn": turn_move,
        "adjust": adjust_move,
        "card": card_move,
        "attack": attack_move,
        "status": status_move,
        "duel": duel_move,
        "combat": combat_move,
        "dice_game": dice_game_move,
        "bullfight": bullfight_move,
        "act_of_faith": act_of_faith_move,
        "death": death_move,
        "valido": valido_move,
        "end": end_move,
    },
    standings=standings,
    finished=finished,
    summary=summary,
    score_label=_("Fame + ½ ducats"),
    # One line under the scoreboard: the rest is its column's name (score_label).
    rank_rule=_("El Valido wins outright."),
    now=now,
    awaited=awaited,
)
