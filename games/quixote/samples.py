"""Plausible Don Quixote moves for a state, legal or not: the conformance test draws random games
from them (tests/test_conformance.py). Pure: the rules and the standard library only.

The moves follow the table: the castles, the position cards of a round, then every seat scores
the round with numbers a real board gives (a correction of an earlier round now and then).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.quixote import rules

# The option sets the conformance test plays (the defaults first).
OPTIONS: list[dict[str, Any]] = [{}, {"deck": "table"}, {"deck": "none"}]


def _move(kind: str, data: dict[str, Any], actor: int | None = None) -> dict[str, Any]:
    return {"type": kind, "data": data, "actor": actor}


def _castles(state: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    if state["deck"] != "table":
        return [_move("castles", {})]
    six = rng.choice(rules.FIELDS)
    apart = [name for name in rules.FIELDS if name != six and not rules.fields_touch(six, name)]
    near = [name for name in rules.FIELDS if rules.fields_touch(six, name)]
    return [_move("castles", {"castle6": six, "castle4": rng.choice(apart)}),
            _move("castles", {"castle6": six, "castle4": rng.choice(near)})]


def _turns(state: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    if state["deck"] != "table":
        return [_move("turn", {})]
    free = rules.free_fields(state)
    taken = [*state["turned"], *rules.castle_fields(state)]
    moves = [_move("turn", {"field": rng.choice(free)})] if free else []
    if len(free) == 1:
        moves.append(_move("turn", {}))  # the last card may leave the field out
    if taken:
        moves.append(_move("turn", {"field": rng.choice(taken)}))
    return moves


def _groups(rng: random.Random) -> list[int]:
    return [rng.choice((1, 2, 2, 3, 4, 6)) for _ in range(rng.randint(0, 3))]


def score_data(seat: int, round_: int, rng: random.Random) -> dict[str, Any]:
    """One seat's round as a board might score it."""
    data: dict[str, Any] = {
        "seat": seat, "round": round_,
        "castle6_knights": rng.randint(0, 4), "castle4_knights": rng.randint(0, 4),
        "church_groups": _groups(rng), "windmill_groups": _groups(rng),
        "defense_shields": rng.randint(0, 4 * round_ + 3),
    }
    if round_ == 3 and rng.random() < 0.7:
        data["knight_groups"] = [[rng.randint(1, 3) for _ in range(rng.randint(1, 3))]
                                 for _ in range(rng.randint(1, 2))]
    return data


def _scores(state: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """The seats still to score the current round first, then a seat scoring ahead (refused
    while cards are left) or correcting a round it scored already."""
    due, ahead = [], []
    for seat, row in enumerate(state["seats"]):
        scored = rules.scored_rounds(row)
        next_round = next((r for r in rules.ROUNDS if r not in scored), None)
        if next_round is None:
            continue
        move = _move("score", score_data(seat, next_round, rng), rng.choice((None, seat)))
        (due if next_round <= state["round"] else ahead).append(move)
    rng.shuffle(due)
    moves = due[:2] + ahead[:1]
    if rng.random() < 0.1:
        moves.append(_correction(state, rng))
    return moves


def _correction(state: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    seat = rng.randrange(len(state["seats"]))
    return _move("score", score_data(seat, rng.choice(rules.ROUNDS), rng))


def candidates(state: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """A handful of moves for `state`: {"type", "data", "actor"} (actor None: the host)."""
    phase = state["phase"]
    if phase == "castles":
        moves = _castles(state, rng)
    elif phase == "placing":
        moves = _turns(state, rng)
        if rng.random() < 0.05:
            moves.append(_correction(state, rng))
    elif phase == "scoring":
        moves = _scores(state, rng)
    else:
        moves = _scores(state, rng) + [_move("turn", {})]
    if rng.random() < 0.05:
        moves.append(_move(rng.choice(("castles", "turn")), {}))
    return moves
