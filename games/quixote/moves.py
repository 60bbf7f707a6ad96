"""Don Quixote's moves, one serializer each: the shape of a move (types, ranges), nothing more.

The rules (rules.py) check what a move means. These serializers are also the OpenAPI schema and the
table page's form validator, so every field accepts both the JSON of the API and the strings of an
HTML form: group sizes as a list or as text such as "2 3"; knight groups as a list of lists, as
JSON, or as text such as "2 3 1 3; 1" (groups split by ";", "/" or a new line).
"""

import json
import re

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

GROUP_SPLIT = re.compile(r"[;/|\n]+")
MEMBER_SPLIT = re.compile(r"[\s,+]+")


def _whole(value, *, low, high=None, what):
    if isinstance(value, bool):
        raise serializers.ValidationError(f"{what} must be a whole number, not {value!r}.")
    if isinstance(value, str):
        value = value.strip()
        if not re.fullmatch(r"-?\d+", value):
            raise serializers.ValidationError(f"{what} must be a whole number, not {value!r}.")
        value = int(value)
    if not isinstance(value, int):
        raise serializers.ValidationError(f"{what} must be a whole number, not {value!r}.")
    if value < low or (high is not None and value > high):
        wanted = f"{low} to {high}" if high is not None else f"at least {low}"
        raise serializers.ValidationError(f"{what} is {wanted}, not {value}.")
    return value


def _text_or_list(data):
    """A list as given, or the JSON list in a string, or None for plain text."""
    if isinstance(data, list):
        return data
    if isinstance(data, str) and data.strip().startswith("["):
        try:
            parsed = json.loads(data)
        except ValueError:
            raise serializers.ValidationError("This is not a readable list.") from None
        if isinstance(parsed, list):
            return parsed
    if isinstance(data, str):
        return None
    raise serializers.ValidationError("Give a list of group sizes, e.g. [2, 5] or \"2 5\".")


@extend_schema_field({"type": "array", "items": {"type": "integer", "minimum": 1},
                      "example": [2, 5]})
class GroupSizesField(serializers.Field):
    """The sizes of connected groups: [2, 5], ["2", "5"] (repeated form fields) or "2 5"."""

    def __init__(self, *, building, **kwargs):
        self.building = building
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        items = _text_or_list(data)
        if items is None:
            items = [item for item in MEMBER_SPLIT.split(data) if item]
        # A repeated form field may also hold "2 5" in one of its values.
        flat = []
        for item in items:
            if isinstance(item, str) and MEMBER_SPLIT.search(item.strip()):
                flat.extend(part for part in MEMBER_SPLIT.split(item) if part)
            elif not (isinstance(item, str) and not item.strip()):
                flat.append(item)
        return [_whole(item, low=1, what=f"The size of a {self.building} group")
                for item in flat]

    def to_representation(self, value):
        return value


@extend_schema_field({"type": "array",
                      "items": {"type": "array",
                                "items": {"type": "integer", "minimum": 1, "maximum": 3}},
                      "example": [[2, 3, 1, 3], [1]]})
class KnightGroupsField(serializers.Field):
    """Groups of connected knights, each the list of its shields: [[2, 3], [1]] or "2 3; 1"."""

    def to_internal_value(self, data):
        groups = _text_or_list(data)
        if groups is None:
            groups = [[item for item in MEMBER_SPLIT.split(group) if item]
                      for group in GROUP_SPLIT.split(data) if group.strip()]
        else:
            groups = [MEMBER_SPLIT.split(group.strip()) if isinstance(group, str) else group
                      for group in groups]
        result = []
        for group in groups:
            if not isinstance(group, list):
                raise serializers.ValidationError(
                    "Each knight group is a list of shields, e.g. [[2, 3], [1]].")
            if not group:
                raise serializers.ValidationError("A knight group has at least 1 knight.")
            result.append([_whole(shield, low=1, high=3, what="A knight's shield")
                           for shield in group])
        return result

    def to_representation(self, value):
        return value


class CastlesSerializer(serializers.Serializer):
    """deck=app: no fields (the app turns the cards). deck=table: the two castles' fields."""

    castle6 = serializers.CharField(required=False, allow_blank=True, allow_null=True,
                                    max_length=8, help_text="deck=table: e.g. F1")
    castle4 = serializers.CharField(required=False, allow_blank=True, allow_null=True,
                                    max_length=8, help_text="deck=table: e.g. C2")


class TurnSerializer(serializers.Serializer):
    """deck=app: no fields. deck=table: the field of the card turned (the last may be left out)."""

    field = serializers.CharField(required=False, allow_blank=True, allow_null=True,
                                  max_length=8, help_text="deck=table: e.g. G3")


class ScoreSerializer(serializers.Serializer):
    """One seat's score for one round (scoring it again replaces the earlier score)."""

    seat = serializers.IntegerField(min_value=0, help_text="the seat scored, 0 first")
    round = serializers.IntegerField(min_value=1, max_value=3)
    castle6_knights = serializers.IntegerField(
        min_value=0, help_text="knights connected by road to the 6-castle")
    castle4_knights = serializers.IntegerField(
        min_value=0, help_text="knights connected by road to the 4-castle")
    church_groups = GroupSizesField(
        building="church", required=False,
        help_text="the size of each group of connected churches ([] or \"\": none); required")
    windmill_groups = GroupSizesField(
        building="windmill", required=False,
        help_text="the size of each group of connected windmills ([] or \"\": none); required")
    defense_shields = serializers.IntegerField(
        min_value=0, help_text="the shields of the knights defending the realm")
    knight_groups = KnightGroupsField(
        required=False, allow_null=True,
        help_text="round 3 only: the shields (1-3) of each group of connected knights")


SERIALIZERS = {"castles": CastlesSerializer, "turn": TurnSerializer, "score": ScoreSerializer}
