"""Knights & Damosels (Nicholas Hjelmberg, Nova Suecia): the pure rules.

Spec: shared/specs/knights.md (binding); rulebook: shared/rules/knights-and-damosels.txt (the
rule cards near its end). The cards stay physical; the app keeps who holds which chivalry card,
the worship, the Arthur and Merlin roles, the event, the worship arithmetic and the victory.

Readings the app chose where the spec is open (each marked "the app's reading" below):
- A round needs its worship (or disaster) entered before `end_round`, even when nothing is placed
  (an empty `worship`/`disaster`), so the timeline always says what the round paid.
- The first `seal` closes the knight and service phases, like the first placement would.
- A seat that lost a joust may not challenge again in that phase; it may still be challenged.
- An `events` override may give a War or Quest event at most 3 Arms/Virtue chivalries, so 6
  worship always shares into whole numbers.
- At the end the lot orders every tie group that is left, so all final ranks differ.
- `seats[i].victory` is the class the seat meets now; the game ends only at `end_round`.
- A sealed choice is final (the placement is the seat's own, hidden from the others): a seat
  seals once, and the host's whole placement takes every seal as it stands, filling in only the
  seats that have not sealed.

What Merlin and Arthur see (hidden from the other devices by `redact`, `redact_move` and the log):
- The damosel behind a granted card. Rulebook 5.2: Merlin "displays them so that only he sees the
  damosel side and the other players only see the chivalry side"; 5.3: "Proceed until Merlin's
  turn. [...] Reveal the damosel behind your granted Chivalry card". The app's reading: while the
  knight phase is open, a granted card's damosel is seen by Merlin's seat and by the seat whose
  knight holds it (the issue's "its knight's seat"); it is revealed to the table when the knight
  phase ends (the first offer, seal, worship or disaster). Until then the standings and the
  progress count the card as earned but not as given. A grant or joust the table undid stays
  hidden the same way while a knight phase is open (the state cannot tell its round).
- Arthur's draw. Rulebook 5.1: "Arthur draws 3 Event cards, discards 1 and gives 2 to Merlin.
  Merlin discards 1 Event card and reveals the other." The app's reading: Arthur's seat sees the
  3 events he drew and the one he discards (while his event phase is open); Merlin's seat sees the
  2 he was given; the other seats, the board and the host (viewer None, unless the host sits at
  a seat: then the host sees what that seat sees) see only the event revealed. While the game
  runs, what is in the deck and the discards is not shown (it would tell the draws), only how many
  cards each holds.
- The log's line (`summary`) is shown to every device, so it never names a hidden event or
  damosel: a draw, a discard, a grant and a knight-phase joust are told without them.
- In the knight phase a joust may leave out the damosel: it is the holder's one grant this round
  (so a phone that cannot see the damosel can still enter the joust).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine import (
    Game,
    Option,
    RuleViolation,
    Text,
    _,
    copied,
    is_seat_index,
    joined,
    listing,
    n_,
    required,
    seat_name,
    signed,
)

KNIGHTS = ["Bors", "Gawain", "Launcelot", "Pelleas", "Percival", "Tristram"]
DAMOSELS = ["Elaine", "Guinevere", "Isolde", "Morgana", "Nimue", "Viviane"]
ARMS = ["armor", "horse", "sword"]
VIRTUES = ["honor", "loyalty", "valor"]
VASSALAGE = ["farmer", "fisher", "forester"]
CHIVALRIES = ARMS + VIRTUES + VASSALAGE
# The cards that share 6 worship in War and Quest and are placed face up or down.
SHARED = frozenset(ARMS + VIRTUES)
FACES = ("up", "down")
# A seat's sealed placement as a viewer who may not see its faces has it (redact).
HIDDEN_SEAL = {"sealed": True}

# name -> (kind, the chivalry that earns the event's +1)
EVENTS: dict[str, tuple[str, str | None]] = {
    "Battle of Mt Badon": ("war", "armor"),
    "Conquest of Rome": ("war", "horse"),
    "Siege of Carlion": ("war", "sword"),
    "Holy Grail": ("quest", "honor"),
    "Tristram & Isoud": ("quest", "loyalty"),
    "Questing Beast": ("quest", "valor"),
    "Arthur's Marriage": ("prosperity", "farmer"),
    "Excalibur": ("prosperity", "fisher"),
    "The Round Table": ("prosperity", "forester"),
    "The Adultery": ("disaster", None),
    "The Death of Merlin": ("disaster", None),
    "The Treason of Mordred": ("disaster", None),
}
KIND_LISTS = {"war": ARMS + VASSALAGE, "quest": VIRTUES + VASSALAGE, "prosperity": CHIVALRIES}
# The two disasters' printed glyphs "I J K" and "Q R S" are read as Arms and Vassalage (spec).
DISASTER_LISTS = {
    "The Adultery": VIRTUES,
    "The Death of Merlin": ARMS,
    "The Treason of Mordred": VASSALAGE,
}
KIND_NAMES = {"war": _("War"), "quest": _("Quest"), "prosperity": _("Prosperity"),
              "disaster": _("Disaster")}
# The victory classes of the rule card, as the log and the panels name them.
VICTORY_NAMES = {"damosel": _("damosel victory"), "knight": _("knight victory"),
                 "worship": _("worship victory")}
# A phase as the "now" line names it.
PHASE_NAMES = {"event": _("event phase"), "knight": _("knight phase"),
               "service": _("service phase"), "worship": _("worship phase"),
               "finished": _("the game is over")}
# A joust's pairs as the log names them.
JOUST_CARD_NAMES = {"similar": _("similar"), "different": _("different"),
                    "declined": _("declined")}
# The chivalries and the events as a reader names them. The state keeps the English names, and
# each is its own message id: the state and the English lines stay as they were, and a line kept
# in the log is said in each reader's language (chivalry_name, event_name).
CHIVALRY_NAMES = {
    "armor": _("armor"), "horse": _("horse"), "sword": _("sword"),
    "honor": _("honor"), "loyalty": _("loyalty"), "valor": _("valor"),
    "farmer": _("farmer"), "fisher": _("fisher"), "forester": _("forester"),
}
EVENT_NAMES = {
    "Battle of Mt Badon": _("Battle of Mt Badon"), "Conquest of Rome": _("Conquest of Rome"),
    "Siege of Carlion": _("Siege of Carlion"), "Holy Grail": _("Holy Grail"),
    "Tristram & Isoud": _("Tristram & Isoud"), "Questing Beast": _("Questing Beast"),
    "Arthur's Marriage": _("Arthur's Marriage"), "Excalibur": _("Excalibur"),
    "The Round Table": _("The Round Table"), "The Adultery": _("The Adultery"),
    "The Death of Merlin": _("The Death of Merlin"),
    "The Treason of Mordred": _("The Treason of Mordred"),
}

KNIGHT_VICTORY = 7
DAMOSEL_VICTORY = {3: 5, 4: 5, 5: 4, 6: 4}
WORSHIP_VICTORY = {3: 30, 4: 22, 5: 18, 6: 15}
CLASS_ORDER = {"damosel": 3, "knight": 2, "worship": 1, None: 0}
JOUST_CARDS = ("similar", "different", "declined")
MAX_JOUST_PAIRS = 100
# The similar pairs a joust may list before its last (different or declined) pair.
MAX_SIMILAR_PAIRS = MAX_JOUST_PAIRS - 1
# The worship a joust's different pair moves from the loser to the winner (and a challenger's
# least worship to joust).
JOUST_STAKE = 1
# The worship a card placed in a disaster's minority costs its knight.
DISASTER_LOSS = 2
# Arthur draws this many events (app deck) and passes all but one to Merlin.
EVENTS_DRAWN = 3
EVENTS_PASSED = EVENTS_DRAWN - 1
# The phases in which knights offer and joust.
SERVING_PHASES = ("knight", "service")

OPTIONS: dict[str, Any] = {
    "deck": "app",
    "merlin": 0,
    "knights": None,
    "damosels": None,
    "joust": True,
    "events": {},
}


# --- small checks -------------------------------------------------------------------------------


# A move's fields come as its serializer (moves.py) made them: seats as whole numbers (the keys
# of placements as their digits, a JSON object's keys being text), names and faces among the
# rules' own.


def _missing(name: str) -> Text:
    """The refusal of a move without its field `name` (engine.required)."""
    return _("The move needs a {field}.", field=name)


def _seat_of(state: dict[str, Any], value: int, field: str) -> int:
    count = len(state["seats"])
    if not value < count:
        raise RuleViolation(
            _("There is no seat {seat} at this table (seats 0 to {last}).", seat=repr(value),
              last=count - 1), field=field
        )
    return value


def _seat_field(state: dict[str, Any], data: dict[str, Any], name: str) -> int:
    return _seat_of(state, required(data, name, refusal=_missing), name)


def _no_such(what: str, value: Any, allowed: list[str]) -> Text:
    """"There is no damosel called 'X' (the damosels: ...)": a whole sentence per kind of name
    (a set-up's knights and damosels)."""
    given, names = repr(value), ", ".join(allowed)
    if what == "damosel":
        return _("There is no damosel called {given} (the damosels: {names}).", given=given,
                 names=names)
    return _("There is no knight called {given} (the knights: {names}).", given=given,
             names=names)


def _knight(state: dict[str, Any], seat: int) -> Text:
    return _("{name}'s {knight}", name=seat_name(state, seat),
             knight=state["seats"][seat]["knight"])


def chivalry_name(chivalry: str) -> Text | str:
    """A chivalry as the reader names it ("honor", "lealtad"); a name the rules do not know (a
    refused move's) as it was given."""
    return CHIVALRY_NAMES.get(chivalry, chivalry)


def chivalry_names(chivalries: list[str]) -> Text:
    """"honor, loyalty, valor", each said in the reader's language."""
    return joined(", ", [chivalry_name(chivalry) for chivalry in chivalries])


def event_name(event: str) -> Text | str:
    """An event as the reader names it ("Holy Grail", "Santo Grial")."""
    return EVENT_NAMES.get(event, event)


def card_name(damosel: str, chivalry: str) -> Text:
    """A chivalry card by its damosel: "Elaine's honor" (the damosel as the card prints her)."""
    return _("{damosel}'s {chivalry}", damosel=damosel, chivalry=chivalry_name(chivalry))


# --- options and set-up -------------------------------------------------------------------------


def _check_roster(value: Any, allowed: list[str], seat_count: int, field: str) -> None:
    if value is None or value == []:
        return  # dealt in order
    knights = field == "knights"
    if not isinstance(value, list) or len(value) != seat_count:
        raise RuleViolation(
            _("Give one of the knights to each of the {n} seats.", n=seat_count) if knights
            else _("Give one of the damosels to each of the {n} seats.", n=seat_count),
            field=field)
    for item in value:
        if item not in allowed:
            raise RuleViolation(_no_such(field[:-1], item, allowed), field=field)
    if len(set(value)) != len(value):
        raise RuleViolation(
            _("Each seat needs a different one of the knights.") if knights
            else _("Each seat needs a different one of the damosels."), field=field)


def _check_event_overrides(value: Any) -> None:
    if value is None:
        return
    if not isinstance(value, dict):
        raise RuleViolation(_("The events option maps event names to chivalry lists."),
                            field="events")
    for event, listed in value.items():
        if event not in EVENTS:
            raise RuleViolation(_("There is no event called {given}.", given=repr(event)),
                                field="events")
        if not isinstance(listed, list) or not listed:
            raise RuleViolation(_("{event} needs a list of chivalries.", event=event),
                                field="events")
        for chivalry in listed:
            if chivalry not in CHIVALRIES:
                raise RuleViolation(
                    _("{event} lists {given}, which is not a chivalry ({names}).", event=event,
                      given=repr(chivalry), names=", ".join(CHIVALRIES)),
                    field="events",
                )
        if len(set(listed)) != len(listed):
            raise RuleViolation(_("{event} lists a chivalry twice.", event=event),
                                field="events")
        # The app's reading: 6 worship is shared in whole numbers only between 1 to 3 cards.
        if EVENTS[event][0] in ("war", "quest") and len(SHARED.intersection(listed)) > 3:
            raise RuleViolation(
                _("{event} may list at most 3 Arms or Virtue chivalries (they share 6 worship).",
                  event=event),
                field="events",
            )


def check_options(options: dict[str, Any], seat_count: int) -> None:
    if options.get("deck") not in ("app", "table"):
        raise RuleViolation(_("The event deck is kept by the app or by the table."),
                            field="deck")
    merlin = options.get("merlin")
    if not is_seat_index(merlin, seat_count=seat_count):
        raise RuleViolation(
            _("Merlin must be one of the seats 0 to {last}, not {given}.", last=seat_count - 1,
              given=repr(merlin)),
            field="merlin",
        )
    _check_roster(options.get("knights"), KNIGHTS, seat_count, "knights")
    _check_roster(options.get("damosels"), DAMOSELS, seat_count, "damosels")
    if not isinstance(options.get("joust"), bool):
        raise RuleViolation(_("The joust option is on or off (true or false)."),
                            field="joust")
    _check_event_overrides(options.get("events"))


def setup(seat_names: list[str], options: dict[str, Any], rng: Any) -> dict[str, Any]:
    count = len(seat_names)
    options = {**OPTIONS, **options}
    check_options(options, count)
    knights = options["knights"] or KNIGHTS[:count]
    damosels = options["damosels"] or DAMOSELS[:count]
    merlin = options["merlin"]
    app_deck = options["deck"] == "app"
    return {
        "round": 1,
        "phase": "event",
        "arthur": (merlin + 1) % count,
        "merlin": merlin,
        "event": None,
        "event_choices": [],
        "seats": [
            {"name": name, "knight": knight, "damosel": damosel, "worship": 1, "earned": [],
             "offered": [], "given_max": 0, "victory": None}
            for name, knight, damosel in zip(seat_names, knights, damosels, strict=True)
        ],
        "victory": None,
        "options": {"deck": options["deck"], "joust": options["joust"],
                    "events": dict(options["events"] or {})},
        # Where every chivalry card is: None with its damosel, else the seat whose knight holds it.
        "cards": {damosel: dict.fromkeys(CHIVALRIES) for damosel in DAMOSELS},
        "granted": [],  # this round's grants: {"seat", "damosel", "chivalry"}
        # The app's event deck as sets, never in a shuffled order: draws pick with rng.
        "event_deck": sorted(EVENTS) if app_deck else [],
        "event_discards": [],
        "joust": {"phase": "knight", "challenged": [], "losers": []},
        "sealed": {},  # str(seat) -> {chivalry: "up"|"down"} while the sealing round is open
        "resolution": None,  # this round's worship or disaster outcome once applied
        "last": None,  # after each move: {"type": the move's type, ...what it did}
    }


# --- events -------------------------------------------------------------------------------------


def event_kind(event: str) -> str:
    return EVENTS[event][0]


def event_list(state: dict[str, Any], event: str) -> list[str]:
    """The chivalries the event lists: the session's override, else the app's default."""
    override = state["options"]["events"].get(event)
    if override:
        return list(override)
    return list(DISASTER_LISTS.get(event) or KIND_LISTS[event_kind(event)])


def _describe_event(state: dict[str, Any], event: str) -> Text:
    return _("{event} ({kind}: {chivalries})", event=event_name(event),
             kind=KIND_NAMES[event_kind(event)],
             chivalries=chivalry_names(event_list(state, event)))


# --- cards --------------------------------------------------------------------------------------


def _holds(state: dict[str, Any], seat: int, chivalry: str) -> str | None:
    """The damosel of the seat's knight's card of that chivalry, or None."""
    for card in state["seats"][seat]["earned"]:
        if card["chivalry"] == chivalry:
            return card["damosel"]
    return None


def _has(state: dict[str, Any], seat: int, chivalry: str) -> bool:
    """Whether the seat's knight holds a card of that chivalry (its damosel may be hidden)."""
    return any(card["chivalry"] == chivalry for card in state["seats"][seat]["earned"])


def _give(state: dict[str, Any], seat: int, damosel: str, chivalry: str) -> None:
    state["cards"][damosel][chivalry] = seat
    state["seats"][seat]["earned"].append({"damosel": damosel, "chivalry": chivalry})


def _take(state: dict[str, Any], seat: int, damosel: str, chivalry: str) -> None:
    """The card leaves the seat's knight (back to its damosel unless _give follows)."""
    state["cards"][damosel][chivalry] = None
    earned = state["seats"][seat]["earned"]
    earned.remove({"damosel": damosel, "chivalry": chivalry})
    state["granted"] = [
        g for g in state["granted"] if (g["damosel"], g["chivalry"]) != (damosel, chivalry)
    ]


def _unused_damosels(state: dict[str, Any]) -> set[str]:
    return set(DAMOSELS) - {seat["damosel"] for seat in state["seats"]}


def given_max(state: dict[str, Any], seat: int) -> int:
    """The most cards of the seat's damosel held by one knight."""
    holders = [h for h in state["cards"][state["seats"][seat]["damosel"]].values() if h is not None]
    return max((holders.count(h) for h in set(holders)), default=0)


def victory_class(state: dict[str, Any], seat: int) -> str | None:
    count = len(state["seats"])
    row = state["seats"][seat]
    if given_max(state, seat) >= DAMOSEL_VICTORY[count]:
        return "damosel"
    if len(row["earned"]) >= KNIGHT_VICTORY:
        return "knight"
    if row["worship"] >= WORSHIP_VICTORY[count]:
        return "worship"
    return None


def _refresh(state: dict[str, Any]) -> dict[str, Any]:
    for seat, row in enumerate(state["seats"]):
        row["given_max"] = given_max(state, seat)
        row["victory"] = victory_class(state, seat)
    return state


# --- phases -------------------------------------------------------------------------------------


def _phase_refusal(state: dict[str, Any], what: Text) -> RuleViolation:
    """`what`: the move refused, as a Text ("No grant now")."""
    phase = state["phase"]
    if phase == "event":
        return RuleViolation(_("{what}: reveal this round's event first.", what=what),
                             field="type")
    if phase == "finished":
        return RuleViolation(_("The game is over."), field="type")
    if state["resolution"] is not None:
        return RuleViolation(_("{what}: this round's worship is entered; end the round.",
                               what=what), field="type")
    return RuleViolation(_("{what}: that phase of this round is over.", what=what), field="type")


def round_open(state: dict[str, Any]) -> bool:
    """The event is revealed and the round's worship (or disaster) not yet applied."""
    return (state["phase"] in ("knight", "service", "worship") and state["event"] is not None
            and state["resolution"] is None)


def _open_round(state: dict[str, Any], what: Text) -> None:
    if not round_open(state):
        raise _phase_refusal(state, what)


def _enter_phase(state: dict[str, Any], phase: str) -> None:
    if state["phase"] != phase:
        state["phase"] = phase
        state["joust"] = {"phase": phase, "challenged": [], "losers": []}


# --- the event phase ----------------------------------------------------------------------------


def event_step(state: dict[str, Any]) -> str:
    """What the event phase waits for: "table" (Merlin names the event drawn at the table),
    "draw" (Arthur draws), "pass" (Arthur discards one) or "reveal" (Merlin reveals one)."""
    if state["options"]["deck"] == "table":
        return "table"
    choices = len(state["event_choices"])
    if choices == 0:
        return "draw"
    return "pass" if choices == EVENTS_DRAWN else "reveal"


def step_seat(state: dict[str, Any]) -> int | None:
    """The seat whose own step the event phase waits for: Arthur draws and discards, Merlin
    reveals (None outside the event phase)."""
    if state["phase"] != "event":
        return None
    return state["arthur"] if event_step(state) in ("draw", "pass") else state["merlin"]


def _event_phase(state: dict[str, Any], what: Text) -> None:
    if state["phase"] != "event":
        raise RuleViolation(_("{what}: this round's event is already revealed.", what=what),
                            field="type")


def _app_deck(state: dict[str, Any], what: Text) -> None:
    if state["options"]["deck"] != "app":
        raise RuleViolation(
            _("{what}: the table keeps its own event deck; reveal the event by name.", what=what),
            field="type",
        )


def draw_events(state: dict[str, Any], data: Any, actor: int | None, rng: Any) -> dict[str, Any]:
    _app_deck(state, _("Arthur cannot draw events"))
    _event_phase(state, _("Arthur cannot draw events"))
    if state["event_choices"]:
        raise RuleViolation(_("Arthur has already drawn this round's events."), field="type")
    new = copied(state)
    remaining, drawn, reshuffled = sorted(new["event_deck"]), [], False
    if len(remaining) < EVENTS_DRAWN:
        # The last cards are drawn, then the discards become the new deck for the rest.
        drawn, remaining, reshuffled = remaining, sorted(new["event_discards"]), True
        new["event_discards"] = []
    while len(drawn) < EVENTS_DRAWN:
        card = rng.choice(remaining)
        remaining.remove(card)
        drawn.append(card)
    new["event_deck"] = remaining
    new["event_choices"] = drawn
    new["last"] = {"type": "draw_events", "drawn": drawn, "reshuffled": reshuffled}
    return new


def pass_events(state: dict[str, Any], data: Any, actor: int | None, rng: Any) -> dict[str, Any]:
    _app_deck(state, _("Arthur cannot discard an event"))
    _event_phase(state, _("Arthur cannot discard an event"))
    if len(state["event_choices"]) != EVENTS_DRAWN:
        raise RuleViolation(_("Arthur discards one of the {n} events he drew: draw them first.",
                              n=EVENTS_DRAWN), field="discard")
    discard = required(data, "discard", refusal=_missing)
    if discard not in state["event_choices"]:
        raise RuleViolation(
            # Not naming them: only Arthur sees his draw, and his phone shows each as a button.
            _("{given} is not among Arthur's events: he discards one of the {n} he drew.",
              given=repr(discard), n=EVENTS_DRAWN),
            field="discard",
        )
    new = copied(state)
    new["event_choices"].remove(discard)
    new["event_discards"].append(discard)
    new["last"] = {"type": "pass_events", "discarded": discard}
    return new


def reveal_event(state: dict[str, Any], data: Any, actor: int | None, rng: Any) -> dict[str, Any]:
    _event_phase(state, _("Merlin cannot reveal an event"))
    event = required(data, "event", refusal=_missing)
    new = copied(state)
    if state["options"]["deck"] == "app":
        if len(state["event_choices"]) != EVENTS_PASSED:
            raise RuleViolation(
                _("Merlin chooses one of Arthur's {n} events: Arthur passes them first.",
                  n=EVENTS_PASSED), field="event"
            )
        if event not in state["event_choices"]:
            raise RuleViolation(
                _("{given} is not one of Merlin's {n} events: he reveals one of those Arthur "
                  "passed him.", given=repr(event), n=EVENTS_PASSED),
                field="event",
            )
        new["event_choices"].remove(event)
        new["event_discards"].extend(new["event_choices"])
        new["event_choices"] = []
    elif event not in EVENTS:
        raise RuleViolation(_("There is no event called {given}.", given=repr(event)),
                            field="event")
    new["event"] = event
    _enter_phase(new, "knight")
    new["last"] = {"type": "reveal_event", "event": event}
    return new


# --- the knight phase ---------------------------------------------------------------------------


def check_grant(state: dict[str, Any], seat: int, damosel: str, chivalry: str, *,
                jousting: bool = False) -> None:
    """The grant checks; a joust moves a card already granted, so it skips Merlin's-hand checks."""
    holder = state["cards"][damosel][chivalry]
    if not jousting and holder is not None:
        raise RuleViolation(_("{card} is not with {damosel}: {knight} holds it.",
                              card=card_name(damosel, chivalry), damosel=damosel,
                              knight=_knight(state, holder)), field="chivalry")
    if _has(state, seat, chivalry):
        raise RuleViolation(_("{knight} already holds a card of {chivalry}.",
                              knight=_knight(state, seat), chivalry=chivalry_name(chivalry)),
                            field="chivalry")
    if state["seats"][seat]["damosel"] == damosel:
        raise RuleViolation(
            _("{name}'s knight may not take a card of {damosel}, {name}'s own damosel.",
              name=seat_name(state, seat), damosel=damosel), field="damosel")
    if any(g["seat"] == seat for g in state["granted"]):
        raise RuleViolation(_("{knight} has already been granted a card this round.",
                              knight=_knight(state, seat)), field="seat")
    if jousting:
        return
    unused = _unused_damosels(state)
    for g in state["granted"]:
        if g["damosel"] == damosel:
            raise RuleViolation(_("{damosel} put only one card in Merlin's hand this round, "
                                  "and her {chivalry} was granted already.", damosel=damosel,
                                  chivalry=chivalry_name(g["chivalry"])), field="damosel")
        if damosel in unused and g["damosel"] in unused:
            raise RuleViolation(
                _("Only one card a round comes from the damosels nobody plays, and {card} was "
                  "granted already.", card=card_name(g["damosel"], g["chivalry"])),
                field="damosel")


def grant(state: dict[str, Any], data: Any, actor: int | None, rng: Any) -> dict[str, Any]:
    if state["phase"] != "knight":
        if state["phase"] in ("service", "worship"):
            raise RuleViolation(_("The knight phase is over: no grants once a card is offered "
                                  "or placed."), field="type")
        raise _phase_refusal(state, _("No grant now"))
    seat = _seat_field(state, data, "seat")
    damosel = required(data, "damosel", refusal=_missing)
    chivalry = required(data, "chivalry", refusal=_missing)
    check_grant(state, seat, damosel, chivalry)
    new = copied(state)
    _give(new, seat, damosel, chivalry)
    new["granted"].append({"seat": seat, "damosel": damosel, "chivalry": chivalry})
    new["last"] = {"type": "grant", "seat": seat, "damosel": damosel, "chivalry": chivalry}
    return _refresh(new)


# --- the service phase --------------------------------------------------------------------------


def _serving_event(state: dict[str, Any], what: Text) -> str:
    kind = event_kind(state["event"])
    if kind == "disaster":
        raise RuleViolation(_("{what}: {event} is a Disaster; nothing is offered.", what=what,
                              event=event_name(state["event"])), field="type")
    return kind


def check_offer(state: dict[str, Any], seat: int, chivalry: str, *,
                jousting: bool = False) -> None:
    event = state["event"]
    if chivalry not in event_list(state, event):
        raise RuleViolation(_("{event} does not list {chivalry} (it lists {listed}).",
                              event=event_name(event), chivalry=chivalry_name(chivalry),
                              listed=chivalry_names(event_list(state, event))),
                            field="chivalry")
    if not _has(state, seat, chivalry):
        raise RuleViolation(_("{knight} holds no {chivalry} card.", knight=_knight(state, seat),
                              chivalry=chivalry_name(chivalry)), field="chivalry")
    if jousting:
        return
    for other, row in enumerate(state["seats"]):
        if chivalry in row["offered"]:
            raise RuleViolation(_("{knight} has already offered {chivalry} this round.",
                                  knight=_knight(state, other),
                                  chivalry=chivalry_name(chivalry)),
                                field="chivalry")


def offering_open(state: dict[str, Any]) -> bool:
    """Whether knights may offer now: the knight or service phase of a round whose event is not
    a Disaster (the checks `offer` refuses with, in one answer)."""
    return state["phase"] in SERVING_PHASES and event_kind(state["event"]) != "disaster"


def offer(state: dict[str, Any], data: Any, actor: int | None, rng: Any) -> dict[str, Any]:
    if state["phase"] not in SERVING_PHASES:
        raise _phase_refusal(state, _("No offer now"))
    _serving_event(state, _("No offer"))
    seat = _seat_field(state, data, "seat")
    chivalry = required(data, "chivalry", refusal=_missing)
    check_offer(state, seat, chivalry)
    new = copied(state)
    _enter_phase(new, "service")  # the first offer closes the knight phase
    new["seats"][seat]["offered"].append(chivalry)
    new["last"] = {"type": "offer", "seat": seat, "chivalry": chivalry}
    return new


# --- placements and the worship arithmetic ------------------------------------------------------


def offer_points(kind: str, bonus: str | None, cards: list[tuple[str, str | None]]) -> list[int]:
    """The worship each offered card earns, in order.

    `cards` are (chivalry, face): face "up"/"down" for Arms/Virtue cards in War or Quest, None
    otherwise. Pure: the page previews the round with it.
    """
    if kind == "prosperity":
        return [1 + (chivalry == bonus) for chivalry, _ in cards]
    points = [1] * len(cards)
    shared = [i for i, (chivalry, _) in enumerate(cards) if chivalry in SHARED]
    for i in shared:
        points[i] = 6 // len(shared)
    down = [i for i in shared if cards[i][1] == "down"]
    up = [i for i in shared if cards[i][1] != "down"]
    # The first case that fits, in the spec's order.
    if not down:
        pass
    elif not up:
        points = [p - 1 for p in points]
    elif len(down) == 1:
        points[down[0]] += len(up)
        for i in up:
            points[i] -= 1
    elif len(up) == 1:
        points[up[0]] += len(down)
        for i in down:
            points[i] -= 1
    return [p + (chivalry == bonus) for p, (chivalry, _) in zip(points, cards, strict=True)]


def required_placements(state: dict[str, Any]) -> dict[str, list[str]]:
    """str(seat) -> the chivalries that seat must place up or down; seats with none left out."""
    event = state["event"]
    if event is None:
        return {}
    kind = event_kind(event)
    needed = {}
    for seat, row in enumerate(state["seats"]):
        if kind == "disaster":
            cards = [c for c in event_list(state, event) if _has(state, seat, c)]
        elif kind == "prosperity":
            cards = []
        else:
            cards = [c for c in row["offered"] if c in SHARED]
        if cards:
            needed[str(seat)] = sorted(cards, key=CHIVALRIES.index)
    return needed


def faces_secret(state: dict[str, Any]) -> bool:
    """Whether this round has cards to place face up or down: each seat's faces are then its own
    secret, sealed on its phone (a Prosperity has none)."""
    return round_open(state) and bool(required_placements(state))


def waiting_seals(state: dict[str, Any]) -> list[int]:
    """The seats that must still place (or seal) cards this round, in seat order."""
    return [int(key) for key in required_placements(state) if key not in state["sealed"]]


def _check_seat_placement(state: dict[str, Any], seat: int, given: Any,
                          needed: list[str]) -> dict[str, str]:
    name = seat_name(state, seat)
    for chivalry in given:
        if chivalry not in needed:
            raise RuleViolation(_("{name} has no {chivalry} card to place this round.",
                                  name=name, chivalry=chivalry_name(chivalry)),
                                field="placements")
    missing = [c for c in needed if c not in given]
    if missing:
        raise RuleViolation(_must_place(name, missing), field="placements")
    return {chivalry: given[chivalry] for chivalry in needed}


def _must_place(name: str, cards: list[str]) -> Text:
    return _("{name} must still place {cards} face up or down.", name=name,
             cards=chivalry_names(cards))


def _check_placements(state: dict[str, Any], placements: Any) -> dict[str, dict[str, str]]:
    needed = required_placements(state)
    checked: dict[str, dict[str, str]] = {}
    for key, given in (placements or {}).items():
        seat = _seat_of(state, int(key), "placements")
        placed = _check_seat_placement(state, seat, given, needed.get(str(seat), []))
        if placed:
            checked[str(seat)] = placed
    for key, cards in needed.items():
        if key not in checked:
            raise RuleViolation(_must_place(seat_name(state, int(key)), cards), field="placements")
    return checked


def _worship_outcome(state: dict[str, Any], placements: dict[str, dict[str, str]]) -> dict:
    event = state["event"]
    kind, bonus = EVENTS[event]
    offered = [(seat, chivalry) for seat, row in enumerate(state["seats"])
               for chivalry in row["offered"]]
    faces = [placements.get(str(seat), {}).get(chivalry) if kind != "prosperity" else None
             for seat, chivalry in offered]
    points = offer_points(kind, bonus,
                          [(c, f) for (_seat, c), f in zip(offered, faces, strict=True)])
    gains = [0] * len(state["seats"])
    for (seat, _chivalry), earned in zip(offered, points, strict=True):
        gains[seat] += earned
    before = [row["worship"] for row in state["seats"]]
    return {
        "event": event, "kind": kind, "placements": placements,
        "cards": [{"seat": s, "chivalry": c, "face": f, "points": p}
                  for (s, c), f, p in zip(offered, faces, points, strict=True)],
        "change": [max(0, w + g) - w for w, g in zip(before, gains, strict=True)],
    }


def _disaster_outcome(state: dict[str, Any], placements: dict[str, dict[str, str]]) -> dict:
    cards = [{"seat": int(key), "chivalry": chivalry, "face": face,
              "damosel": _holds(state, int(key), chivalry)}
             for key, placed in sorted(placements.items(), key=lambda item: int(item[0]))
             for chivalry, face in placed.items()]
    up = sum(card["face"] == "up" for card in cards)
    down = len(cards) - up
    majority = "up" if up > down else "down" if down > up else None
    returned = [c for c in cards if majority and c["face"] == majority]
    minority = [c for c in cards if majority and c["face"] != majority]
    change = []
    for seat, row in enumerate(state["seats"]):
        loss = DISASTER_LOSS * sum(card["seat"] == seat for card in minority)
        change.append(-min(row["worship"], loss))
    return {"event": state["event"], "kind": "disaster", "placements": placements,
            "up": up, "down": down, "majority": majority,
            "returned": [{k: c[k] for k in ("seat", "damosel", "chivalry")} for c in returned],
            "minority": [{k: c[k] for k in ("seat", "damosel", "chivalry")} for c in minority],
            "change": change}


def hidden_seals(state: dict[str, Any]) -> list[int]:
    """The seats whose sealed placement this state, as a viewer sees it (redact), hides."""
    return sorted(int(key) for key, placed in state["sealed"].items() if placed == HIDDEN_SEAL)


def worship_preview(state: dict[str, Any], placements: Any) -> dict[str, Any]:
    """What the placements would do (checked, nothing applied): the page's preview. A sealed
    seat's placement stands as sealed, as when the worship is applied; a seal this state hides
    (hidden_seals) cannot be previewed."""
    hidden = hidden_seals(state)
    if hidden:
        raise RuleViolation(_("No preview: the faces {names} sealed stay hidden until they are "
                              "applied.", names=listing(seat_name(state, seat) for seat in hidden)),
                            field="placements")
    checked = _check_placements(state, _with_seals(state, {"placements": placements}))
    if event_kind(state["event"]) == "disaster":
        return _disaster_outcome(state, checked)
    return _worship_outcome(state, checked)


def _apply_placements(state: dict[str, Any], placements: dict[str, dict[str, str]],
                      last: dict[str, Any]) -> dict:
    """Return a new state with the round's worship (or disaster) applied; `last` is the move's
    own part of state["last"] (its "type", ...), the outcome is added to it."""
    outcome = worship_preview(state, placements)
    new = copied(state)
    for card in outcome.get("returned", []):
        _take(new, card["seat"], card["damosel"], card["chivalry"])
    for row, change in zip(new["seats"], outcome["change"], strict=True):
        row["worship"] += change
    _enter_phase(new, "worship")
    new["sealed"] = {}
    new["resolution"] = outcome
    new["last"] = {**last, **outcome}
    return _refresh(new)


def _with_seals(state: dict[str, Any], data: dict[str, Any]) -> Any:
    """The whole placement the host enters, with every seal taken as it stands: a sealed choice
    is final, so what the host gives for a sealed seat is not used (the host cannot see it)."""
    placements = data.get("placements")
    if not state["sealed"] or placements is None:
        return placements
    unsealed = {key: faces for key, faces in placements.items()
                if str(key) not in state["sealed"]}
    return {**unsealed, **state["sealed"]}


def worship(state: dict[str, Any], data: Any, actor: int | None, rng: Any) -> dict[str, Any]:
    _open_round(state, _("No worship now"))
    if event_kind(state["event"]) == "disaster":
        raise RuleViolation(_("{event} is a Disaster: enter it with the disaster move.",
                              event=event_name(state["event"])), field="type")
    return _apply_placements(state, _check_placements(state, _with_seals(state, data)),
                             {"type": "worship"})


def disaster(state: dict[str, Any], data: Any, actor: int | None, rng: Any) -> dict[str, Any]:
    _open_round(state, _("No disaster now"))
    if event_kind(state["event"]) != "disaster":
        raise RuleViolation(_("{event} is not a Disaster: enter the worship instead.",
                              event=event_name(state["event"])), field="type")
    return _apply_placements(state, _check_placements(state, _with_seals(state, data)),
                             {"type": "disaster"})


def seal(state: dict[str, Any], data: Any, actor: int | None, rng: Any) -> dict[str, Any]:
    """One seat's secret placement; the last seal in applies the whole placement.

    A phone seals only its own seat; the host (actor None) may seal for a seat without a phone.
    """
    _open_round(state, _("No seal now"))
    if event_kind(state["event"]) == "prosperity":
        raise RuleViolation(_("Nothing is placed face up or down in a Prosperity round."),
                            field="type")
    seat = _seat_field(state, data, "seat")
    name = seat_name(state, seat)
    if actor is not None and actor != seat:
        raise RuleViolation(_("Only {name}'s own phone may seal {name}'s placement.", name=name),
                            field="seat")
    needed = required_placements(state)
    if str(seat) not in needed:
        raise RuleViolation(_("{name} has nothing to place this round.", name=name),
                            field="seat")
    if str(seat) in state["sealed"]:
        raise RuleViolation(_("{name} has sealed already: a sealed choice is final.", name=name),
                            field="seat")
    placed = _check_seat_placement(state, seat, required(data, "placements", refusal=_missing),
                                   needed[str(seat)])
    new = copied(state)
    _enter_phase(new, "worship")  # the app's reading: the first seal closes offering
    new["sealed"][str(seat)] = placed
    # Only whose seal it is: the faces stay hidden until the last seal is in.
    new["last"] = {"type": "seal", "seat": seat}
    if set(new["sealed"]) == set(needed):
        return _apply_placements(new, new["sealed"], new["last"])
    return new


# --- the joust ----------------------------------------------------------------------------------


def challenge_key(damosel: str | None, chivalry: str) -> str:
    """How `joust.challenged` names a card: "damosel:chivalry" for a grant (knight phase), the
    chivalry alone for an offer (service phase)."""
    return f"{damosel}:{chivalry}" if damosel else chivalry


def challengeable(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The cards that may still be challenged in this phase, each {"holder", "damosel",
    "chivalry"} (damosel None for an offer); [] when no joust is possible now."""
    if (not state["options"]["joust"] or state["phase"] not in SERVING_PHASES
            or state["resolution"] is not None):
        return []
    challenged = set(state["joust"]["challenged"])
    if state["phase"] == "knight":
        cards = [{"holder": g["seat"], "damosel": g["damosel"], "chivalry": g["chivalry"]}
                 for g in state["granted"]]
        # A redacted state names a card whose damosel is hidden by its holder (hidden_key).
        keys = [challenge_key(c["damosel"], c["chivalry"]) if c["damosel"]
                else hidden_key(c["holder"], c["chivalry"]) for c in cards]
    else:
        cards = [{"holder": seat, "damosel": None, "chivalry": chivalry}
                 for seat, row in enumerate(state["seats"]) for chivalry in row["offered"]]
        keys = [challenge_key(None, c["chivalry"]) for c in cards]
    return [card for card, key in zip(cards, keys, strict=True) if key not in challenged]


def _granted_card(state: dict[str, Any], holder: int, chivalry: str) -> Text:
    """A granted card named without its damosel."""
    return _("the {chivalry} granted to {name}", chivalry=chivalry_name(chivalry),
             name=seat_name(state, holder))


def _granted_damosel(state: dict[str, Any], holder: int, chivalry: str) -> str:
    """The damosel of the holder's grant of that chivalry this round (one grant a seat)."""
    for g in state["granted"]:
        if g["seat"] == holder and g["chivalry"] == chivalry:
            return g["damosel"]
    raise RuleViolation(_("{knight} was not granted a card of {chivalry} this round.",
                          knight=_knight(state, holder), chivalry=chivalry_name(chivalry)),
                        field="holder")


def _check_joust_cards(cards: list[str]) -> list[str]:
    if "similar" in cards[-1:] or any(card != "similar" for card in cards[:-1]):
        raise RuleViolation(_("A joust goes on while the pairs are similar and ends with the "
                              "first different pair or a decline."), field="cards")
    return cards


def _fight(holder: int, challenger: int, cards: list[str]) -> tuple[int, bool]:
    """(who holds the right at the end, whether the last pair was different)."""
    right = holder
    for card in cards:
        if card == "different":
            return right, True
        right = challenger if right == holder else holder
    return right, False


def _check_challenge(state: dict[str, Any], challenger: int, key: str, card: Any,
                     damosel: str | None, chivalry: str) -> None:
    """Whether `challenger` may challenge for this card now: not challenged already, not a
    loser of this phase, the stake in hand, and the card one it could hold."""
    if key in state["joust"]["challenged"]:
        raise RuleViolation(_("{card} was already challenged in this phase.", card=card),
                            field="chivalry")
    if challenger in state["joust"]["losers"]:
        raise RuleViolation(_("{name} lost a joust in this phase and may not joust again.",
                              name=seat_name(state, challenger)), field="challenger")
    if state["seats"][challenger]["worship"] < JOUST_STAKE:
        raise RuleViolation(_("{name} needs at least {n} worship to joust.",
                              name=seat_name(state, challenger), n=JOUST_STAKE), field="challenger")
    if damosel:
        check_grant(state, challenger, damosel, chivalry, jousting=True)
    else:
        check_offer(state, challenger, chivalry, jousting=True)


def joust(state: dict[str, Any], data: Any, actor: int | None, rng: Any) -> dict[str, Any]:
    if not state["options"]["joust"]:
        raise RuleViolation(_("The joust rule is off in this session."), field="type")
    phase = state["phase"]
    if phase not in SERVING_PHASES:
        raise _phase_refusal(state, _("No joust now"))
    holder = _seat_field(state, data, "holder")
    challenger = _seat_field(state, data, "challenger")
    chivalry = required(data, "chivalry", refusal=_missing)
    if holder == challenger:
        raise RuleViolation(_("A knight cannot challenge himself."), field="challenger")
    if phase == "knight" and data.get("damosel") in (None, ""):
        damosel = _granted_damosel(state, holder, chivalry)
        card = _granted_card(state, holder, chivalry)
    elif phase == "knight":
        damosel = required(data, "damosel", refusal=_missing)
        card = card_name(damosel, chivalry)
        if {"seat": holder, "damosel": damosel, "chivalry": chivalry} not in state["granted"]:
            raise RuleViolation(_("{knight} was not granted {card} this round.",
                                  knight=_knight(state, holder), card=card), field="holder")
    else:
        damosel, card = None, chivalry_name(chivalry)
        if chivalry not in state["seats"][holder]["offered"]:
            raise RuleViolation(_("{knight} has not offered {chivalry}.",
                                  knight=_knight(state, holder),
                                  chivalry=chivalry_name(chivalry)),
                                field="holder")
    key = challenge_key(damosel, chivalry)
    _check_challenge(state, challenger, key, card, damosel, chivalry)
    cards = _check_joust_cards(required(data, "cards", refusal=_missing))
    winner, different = _fight(holder, challenger, cards)
    loser = challenger if winner == holder else holder
    new = copied(state)
    paid = min(JOUST_STAKE, new["seats"][loser]["worship"]) if different else 0
    new["seats"][loser]["worship"] -= paid
    new["seats"][winner]["worship"] += paid
    if winner == challenger:
        if damosel:
            _take(new, holder, damosel, chivalry)
            _give(new, challenger, damosel, chivalry)
            new["granted"].append({"seat": challenger, "damosel": damosel, "chivalry": chivalry})
        else:
            new["seats"][holder]["offered"].remove(chivalry)
            new["seats"][challenger]["offered"].append(chivalry)
    new["joust"]["challenged"].append(key)
    new["joust"]["losers"].append(loser)
    # The log's name of the card: a granted card's damosel is not told (it may still be hidden).
    told = _granted_card(state, holder, chivalry) if damosel else card
    new["last"] = {"type": "joust", "joust": str(told), "damosel": damosel, "chivalry": chivalry,
                   "holder": holder, "challenger": challenger, "cards": list(cards),
                   "winner": winner, "worship": paid}
    return _refresh(new)


# --- the end of the round -----------------------------------------------------------------------


def rank_keys(state: dict[str, Any], seat: int) -> tuple[int, int, int, int]:
    """Higher is better: victory class, cards given to one knight, cards earned, worship."""
    row = state["seats"][seat]
    return (CLASS_ORDER[victory_class(state, seat)], given_max(state, seat), len(row["earned"]),
            row["worship"])


def _final_order(state: dict[str, Any], rng: Any) -> tuple[list[int], list[dict[str, Any]]]:
    """Every seat best first; each tie left after the keys is drawn by lot."""
    keys = {seat: rank_keys(state, seat) for seat in range(len(state["seats"]))}
    order, lots = [], []
    for value in sorted(set(keys.values()), reverse=True):
        group = [seat for seat in keys if keys[seat] == value]
        if len(group) > 1:
            drawn = rng.sample(group, len(group))
            lots.append({"seats": group, "drawn": drawn})
            group = drawn
        order.extend(group)
    return order, lots


def end_round(state: dict[str, Any], data: Any, actor: int | None, rng: Any) -> dict[str, Any]:
    if state["phase"] == "finished":
        raise _phase_refusal(state, _("No end of round now"))
    if state["resolution"] is None:
        if state["phase"] == "event":
            raise RuleViolation(_("The round has not begun: reveal its event first."),
                                field="type")
        waiting = [seat_name(state, seat) for seat in waiting_seals(state)]
        if state["sealed"] and waiting:
            raise RuleViolation(n_("The round is not over: {names} must still seal.",
                                   "The round is not over: {names} must still seal.",
                                   len(waiting), names=listing(waiting)), field="type")
        raise RuleViolation(_("The round is not over: enter its worship (or disaster) first."),
                            field="type")
    new = _refresh(copied(state))
    met = [seat for seat, row in enumerate(new["seats"]) if row["victory"]]
    if met:
        order, lots = _final_order(new, rng)
        new["phase"] = "finished"
        new["victory"] = {"round": new["round"], "winner": order[0],
                          "class": new["seats"][order[0]]["victory"], "met": met,
                          "order": order, "lots": lots}
        new["last"] = {"type": "end_round", "round": state["round"], "lots": lots,
                       "order": order}
        return new
    count = len(new["seats"])
    new["arthur"] = (new["arthur"] + 1) % count
    new["merlin"] = (new["merlin"] + 1) % count
    if new["options"]["deck"] == "app":
        new["event_discards"].append(new["event"])
    new["event"] = None
    for row in new["seats"]:
        row["offered"] = []
    new["granted"] = []
    new["sealed"] = {}
    new["resolution"] = None
    new["round"] += 1
    _enter_phase(new, "event")
    new["joust"] = {"phase": "knight", "challenged": [], "losers": []}
    new["last"] = {"type": "end_round", "round": state["round"]}
    return new


# --- standings, finished, summary ---------------------------------------------------------------


def finished(state: dict[str, Any]) -> bool:
    return state["phase"] == "finished"


def standings(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Ranked rows. Finished: the final order, lot included (ranks all differ, rank 1 wins).
    Before: the same keys without the lot (equal keys share a rank) and nobody has won yet."""
    state = redact(state, None)  # every device sees them: no hidden damosel counts as given
    count = len(state["seats"])
    keys = {seat: rank_keys(state, seat) for seat in range(count)}
    final = state["victory"]["order"] if finished(state) and state["victory"] else None
    rows = []
    for seat, row in enumerate(state["seats"]):
        if final:
            rank = final.index(seat) + 1
        else:
            rank = 1 + sum(1 for other in keys.values() if other > keys[seat])
        rows.append({
            "seat": seat, "name": row["name"], "score": row["worship"], "rank": rank,
            "winner": bool(final) and rank == 1,
            "details": {"knight": row["knight"], "damosel": row["damosel"],
                        "victory": victory_class(state, seat),
                        "given_max": given_max(state, seat), "earned": len(row["earned"]),
                        "worship": row["worship"]},
        })
    return sorted(rows, key=lambda r: (r["rank"], r["seat"]))


def _card_points(card: dict[str, Any]) -> Text:
    """One offered card's worship in the log: "honor up 3", "farmer 2"."""
    chivalry = chivalry_name(card["chivalry"])
    if card["face"] == "up":
        return _("{chivalry} up {points}", chivalry=chivalry, points=card["points"])
    if card["face"] == "down":
        return _("{chivalry} down {points}", chivalry=chivalry, points=card["points"])
    return _("{chivalry} {points}", chivalry=chivalry, points=card["points"])


def _worship_line(state: dict[str, Any], outcome: dict[str, Any]) -> Text:
    if outcome["kind"] == "disaster":
        event, up, down = event_name(outcome["event"]), outcome["up"], outcome["down"]
        if not outcome["majority"]:
            return _("{event}: {up} up, {down} down: equal, nothing happens", event=event, up=up,
                     down=down)
        back = joined(", ", [card_name(c["damosel"], c["chivalry"]) for c in outcome["returned"]])
        losses = [_("{name} {change}", name=seat_name(state, s), change=c)
                  for s, c in enumerate(outcome["change"]) if c]
        if not losses:
            return _("{event}: {up} up, {down} down: back to their damosels {cards}",
                     event=event, up=up, down=down, cards=back)
        return _("{event}: {up} up, {down} down: back to their damosels {cards}; {losses}",
                 event=event, up=up, down=down, cards=back, losses=joined(", ", losses))
    parts = []
    for seat in range(len(state["seats"])):
        cards = [c for c in outcome["cards"] if c["seat"] == seat]
        if cards:
            parts.append(_("{name} {change} ({cards})", name=seat_name(state, seat),
                           change=signed(outcome["change"][seat]),
                           cards=joined(" + ", [_card_points(c) for c in cards])))
    if not parts:
        return _("Worship for {event}: nothing offered", event=event_name(outcome["event"]))
    return _("Worship for {event}: {seats}", event=event_name(outcome["event"]),
             seats=joined("; ", parts))


def _names(state: dict[str, Any], seats: list[int]) -> str:
    return ", ".join(seat_name(state, seat) for seat in seats)


def _joust_line(after: dict[str, Any], last: dict[str, Any]) -> Text:
    winner, loser = last["winner"], (
        last["challenger"] if last["winner"] == last["holder"] else last["holder"])
    # The card as the log names it: a granted card without its damosel (it may still be hidden;
    # a joust leaves the phase as it was), an offered one by its chivalry.
    card = (_granted_card(after, last["holder"], last["chivalry"]) if after["phase"] == "knight"
            else chivalry_name(last["chivalry"]))
    values = {"challenger": seat_name(after, last["challenger"]),
              "holder": seat_name(after, last["holder"]), "card": card,
              "pairs": joined(", ", [JOUST_CARD_NAMES.get(c, c) for c in last["cards"]]),
              "winner": seat_name(after, winner)}
    if last["worship"]:
        return _("{challenger} challenged {holder} for {card} ({pairs}): {winner} gets it, "
                 "taking {n} worship from {loser}", n=last["worship"],
                 loser=seat_name(after, loser), **values)
    return _("{challenger} challenged {holder} for {card} ({pairs}): {winner} gets it", **values)


def _end_line(before: dict[str, Any], after: dict[str, Any]) -> Text:
    if not after["victory"]:
        return _("Round {round} ended; {arthur} is Arthur, {merlin} is Merlin",
                 round=before["round"], arthur=seat_name(after, after["arthur"]),
                 merlin=seat_name(after, after["merlin"]))
    victory = after["victory"]
    head = _("Round {round} ended: {name} wins ({victory})", round=before["round"],
             name=seat_name(after, victory["winner"]), victory=VICTORY_NAMES[victory["class"]])
    lots = [_("lot among {seats}: {drawn}", seats=_names(after, lot["seats"]),
              drawn=_names(after, lot["drawn"])) for lot in victory["lots"]]
    return joined("; ", [head, *lots]) if lots else head


def summary(move: Mapping[str, Any], before: dict[str, Any], after: dict[str, Any]) -> Text | str:
    kind = move.get("type")
    data = move.get("data") or {}
    last = after.get("last") or {}
    if kind == "draw_events":
        # Which events: Arthur's alone (the line is every device's).
        name, n = seat_name(after, after["arthur"]), len(last["drawn"])
        if last.get("reshuffled"):
            return _("{name} (Arthur) drew {n} events (the discards were shuffled into a new "
                     "deck)", name=name, n=n)
        return _("{name} (Arthur) drew {n} events", name=name, n=n)
    if kind == "pass_events":
        return _("{name} (Arthur) discarded one event and passed {n} to Merlin",
                 name=seat_name(after, after["arthur"]), n=len(after["event_choices"]))
    if kind == "reveal_event":
        return _("{name} (Merlin) revealed {event}", name=seat_name(after, after["merlin"]),
                 event=_describe_event(after, after["event"]))
    if kind == "grant":
        # The damosel stays Merlin's and the knight's until the knight phase ends.
        return _("{knight} was granted a card of {chivalry}", knight=_knight(after, data["seat"]),
                 chivalry=chivalry_name(data["chivalry"]))
    if kind == "offer":
        return _("{knight} offered {chivalry}", knight=_knight(after, data["seat"]),
                 chivalry=chivalry_name(data["chivalry"]))
    if kind == "seal":
        name = seat_name(after, data["seat"])
        if after["resolution"] is not None:
            return _("{name} sealed a placement; all are in. {worship}", name=name,
                     worship=_worship_line(before, after["resolution"]))
        return _("{name} sealed a placement", name=name)
    if kind in ("worship", "disaster"):
        return _worship_line(before, after["resolution"])
    if kind == "joust":
        return _joust_line(after, last)
    if kind == "end_round":
        return _end_line(before, after)
    return str(kind)


# --- what a viewer may see -----------------------------------------------------------------------


def _sees_draw(state: dict[str, Any], viewer: int | None) -> bool:
    """Arthur sees the events he drew; Merlin the ones Arthur passed him."""
    if viewer is None:
        return False
    return viewer == state["arthur"] or (
        viewer == state["merlin"] and len(state["event_choices"]) == EVENTS_PASSED)


def _hidden_cards(state: dict[str, Any], viewer: int | None) -> set[tuple[str, str]]:
    """The granted cards (damosel, chivalry) whose damosel the viewer may not see yet: while the
    knight phase is open, only Merlin and the seat whose knight holds the card see it."""
    if state["phase"] != "knight":
        return set()
    return {(g["damosel"], g["chivalry"]) for g in state["granted"]
            if viewer is None or viewer not in (g["seat"], state["merlin"])}


def hidden_key(holder: int, chivalry: str) -> str:
    """How a redacted `joust.challenged` names a granted card whose damosel is hidden."""
    return f"#{holder}:{chivalry}"


def _hide_seals(hidden: dict[str, Any], viewer: int | None) -> None:
    hidden["sealed"] = {key: placed if viewer is not None and key == str(viewer)
                        else dict(HIDDEN_SEAL) for key, placed in hidden["sealed"].items()}


def _hide_draw(hidden: dict[str, Any], viewer: int | None) -> None:
    if hidden["options"]["deck"] != "app" or finished(hidden):
        return  # once the game is over, nothing is hidden
    # Only how many: which events are left would tell which were drawn and discarded.
    hidden["event_deck"] = [None] * len(hidden["event_deck"])
    hidden["event_discards"] = [None] * len(hidden["event_discards"])
    if not _sees_draw(hidden, viewer):
        hidden["event_choices"] = [None] * len(hidden["event_choices"])
    last = hidden["last"] or {}
    if viewer is None or viewer != hidden["arthur"]:
        if last.get("type") == "draw_events":
            last["drawn"] = [None] * len(last["drawn"])
        elif last.get("type") == "pass_events":
            last["discarded"] = None


def _hide_grants(hidden: dict[str, Any], viewer: int | None) -> None:
    cards = _hidden_cards(hidden, viewer)
    challenged = hidden["joust"]["challenged"]
    for g in hidden["granted"]:
        damosel, chivalry, seat = g["damosel"], g["chivalry"], g["seat"]
        if damosel is None or (damosel, chivalry) not in cards:
            continue  # seen, or hidden already
        hidden["cards"][damosel][chivalry] = None
        earned = hidden["seats"][seat]["earned"]
        earned[earned.index({"damosel": damosel, "chivalry": chivalry})] = {
            "damosel": None, "chivalry": chivalry}
        key = challenge_key(damosel, chivalry)
        if key in challenged:
            challenged[challenged.index(key)] = hidden_key(seat, chivalry)
        g["damosel"] = None
    last = hidden["last"] or {}
    if last.get("type") in ("grant", "joust") and (last.get("damosel"),
                                                   last.get("chivalry")) in cards:
        last["damosel"] = None
    if cards:
        _refresh(hidden)  # given_max and victory from the cards this viewer sees


def redact(state: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """The state as a viewer (a seat, or None for the host and the board) may see it: the other
    seats' sealed placements, Arthur's draw and the damosels behind this round's grants hidden
    (see the module's readings). The state itself when nothing is hidden from this viewer."""
    hidden = copied(state)
    _hide_seals(hidden, viewer)
    _hide_draw(hidden, viewer)
    _hide_grants(hidden, viewer)
    return state if hidden == state else hidden


def pending(state: dict[str, Any]) -> bool:
    """Whether a hidden choice is still to be made or revealed: a seal, Arthur's draw, the
    damosels behind this round's grants (the host's export waits until none is)."""
    return bool(state["sealed"] or state["event_choices"]
                or (state["phase"] == "knight" and state["granted"]))


def host_undoes(move: Mapping[str, Any], state: dict[str, Any]) -> Text | None:
    """The seal that completed the round's placement showed every seat's faces to the whole
    table: undone by a phone, its seat could seal again knowing them (rule card 5.5: "each
    player secretly places"). The host may still undo it, to mend a slip."""
    if move["type"] == "seal" and state["last"].get("type") == "seal" \
            and state["resolution"] is not None:
        return _("The last seal showed every face: only the host may undo it.")
    return None


def _redact_seal(move: Mapping[str, Any], data: dict[str, Any], state: dict[str, Any],
                 viewer: int | None) -> Mapping[str, Any]:
    """Hide the faces of other seats' seals while that seat's seal is still pending, and of
    undone seals always.

    The current state cannot tell which round an older seal came from, so a seat's seals of
    earlier rounds are hidden too while that seat has a seal pending (the app's reading).
    """
    seat = data.get("seat")
    own = viewer is not None and str(seat) == str(viewer)
    if own:
        return move
    # An undone seal was never applied, and its seat may seal the same faces again: it stays
    # hidden from the others for good.
    if not move.get("undone") and str(seat) not in state.get("sealed", {}):
        return move
    return {**move, "data": {**data, "placements": {"sealed": True}}}


def _redact_discard(move: Mapping[str, Any], data: dict[str, Any], state: dict[str, Any],
                    viewer: int | None) -> Mapping[str, Any]:
    """Arthur's discard: seen by this round's Arthur while his event phase is open (the last
    discard is his), by nobody else until the game is over."""
    if finished(state) and not move.get("undone"):
        return move
    own = (viewer is not None and viewer == state["arthur"] and not move.get("undone")
           and state["phase"] == "event" and len(state["event_choices"]) == EVENTS_PASSED
           and state["event_discards"][-1:] == [data.get("discard")])
    return move if own else {**move, "data": {**data, "discard": None}}


def _redact_granted(move: Mapping[str, Any], data: dict[str, Any], state: dict[str, Any],
                    viewer: int | None) -> Mapping[str, Any]:
    """A grant's (or a knight-phase joust's) damosel while the knight phase is open: seen by
    Merlin, the seats the move named (the knight granted it; the joust's holder) and the seat
    holding the card now."""
    damosel, chivalry = data.get("damosel"), data.get("chivalry")
    if state["phase"] != "knight" or not damosel:
        return move
    this_round = any((g["damosel"], g["chivalry"]) == (damosel, chivalry)
                     for g in state["granted"])
    if not (this_round or move.get("undone")):
        return move
    holder = state["cards"].get(damosel, {}).get(chivalry)
    seers = {str(seat) for seat in (state["merlin"], data.get("seat"), data.get("holder"), holder)
             if seat is not None}
    if viewer is not None and str(viewer) in seers:
        return move
    return {**move, "data": {**data, "damosel": None}}


def redact_move(move: Mapping[str, Any], state: dict[str, Any],
                viewer: int | None) -> Mapping[str, Any]:
    """A move of the log as a viewer may see it (the same hiding as `redact`)."""
    data = move.get("data")
    if not isinstance(data, dict):
        return move
    kind = move.get("type")
    if kind == "seal":
        return _redact_seal(move, data, state, viewer)
    if kind == "pass_events":
        return _redact_discard(move, data, state, viewer)
    if kind in ("grant", "joust"):
        return _redact_granted(move, data, state, viewer)
    return move


# How the new-game form shows the options (the API takes the same values).
OPTION_FIELDS = (
    Option("deck", _("Event cards"), "choice", choices=(
        ("app", _("The app keeps and shuffles the event deck")),
        ("table", _("We turn the real cards and enter the event")),
    ), help=_("Arthur draws three events and Merlin reveals one each round.")),
    Option("merlin", _("Merlin in the first round"), "seat",
           help=_("The oldest player starts as Merlin; Arthur is the next seat.")),
    Option("joust", _("Jousts"), "switch", help=_("The optional joust rule.")),
    Option("knights", _("Knights by seat"), "names", names=tuple(KNIGHTS),
           help=_("The knights in seat order, between commas, such as {example}; left empty, "
                  "they are dealt in order.", example="Bors, Gawain, Launcelot")),
    Option("damosels", _("Damosels by seat"), "names", names=tuple(DAMOSELS),
           help=_("The damosels in seat order, between commas, such as {example}; left empty, "
                  "they are dealt in order.", example="Elaine, Guinevere, Isolde")),
    Option("events", _("Event overrides"), "advanced",
           help=_("Events whose chivalry lists differ from the app's, e.g. {example}.",
                  example='{"The Death of Merlin": ["farmer", "fisher"]}')),
)


def _whole_placement_authority(state: dict[str, Any], data: Any) -> str:
    """The worship or disaster entered at once, every seat's faces together: the host's while
    some seat has a card to place face up or down (each seat seals its own on its phone, and no
    other phone may choose it); the table's when no card is to be placed (a Prosperity)."""
    return "host" if faces_secret(state) else "table"


# Who may make a move (engine.move_authority): a move whose fields name a "seat" is that seat's;
# a seal only from the seat's own phone (the host seals for a seat no phone holds); a joust is
# either jouster's; the whole placement is the host's while a face is secret. The event's steps
# and the grants are the roles' (rulebook 5.1-5.3): Arthur draws and discards, Merlin reveals
# and grants the cards in his hand, whose damosels only he sees; so each comes from that role's
# phone this round, or the host's (a grant's "seat" is the knight given the card, not the phone
# that grants it).
AUTHORITY = {
    "seal": "own",
    "worship": _whole_placement_authority,
    "disaster": _whole_placement_authority,
    "draw_events": "seat:@arthur",
    "pass_events": "seat:@arthur",
    "reveal_event": "seat:@merlin",
    "grant": "seat:@merlin",
    "joust": "seat:holder,challenger",
}


def now(state: dict[str, Any]) -> Text | None:
    """Where the game stands, for the table's "now" line (the event once revealed)."""
    if finished(state):
        return None
    values = {"round": state["round"], "phase": PHASE_NAMES[state["phase"]],
              "arthur": seat_name(state, state["arthur"]),
              "merlin": seat_name(state, state["merlin"])}
    if state.get("event"):
        return _("Round {round}, {phase}: {arthur} is Arthur, {merlin} Merlin; event: {event}",
                 event=event_name(state["event"]), **values)
    return _("Round {round}, {phase}: {arthur} is Arthur, {merlin} Merlin", **values)


def awaited(state: dict[str, Any]) -> list[int]:
    """The seats the table waits on: Arthur's or Merlin's step of the event phase, Merlin's
    grants in the knight phase, and once the first seal is in, the seats yet to seal (the
    knights' offers are any seat's, the worship and the round's end the table's)."""
    if finished(state):
        return []
    if state["phase"] == "event":
        return [step_seat(state)]
    if state["resolution"] is not None:
        return []
    if state["phase"] == "knight":
        return [state["merlin"]]
    if state["phase"] == "worship" and faces_secret(state):
        return waiting_seals(state)
    return []


GAME = Game(
    slug="knights",
    name="Knights & Damosels",
    min_players=3,
    max_players=6,
    options=OPTIONS,
    option_fields=OPTION_FIELDS,
    check_options=check_options,
    # Merlin in the first round is who starts: the platform's "Who starts?" (a seat or a draw).
    first="merlin",
    authority=AUTHORITY,
    setup=setup,
    moves={
        "draw_events": draw_events,
        "pass_events": pass_events,
        "reveal_event": reveal_event,
        "grant": grant,
        "offer": offer,
        "seal": seal,
        "worship": worship,
        "disaster": disaster,
        "joust": joust,
        "end_round": end_round,
    },
    standings=standings,
    finished=finished,
    summary=summary,
    redact=redact,
    redact_move=redact_move,
    pending=pending,
    host_undoes=host_undoes,
    score_label=_("Worship"),
    # One line under the scoreboard: how ties break is the rule card's, on the table.
    rank_rule=_("The best victory wins, then Worship."),
    now=now,
    awaited=awaited,
)
