"""Plausible score pad moves for a state, legal or not: the conformance test draws random games
from them (tests/test_conformance.py). Pure: the rules and the standard library only.

A table scores its rounds seat by seat or all at once, corrects an entry now and then, and ends
by hand, by a target or after its rounds; a game without points names its winners.

A cooperative game here always ends won: the conformance test asks a finished game for a winner
ranked 1, while a lost cooperative game has none (every seat loses together, as the issue asks);
tests/rules/test_pad.py covers the lost game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.pad import rules

# The option sets the conformance test plays (the first also opens a pad in the platform's tests).
OPTIONS: list[dict[str, Any]] = [
    {"game": "Hearts", "win": "low", "target": 100},
    {"game": "Catan", "win": "high", "rounds": 6, "first": 0},
    # Teams of seats there are at any count (1 to 12 seats): seat 0 and everyone else alone.
    {"game": "Bridge", "win": "high", "teams": [[0]], "target": 40},
    {"game": "Hanabi", "win": "coop", "target": 25},
    {"game": "Codenames", "win": "none", "first": "draw"},
]


def _move(kind: str, data: dict[str, Any], actor: int | None = None) -> dict[str, Any]:
    return {"type": kind, "data": data, "actor": actor}


def _points(rng: random.Random) -> int:
    return rng.choice((0, 1, 2, 3, 5, 8, 13, -2, -5, 26))


def candidates(state: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """A handful of moves for `state`: {"type", "data", "actor"} (actor None: the host)."""
    count = len(state["seats"])
    if not rules.scored(state):
        winners = rng.sample(range(count), rng.randint(1, max(1, count - 1)))
        moves = [_move("winners", {"seats": winners})]
        if rng.random() < 0.1:
            moves.append(_move("score", {"seat": 0, "points": 3}))
        return moves
    moves = []
    played = rules.rounds_played(state)
    due = [seat for seat in range(count)
           if len(state["seats"][seat]["scores"]) < played or played == rules.rounds_complete(
               state)]
    if played == rules.rounds_complete(state):
        moves.append(_move("round", {"scores": [_points(rng) for _ in range(count)]}))
    if due:
        seat = rng.choice(due)
        moves.append(_move("score", {"seat": seat, "points": _points(rng)},
                           rng.choice((None, seat))))
    if played and rng.random() < 0.2:
        seat = rng.randrange(count)
        scored = len(state["seats"][seat]["scores"])
        if scored:
            moves.append(_move("correct", {"seat": seat, "round": rng.randint(1, scored),
                                           "points": _points(rng)}))
    if rng.random() < 0.05:
        moves.append(_move("score", {"seat": count, "points": 1}))  # no such seat: refused
    if played and rng.random() < 0.08:
        data = {"outcome": "won"} if state["win"] == "coop" else {}
        moves.append(_move("end", data))
    return moves
