"""What El Capitán Alatriste's panel shows, computed from the state (the templates only lay it
out). Pure: no Django, no query.

- `live_model`: the sheets, badges (whose turn is next among them), the last result's sums and
  who won, for panel_live.html
  (pushed to every phone on every move: nothing that depends on the viewer).
- `panel_model`: what the controls need, this phone's seat first (the catalogue, loaded by
  panel_data.catalogue, the set-up shares, the players).
"""

from __future__ import annotations

from companion.engine import _, joined, n_
from games.alatriste import rules

SPLITS = [(fencing, rules.SETUP_POINTS - fencing)
          for fencing in range(rules.MIN_SETUP, rules.SETUP_POINTS - rules.MIN_SETUP + 1)]
PLAZA_TITLES = {"bullfight": _("Last bullfight"), "act_of_faith": _("Last Act of Faith"),
                "dice_game": _("Last game of dice")}
KIND_WORDS = {"character": _("character"), "possession": _("possession"),
              "attack": _("attack"), "help": _("help")}


def _wanted(n):
    return n_("wanted {n} turns", "wanted {n} turns", n, n=n)


def _badges(seat, next_turn=False):
    badges = []
    if next_turn:
        badges.append(("next", _("next turn")))
    if seat["status"] != "free":
        badges.append((seat["status"], rules.STATUS_WORDS[seat["status"]]))
    if seat["wanted_turns"]:
        badges.append(("wanted", _wanted(seat["wanted_turns"])))
    if seat["lost_turns"]:
        n = seat["lost_turns"]
        badges.append(("lost", n_("{n} lost turns", "{n} lost turns", n, n=n)))
    if seat["recovering"]:
        badges.append(("recovering", _("recovering")))
    if seat["attacks"]:
        n = seat["attacks"]
        badges.append(("attacks", n_("{n} attack cards waiting", "{n} attack cards waiting", n,
                                     n=n)))
    return badges


def _card_text(card):
    """A board card's kind and values in a few words: "character · Fame +1 · pistols"."""
    parts = [KIND_WORDS.get(card["kind"], card["kind"])]
    if card["fame"]:
        parts.append(_("Fame {n:+d}", n=card["fame"]))
    if card["vigour"]:
        parts.append(_("Vigour {n:+d}", n=card["vigour"]))
    if card["fencing"]:
        parts.append(_("Fencing {n:+d}", n=card["fencing"]))
    if card["pistols"]:
        parts.append(_("pistols"))
    if card["vehicle"]:
        parts.append(_("vehicle"))
    return joined(" · ", parts)


def _changes(state, last):
    """Who gained or lost what in the last duel or combat, in words."""
    lines = {}

    def note(index, text):
        lines.setdefault(index, []).append(text)

    for key, delta in (last.get("fame") or {}).items():
        if delta:
            note(int(key), _("Fame {n:+d}", n=delta))
    fight = last.get("fight")
    if fight:
        for index, side in zip(fight["seats"], fight["sides"], strict=True):
            if side["fencing_gained"]:
                note(index, _("Fencing +1"))
            if side["vigour_lost"]:
                note(index, _("Vigour -{n}", n=side["vigour_lost"]))
    take = last.get("take")
    if take:
        note(last["winner"], _("keeps {card}", card=take["card"]) if take["keep"]
             else _("discards {card}", card=take["card"]))
    for name in last.get("discarded") or []:
        note(last["loser"], _("discards {card}", card=name))
    if (last.get("patrol") or {}).get("acts"):
        for role in ("challenger", "challenged", "attacker", "defender"):
            if role in last:
                note(last[role], _("to the town jail"))
    for index in last.get("deaths", []):
        note(index, _("dies"))
    for index in last.get("saved", []):
        note(index, _("saved by their cards"))
    for index in last.get("wanted", []):
        note(index, _wanted(rules.WANTED_TURNS))
    return [{"name": state["seats"][i]["name"], "what": joined(", ", texts)}
            for i, texts in sorted(lines.items())]


