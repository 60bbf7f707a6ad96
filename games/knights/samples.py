"""Plausible Knights & Damosels moves for a state, legal or not: the conformance test draws random
games from them (tests/test_conformance.py). Pure: the rules and the standard library only.

A round as the table plays it: Arthur draws and passes the events and Merlin reveals one (or the
table names it), Merlin grants cards, the knights offer, joust now and then, the faces are placed
(by the host at once, or sealed seat by seat from the phones), and the round ends.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.knights import rules

# The option sets the conformance test plays (the defaults first).
OPTIONS: list[dict[str, Any]] = [{}, {"deck": "table", "merlin": "draw"},
                                 {"joust": False, "merlin": 1}]

JOUSTS = (["different"], ["declined"], ["similar", "different"], ["similar", "declined"],
          ["similar", "similar", "different"])


def _move(kind: str, data: dict[str, Any], actor: int | None = None) -> dict[str, Any]:
    return {"type": kind, "data": data, "actor": actor}


def _held(row: Mapping[str, Any]) -> dict[str, str]:
    """chivalry -> damosel of the cards a seat's knight holds."""
    return {card["chivalry"]: card["damosel"] for card in row["earned"]}


def _event_moves(state: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    if state["options"]["deck"] != "app":
        return [_move("reveal_event", {"event": rng.choice(sorted(rules.EVENTS))})]
    choices = state["event_choices"]
    if not choices:
        return [_move("draw_events", {})]
    if len(choices) == 3:
        return [_move("pass_events", {"discard": rng.choice(choices)}),
                _move("reveal_event", {"event": rng.choice(choices)})]
    return [_move("reveal_event", {"event": rng.choice(choices)}),
            _move("pass_events", {"discard": rng.choice(choices)})]


def _grants(state: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """A card of a damosel still in Merlin's hand for a few seats not granted one yet (each
    damosel gives one card a round, the damosels nobody plays one between them); now and then
    any card still with its damosel, which those limits may refuse."""
    granted = {grant["seat"] for grant in state["granted"]}
    played = {row["damosel"] for row in state["seats"]}
    given = {grant["damosel"] for grant in state["granted"]}
    closed = given | (set(rules.DAMOSELS) - played if given - played else set())
    moves = []
    for seat, row in enumerate(state["seats"]):
        if seat in granted:
            continue
        held = _held(row)
        loose = rng.random() < 0.1
        free = [(damosel, chivalry) for damosel in rules.DAMOSELS
                if damosel != row["damosel"] and (loose or damosel not in closed)
                for chivalry in rules.CHIVALRIES
                if state["cards"][damosel][chivalry] is None and chivalry not in held]
        if free:
            damosel, chivalry = rng.choice(free)
            moves.append(_move("grant", {"seat": seat, "damosel": damosel,
                                         "chivalry": chivalry}))
    rng.shuffle(moves)
    return moves[:3]


def _offers(state: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    listed = rules.event_list(state, state["event"])
    offered = {chivalry for row in state["seats"] for chivalry in row["offered"]}
    moves = [_move("offer", {"seat": seat, "chivalry": chivalry})
             for seat, row in enumerate(state["seats"]) for chivalry in _held(row)
             if chivalry in listed and chivalry not in offered]
    rng.shuffle(moves)
    return moves[:2]


def _joust(state: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    count = len(state["seats"])
    if state["phase"] == "knight":
        if not state["granted"]:
            return []
        grant = rng.choice(state["granted"])
        holder, card = grant["seat"], {"damosel": grant["damosel"],
                                       "chivalry": grant["chivalry"]}
    else:
        offers = [(seat, chivalry) for seat, row in enumerate(state["seats"])
                  for chivalry in row["offered"]]
        if not offers:
            return []
        holder, chivalry = rng.choice(offers)
        card = {"chivalry": chivalry}
    challenger = rng.choice([seat for seat in range(count) if seat != holder])
    return [_move("joust", {"holder": holder, "challenger": challenger, **card,
                            "cards": list(rng.choice(JOUSTS))})]


def _placements(state: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """The host's whole placement, or one seat's seal from its phone (or the host's)."""
    kind = rules.event_kind(state["event"])
    move_type = "disaster" if kind == "disaster" else "worship"
    needed = rules.required_placements(state)
    faces = {seat: {chivalry: rng.choice(rules.FACES) for chivalry in cards}
             for seat, cards in needed.items()}
    moves = []
    if not state["sealed"] or rng.random() < 0.2:
        moves.append(_move(move_type, {"placements": faces}))
    waiting = [seat for seat in needed if seat not in state["sealed"]]
    if kind != "prosperity" and waiting:
        seat = rng.choice(waiting)
        actor = int(seat) if rng.random() < 0.7 else None
        moves.append(_move("seal", {"seat": int(seat), "placements": faces[seat]}, actor))
    return moves


def candidates(state: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """A handful of moves for `state`: {"type", "data", "actor"} (actor None: the host)."""
    phase = state["phase"]
    if phase == "finished":
        return [_move("end_round", {})]
    if phase == "event":
        return _event_moves(state, rng)
    if state["resolution"] is not None:
        return [_move("end_round", {})]
    moves: list[dict[str, Any]] = []
    disaster = rules.event_kind(state["event"]) == "disaster"
    if phase == "knight":
        moves += _grants(state, rng)
    if phase in ("knight", "service") and not disaster and (not moves or rng.random() < 0.3):
        moves += _offers(state, rng)
    if phase in ("knight", "service") and state["options"]["joust"] and rng.random() < 0.25:
        moves += _joust(state, rng)
    if not moves or phase == "worship" or rng.random() < 0.15:
        moves += _placements(state, rng)
    if rng.random() < 0.03:
        moves.append(_move("end_round", {}))  # refused while the round is open
    return moves
