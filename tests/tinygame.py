"""A tiny game for platform tests (a test fixture, not a product game): seats add points; the
first to reach the target wins. `roll` adds a die rolled by the seeded source."""

import copy

from rest_framework import serializers

from companion.engine import Game, RuleViolation, _, rank_by_score


def setup(names, options, rng):
    return {"target": options["target"], "scores": [0] * len(names), "names": names,
            "rolls": []}


def _seat(state, data):
    seat = data.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < len(state["scores"]):
        raise RuleViolation(f"There is no seat {seat}.", field="seat")
    return seat


def add(state, data, actor, rng):
    seat = _seat(state, data)
    points = data.get("points")
    if not isinstance(points, int) or not 1 <= points <= 10:
        raise RuleViolation("Points go from 1 to 10.", field="points")
    if points == 7:
        raise RuleViolation("Seven is unlucky: the rules refuse it.", field="points")
    state = copy.deepcopy(state)
    state["scores"][seat] += points
    return state


def roll(state, data, actor, rng):
    seat = _seat(state, data)
    state = copy.deepcopy(state)
    die = rng.randint(1, 6)
    state["scores"][seat] += die
    state["rolls"].append(die)
    return state


def standings(state):
    rows = [{"seat": i, "name": name, "score": score, "details": {}}
            for i, (name, score) in enumerate(zip(state["names"], state["scores"], strict=True))]
    return rank_by_score(rows)


def finished(state):
    return max(state["scores"]) >= state["target"]


def summary(move, before, after):
    seat = move["data"]["seat"]
    gained = after["scores"][seat] - before["scores"][seat]
    # A Text, as the games' lines are: the platform keeps its message and says it per reader.
    return _("{name} +{gained}", name=after["names"][seat], gained=gained)


def check_options(options, seat_count):
    if not isinstance(options["target"], int) or options["target"] < 1:
        raise RuleViolation("The target is a whole number of at least 1.", field="target")


TINY = Game(slug="tiny", name="Tiny", min_players=1, max_players=4, options={"target": 20},
            check_options=check_options, setup=setup, moves={"add": add, "roll": roll},
            standings=standings, finished=finished, summary=summary)


class AddSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0)
    points = serializers.IntegerField()


class RollSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0)


SERIALIZERS = {"add": AddSerializer, "roll": RollSerializer}