def _plaza_rows(state, last):
    """Each player's base + dice = total in the last bullfight, Act of Faith or game of dice."""
    name = lambda index: state["seats"][index]["name"]  # noqa: E731
    if last["type"] == "dice_game":
        keys = [("player", last["seat"]), *((str(j), j) for j in last["joiners"]),
                ("bank", None)]
        bases = {}
        winner_key = ("bank" if last["bank_won"] else
                      "player" if last["winner"] == last["seat"] else str(last["winner"]))
    else:
        keys = [(str(i), i) for i in last["players"]]
        bases = last["bases"]
        winner_key = str(last["winner"])
    rows = []
    for key, index in keys:
        dice = (last.get("dice") or {}).get(key)
        base = bases.get(key)
        rows.append({"name": _("the bank") if index is None else name(index), "base": base,
                     "dice": dice, "total": rules.plaza_total(base or 0, dice) if dice else None,
                     "winner": key == winner_key})
    return rows


def _last(state):
    last = state.get("last") or {}
    kind = last.get("type")
    view = {"type": kind, "sides": [], "changes": [], "rows": []}
    if kind in ("duel", "combat"):
        if last.get("fight"):
            view["sides"] = last["fight"]["sides"]
        if last.get("patrol"):
            view["patrol"] = last["patrol"]
        view["outcome"] = last.get("outcome")
        view["changes"] = _changes(state, last)
    elif kind in PLAZA_TITLES:
        view["title"] = PLAZA_TITLES[kind]
        view["rows"] = _plaza_rows(state, last)
        view["ties"] = bool(last.get("ties"))
        if kind == "dice_game":
            view["pot"] = last["pot"]
            view["bank_won"] = last["bank_won"]
        else:
            view["prize"] = last["prize"]
            view["bocanegra"] = last.get("bocanegra")
    return view




def live_model(state, standings=None):
    """The sheets and the last result: the same for every phone, and no database query."""
    seats = []
    next_turn = rules.next_turn(state)
    for index, seat in enumerate(state["seats"]):
        seats.append({"index": index, "sheet": seat, "badges": _badges(seat, index == next_turn),
                      "dead": seat["status"] == "dead",
                      "playing": seat["ready"] and seat["status"] != "dead",
                      "cards": [(card["name"], _card_text(card)) for card in seat["cards"]]})
    finished = bool(state.get("finished"))
    winners = [row["name"] for row in standings or () if row.get("winner")] if finished else []
    return {"seats": seats, "last": _last(state), "finished": finished, "winners": winners,
            "valido": state.get("ended_by") == "valido"}


def _form_seat(form):
    """The seat a refused seat form was for ("turn-2" -> 2), else None."""
    _head, dash, tail = (form or "").rpartition("-")
    return int(tail) if dash and tail.isdigit() else None


def panel_model(state, *, viewer=None, is_host=False, data=None, posted=None, refusal=None):
    """What the controls need, seat-first: this phone's own seat (`own`), then the table's forms,
    then, for the host only, the other seats (`others`, folded): a guest's phone may play no
    other seat, so it is given no buttons that could only be refused. Nothing here changes with
    the chips: the controls are not pushed to the other phones, so they must stay right when a
    move elsewhere moved on. `data` is the card catalogue (panel_data.catalogue)."""
    data = data or {"catalogue": [], "kinds": {}}
    seats = [{"index": index, "name": seat["name"],
              "playing": seat["ready"] and seat["status"] != "dead",
              "dead": seat["status"] == "dead",
              "cards": [card["name"] for card in seat["cards"]]}
             for index, seat in enumerate(state["seats"])]
    board = [{"name": card["name"], "owner": seat["name"]}
             for seat in state["seats"] for card in seat["cards"]]
    own = seats[viewer] if viewer is not None and 0 <= viewer < len(seats) else None
    others = [row for row in seats if row is not own] if is_host else []
    refused_seat = _form_seat((refusal or {}).get("form"))
    # The table's forms name this phone's seat first: its own duel, its own game of dice.
    first = own["index"] if own else 0
    return {"seats": seats, "board": board, "splits": SPLITS,
            "own": own, "others": others, "is_host": is_host,
            "others_open": any(row["index"] == refused_seat for row in others),
            "first": first, "second": (first + 1) % len(seats),
            "finished": bool(state.get("finished")),
            "stats": [("vigour", _("Vigour")), ("fame", _("Fame")), ("fencing", _("Fencing")),
                      ("ducats", _("Ducats"))],
            "catalogue": data["catalogue"], "kinds": data["kinds"],
            "statuses": [(key, rules.STATUS_WORDS[key]) for key in rules.STATUSES]}
