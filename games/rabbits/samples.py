"""Plausible Jack Rabbits moves for a state, legal or not: the conformance test draws random games
from them (tests/test_conformance.py). Pure: the rules and the standard library only.

A turn as the table plays it: the seat rolls, perhaps wins the lottery, pays tiles, holds an
audience with a royal that suits its ending (or any royal), steals a royal from a rabbit on the
board, and comes home to the Citadel once its royals fit; rabbits thrown off come back with
`where`; the next seat's roll ends the turn.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.rabbits import rules

# The option sets the conformance test plays (the defaults first).
OPTIONS: list[dict[str, Any]] = [
    {},
    {"ending": "simple", "values": "patriarchy"},
    {"ending": "tribal", "advanced_citadel": True},
    {"ending": "diverse", "values": "patriarchy", "advanced_citadel": True},
    {"ending": "monarchy", "first": "draw"},
]

NUMBERS = tuple(range(2, 11))


def _move(kind: str, data: dict[str, Any], actor: int | None = None) -> dict[str, Any]:
    return {"type": kind, "data": data, "actor": actor}


def _fits(royals: list[str], ending: str) -> bool:
    """These royals can still be part of a set that wins under `ending`."""
    ranks = [card[:-1] for card in royals]
    suits = [card[-1] for card in royals]
    if len(royals) > 3:
        return False
    if ending in ("monarchy", "diverse_monarchy") and len(set(ranks)) < len(ranks):
        return False
    if ending in ("diverse", "diverse_monarchy") and len(set(suits)) < len(suits):
        return False
    return not (ending == "tribal" and len(set(suits)) > 1)


def _worth(state: Mapping[str, Any], seat: int, suits: list[str], price: int,
           rng: random.Random) -> list[str]:
    """Number cards (an ace now and then) of these suits adding up to `price` or a little more."""
    cards: list[str] = []
    total = 0
    if rng.random() < 0.2:
        cards.append("A" + rng.choice(suits))
        total = rules.seat_selection_total(state, seat, cards, price)["total"]
    while total < price:
        left = [f"{n}{suit}" for n in NUMBERS for suit in suits if f"{n}{suit}" not in cards]
        fitting = [card for card in left if int(card[:-1]) >= price - total]
        card = rng.choice(fitting or left)
        cards.append(card)
        total += int(card[:-1])
    return cards


def _roll(seat: int, rng: random.Random) -> dict[str, Any]:
    data: dict[str, Any] = {"seat": seat}
    if rng.random() < 0.5:
        data["dice"] = [rng.randint(1, 6), rng.randint(1, 6)]
    return _move("roll", data, rng.choice((None, seat)))


def _audiences(state: Mapping[str, Any], seat: int, rng: random.Random) -> list[dict[str, Any]]:
    held = state["seats"][seat]["royals"]
    ending = state["options"]["ending"]
    useful = [royal for royal in state["line"] if _fits([*held, royal], ending)]
    picks = [rng.choice(useful)] if useful else []
    if state["line"] and rng.random() < 0.3:
        picks.append(rng.choice(state["line"]))
    moves = []
    for royal in picks:
        suit = royal[-1]
        cards = _worth(state, seat, [suit], 10, rng)
        spare = [card for card in held if card[-1] == suit]
        if spare and rng.random() < 0.2:
            cards = [rng.choice(spare)]  # a royal of the suit spent, back to the line
        elif rng.random() < 0.1:
            cards = cards[:-1] or [f"3{suit}"]  # short of 10: refused
        moves.append(_move("audience", {"seat": seat, "royal": royal, "cards": cards}))
    return moves


def _pay(state: Mapping[str, Any], seat: int, rng: random.Random,
         spend: bool = False) -> dict[str, Any]:
    """A tile paid in one or two suits; with `spend` (royals that cannot win) or now and then,
    a held royal goes into the payment and back to the line."""
    royals = state["seats"][seat]["royals"]
    if royals and (spend or rng.random() < 0.2):
        royal = rng.choice(royals)
        suits = sorted({royal[-1], rng.choice(rules.SUITS)}, key=rules.SUITS.index)
        cards = [royal, *_worth(state, seat, suits, state["turn"]["price"] - 10, rng)]
    else:
        suits = rng.sample(rules.SUITS, rng.randint(1, 2))
        cards = _worth(state, seat, suits, state["turn"]["price"], rng)
    return _move("pay", {"seat": seat, "suits": suits, "cards": cards}, rng.choice((None, seat)))


def _lottery(state: Mapping[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    die = rng.choice(state["turn"]["dice"])
    rank = "A" if die == 1 else str(die)
    return _move("lottery", {"seat": seat, "card": rank + rng.choice(rules.SUITS)})


def _steal(state: Mapping[str, Any], seat: int, rng: random.Random) -> list[dict[str, Any]]:
    victims = [other for other, row in enumerate(state["seats"])
               if other != seat and row["royals"]]
    if not victims:
        return []
    victim = rng.choice(victims)
    royal = rng.choice(state["seats"][victim]["royals"])
    data: dict[str, Any] = {"thief": seat, "victim": victim, "royal": royal}
    after = [*state["seats"][seat]["royals"], royal]
    if len(after) > 3:
        data["returns"] = rng.choice(after)
    return [_move("steal", data)]


def _arrive(state: Mapping[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    data: dict[str, Any] = {"seat": seat}
    if state["options"]["advanced_citadel"]:
        data["cards"] = _worth(state, seat, ["H"], state["turn"]["price"], rng)
    return _move("arrive", data, rng.choice((None, seat)))


def candidates(state: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """A handful of moves for `state`: {"type", "data", "actor"} (actor None: the host)."""
    turn = state["turn"]
    count = len(state["seats"])
    seat = turn["seat"]
    following = (seat + 1) % count
    moves = []
    for other, row in enumerate(state["seats"]):
        if row["place"] != "board":
            moves.append(_move("where", {"seat": other, "place": "board"}))
    if rng.random() < 0.05:
        moves.append(_move("where", {"seat": rng.randrange(count),
                                     "place": rng.choice(rules.PLACES)}))
    if turn["dice"] is None:
        return [*moves, _roll(seat, rng)]
    if turn["ended"]:
        return [*moves, _roll(following, rng)]
    royals = state["seats"][seat]["royals"]
    if rules.ending_missing(royals, state["options"]["ending"]) is None or rng.random() < 0.05:
        moves.append(_arrive(state, seat, rng))
    moves += _audiences(state, seat, rng)
    hopeless = not _fits(royals, state["options"]["ending"]) or len(royals) == 3
    if rng.random() < 0.4 or hopeless:
        moves.append(_pay(state, seat, rng, spend=hopeless))
    if not turn["lottery"] and rng.random() < 0.3:
        moves.append(_lottery(state, seat, rng))
    if rng.random() < 0.2:
        moves += _steal(state, seat, rng)
    if rng.random() < 0.5 or not moves:
        moves.append(_roll(following, rng))
    return moves
