"""Plausible El Capitán Alatriste moves for a state, legal or not: the conformance test draws
random games from them (tests/test_conformance.py). Pure: the rules and the standard library only.

Every seat sets up first; then turns go round the table and pay income, boxes and cards change
chips, cards go on and off the boards, attack cards wait, the Patrol jails and players come free
again, duels and combats are fought (with the players' dice or the server's), the dice game, the
bullfight and the Act of Faith are played, and now and then someone tries El Valido or the
players stop.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.alatriste import rules

# The option sets the conformance test plays (the game has none).
# Left to the table (whoever rolls highest), and the app's draw in place of the die.
OPTIONS: list[dict[str, Any]] = [{}, {"first": "draw"}]


def _card(name: str, kind: str = "character", **values: Any) -> dict[str, Any]:
    return {"name": name, "kind": kind, "fame": 0, "vigour": 0, "fencing": 0,
            "pistols": False, "vehicle": False, "enemies": [], **values}


# Cards as a group's catalogue might hold them (the seeded names, values a group might give).
CARDS = (
    _card("Quevedo", fame=2, fencing=1, enemies=["Pacheco"]),
    _card("Pacheco", fame=1, fencing=1, enemies=["Quevedo"]),
    _card("Emilio Bocanegra", fame=1),
    _card("Caridad la Lebrijana", vigour=2),
    _card("Pistolas de silla", "possession", fame=-1, fencing=1, pistols=True),
    _card("Dados trucados", "possession", fame=-1),
    _card("Carroza", "possession", vehicle=True),
    _card("Espada toledana", "possession", fencing=2),
    _card("Estocada", "attack"),
)


def _move(kind: str, data: dict[str, Any], actor: int | None = None) -> dict[str, Any]:
    return {"type": kind, "data": data, "actor": actor}


def _dice(rng: random.Random) -> list[int]:
    return [rng.randint(1, 6), rng.randint(1, 6)]


def _setup(seat: int, rng: random.Random) -> dict[str, Any]:
    fencing = rng.randint(rules.MIN_SETUP, rules.SETUP_POINTS - rules.MIN_SETUP)
    ducats = rules.SETUP_POINTS - fencing
    if rng.random() < 0.05:
        ducats += 1  # 11 chips: refused
    return _move("setup", {"seat": seat, "fencing": fencing, "ducats": ducats},
                 rng.choice((None, seat)))


def _turn(state: Mapping[str, Any], playing: list[int], rng: random.Random) -> dict[str, Any]:
    """The next seat's turn round the table (anyone's for the first); now and then a seat
    out of turn, which the rules refuse."""
    seat = rules.next_turn(state)
    if seat is None or rng.random() < 0.1:
        seat = rng.choice(playing)
    return _move("turn", {"seat": seat}, rng.choice((None, seat)))


def _adjust(seat: int, rng: random.Random) -> dict[str, Any]:
    stat = rng.choice(rules.STATS)
    if stat == "fame":
        delta = rng.choice((1, 2, 3, 4, 5, -1, -2))
    elif stat == "vigour":
        delta = rng.choice((-1, -2, -3, -5, 1, 2, 4))
    else:
        delta = rng.choice((1, 2, 3, -1, -2, -4))
    reason = rng.choice(("", "a tavern", "a card"))
    return _move("adjust", {"seat": seat, "stat": stat, "delta": delta, "reason": reason})


def _card_move(state: Mapping[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    held = state["seats"][seat]["cards"]
    if held and rng.random() < 0.3:
        return _move("card", {"seat": seat, "action": "remove",
                              "card": rng.choice(held)["name"]})
    return _move("card", {"seat": seat, "action": "add", "card": dict(rng.choice(CARDS))})


def _attack(playing: list[int], rng: random.Random) -> dict[str, Any]:
    source, target = rng.choice(playing), rng.choice(playing)
    action = rng.choice(("play", "play", "resolve"))
    data: dict[str, Any] = {"action": action, "to": target}
    if action == "play" or rng.random() < 0.3:
        data["from"] = source
    return _move("attack", data)


def _status(state: Mapping[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    sheet = state["seats"][seat]
    if sheet["status"] != "free" and rng.random() < 0.7:
        status = "free"
    else:
        status = rng.choice(rules.STATUSES)
    data: dict[str, Any] = {"seat": seat, "status": status}
    if status != "free" and rng.random() < 0.5:
        data["lost_turns"] = rng.randint(0, 2)
    return _move("status", data)


def _patrol_and_rolls(roles: tuple[str, str], rng: random.Random) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if rng.random() < 0.3:
        patrol: dict[str, Any] = {"distance": rng.randint(1, 9)}
        if rng.random() < 0.5:
            patrol["roll"] = rng.randint(1, 6)
        data["patrol"] = patrol
    if rng.random() < 0.5:
        rolls: dict[str, Any] = {role: _dice(rng) for role in roles}
        for role in roles:
            if rng.random() < 0.5:
                rolls[f"{role}_extra"] = rng.randint(1, 6)
        data["rolls"] = rolls
    return data


def _duel(state: Mapping[str, Any], one: int, two: int, rng: random.Random) -> dict[str, Any]:
    data: dict[str, Any] = {"challenger": one, "challenged": two,
                            "accepted": rng.random() < 0.8,
                            **_patrol_and_rolls(("challenger", "challenged"), rng)}
    cards = state["seats"][two]["cards"]
    if cards and rng.random() < 0.3:
        data["take"] = {"card": rng.choice(cards)["name"], "keep": rng.random() < 0.5}
    if rng.random() < 0.3:
        data["loser_has_hand_cards"] = True
    return _move("duel", data, rng.choice((None, one)))


def _combat(state: Mapping[str, Any], one: int, two: int, rng: random.Random) -> dict[str, Any]:
    data: dict[str, Any] = {"attacker": one, "defender": two,
                            **_patrol_and_rolls(("attacker", "defender"), rng)}
    cards = state["seats"][two]["cards"]
    if cards and rng.random() < 0.3:
        data["discard"] = [card["name"] for card in rng.sample(cards, min(len(cards), 2))]
    return _move("combat", data)


def _dice_game(state: Mapping[str, Any], playing: list[int],
               rng: random.Random) -> dict[str, Any]:
    seat = rng.choice(playing)
    bet = rng.randint(rules.MIN_BET, rules.MIN_BET + 3)
    others = [other for other in playing if other != seat]
    joiners = rng.sample(others, rng.randint(0, min(2, len(others))))
    data: dict[str, Any] = {"seat": seat, "bet": bet, "joiners": joiners}
    if rng.random() < 0.3:
        data["rolls"] = {"player": _dice(rng), "bank": _dice(rng)}
    return _move("dice_game", data)


def _plaza(kind: str, playing: list[int], rng: random.Random) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if rng.random() < 0.3:
        data["rolls"] = {str(seat): _dice(rng) for seat in playing}
    return _move(kind, data)


def candidates(state: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """A handful of moves for `state`: {"type", "data", "actor"} (actor None: the host)."""
    seats = state["seats"]
    waiting = [seat for seat, sheet in enumerate(seats)
               if not sheet["ready"] or sheet["status"] == "dead"]
    moves = [_setup(seat, rng) for seat in rng.sample(waiting, min(2, len(waiting)))]
    playing = [seat for seat, sheet in enumerate(seats)
               if sheet["ready"] and sheet["status"] != "dead"]
    if len(playing) < 2:
        return moves
    seat = rng.choice(playing)
    fighters = [s for s in playing if seats[s]["status"] == "free"
                and not seats[s]["wanted_turns"] and not seats[s]["lost_turns"]]
    one, two = rng.sample(fighters if len(fighters) >= 2 and rng.random() < 0.9 else playing, 2)
    held = [s for s in playing if seats[s]["status"] != "free"]
    if held and rng.random() < 0.3:
        moves.append(_move("status", {"seat": rng.choice(held), "status": "free"}))
    moves += [_turn(state, playing, rng), _adjust(seat, rng)]
    for maker, chance in ((lambda: _card_move(state, seat, rng), 0.4),
                          (lambda: _attack(playing, rng), 0.2),
                          (lambda: _status(state, seat, rng), 0.15),
                          (lambda: _duel(state, one, two, rng), 0.35),
                          (lambda: _combat(state, one, two, rng), 0.2),
                          (lambda: _dice_game(state, playing, rng), 0.15),
                          (lambda: _plaza("bullfight", playing, rng), 0.08),
                          (lambda: _plaza("act_of_faith", playing, rng), 0.08),
                          (lambda: _move("death", {"seat": seat}), 0.02)):
        if rng.random() < chance:
            moves.append(maker())
    famous = [s for s in playing if rules.totals(seats[s])["fame"] >= rules.VALIDO_FAME]
    if famous or rng.random() < 0.02:
        moves.append(_move("valido", {"seat": rng.choice(famous or playing),
                                      "won": rng.random() < 0.5}))
    if rng.random() < 0.015:
        moves.append(_move("end", {}))
    return moves
