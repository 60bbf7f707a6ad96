"""A move's fields are checked by a serializer kept per thread (payloads._checker): it says
exactly what a new serializer of its class says, whatever it checked before.

Every game's moves of a random game (tests/test_conformance.py's `play`), each sent as it was
and spoilt (a field given text, a field left out, a field of nothing), are checked in turn by the
kept serializer and by a new one: the same validity, the same data, the same errors.
"""

from __future__ import annotations

import random

import pytest

from companion import plugins
from companion.payloads import _checker
from tests.test_conformance import SLUGS, play

pytestmark = pytest.mark.django_db


def _bodies(slug):
    """The moves of two random games of `slug` as the API receives them, and spoilt copies."""
    rng = random.Random(f"checker:{slug}")
    bodies = []
    for seed, seats in ((1, 3), (2, 4)):
        for entry, _before, _after in play(slug, seed, seats).moves[:40]:
            data = dict(entry["data"])
            bodies.append((entry["type"], data))
            for name in list(data)[:2]:
                bodies.append((entry["type"], {**data, name: "not this"}))
                bodies.append((entry["type"], {key: value for key, value in data.items()
                                               if key != name}))
            bodies.append((entry["type"], dict.fromkeys(data)))
    rng.shuffle(bodies)
    return bodies


def _said(serializer):
    if serializer.is_valid():
        return True, dict(serializer.validated_data)
    return False, serializer.errors


@pytest.mark.parametrize("slug", SLUGS)
def test_a_kept_checker_says_what_a_new_one_says(slug):
    serializers = plugins.get(slug).serializers
    checked = 0
    for move_type, fields in _bodies(slug):
        serializer_class = serializers.get(move_type)
        if serializer_class is None:
            continue
        context = {"owner": None}
        new = _said(serializer_class(data=fields, context=context))
        assert _said(_checker(serializer_class, fields, context)) == new, (
            f"{slug} {move_type} {fields!r}")
        checked += 1
    assert checked >= 50


def test_a_kept_checker_takes_the_context_of_its_check():
    seen = []

    class Remembers(plugins.get("pad").serializers["round"]):
        def validate(self, attrs):
            seen.append(self.context["owner"])
            return attrs

    for owner in (1, 2, None):
        _checker(Remembers, {"scores": [1, 2]}, {"owner": owner}).is_valid()
    assert seen == [1, 2, None]
