"""Don Quixote's moves, one serializer each: the shape of a move (types, ranges), nothing more.

The rules (rules.py) check what a move means. These serializers are also the OpenAPI schema and the
table page's form validator, so every field accepts both the JSON of the API and the strings of an
HTML form: group sizes as a list or as text such as "2 3"; knight groups as a list of lists, as
JSON, or as text such as "2 3 1 3; 1" (groups split by ";", "/" or a new line). How a score is
written is read by rules.py (`written_group_sizes`, `written_knight_groups`), which the panel's
first preview reads with too.
"""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from companion.engine import RuleViolation
from companion.language import say
from games.quixote import rules
from games.quixote.panel import FIELD_LABELS


def _reading(read, *args):
    """A reading of rules.py (how a score is written), its refusal as the field's error."""
    try:
        return read(*args)
    except RuleViolation as refusal:
        raise serializers.ValidationError(say(refusal.message)) from None


@extend_schema_field({"type": "array", "items": {"type": "integer", "minimum": 1},
                      "example": [2, 5]})
class GroupSizesField(serializers.Field):
    """The sizes of connected groups: [2, 5], ["2", "5"] (repeated form fields) or "2 5"."""

    def __init__(self, *, building, **kwargs):
        self.building = building
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        return _reading(rules.written_group_sizes, data, self.building)

    def to_representation(self, value):
        return value


@extend_schema_field({"type": "array",
                      "items": {"type": "array",
                                "items": {"type": "integer", "minimum": rules.KNIGHT_SHIELDS[0],
                                          "maximum": rules.KNIGHT_SHIELDS[-1]}},
                      "example": [[2, 3, 1, 3], [1]]})
class KnightGroupsField(serializers.Field):
    """Groups of connected knights, each the list of its shields: [[2, 3], [1]] or "2 3; 1"."""

    def to_internal_value(self, data):
        return _reading(rules.written_knight_groups, data)

    def to_representation(self, value):
        return value


class FieldNameField(serializers.CharField):
    """A field of the principality, written as the rules write it ("f1" and " F1 " are "F1");
    blank is none (deck=app sends none)."""

    def __init__(self, **kwargs):
        super().__init__(required=False, allow_blank=True, allow_null=True, max_length=8,
                         **kwargs)

    def to_internal_value(self, data):
        text = super().to_internal_value(data)
        return _reading(rules.parse_field, text, self.field_name) if text.strip() else None


class _Fields(serializers.Serializer):
    def to_internal_value(self, data):
        # A blank field is the same as a field left out.
        return {key: value for key, value in super().to_internal_value(data).items()
                if value is not None}


class CastlesSerializer(_Fields):
    """deck=app: no fields (the app turns the cards). deck=table: the two castles' fields."""

    castle6 = FieldNameField(help_text="deck=table: e.g. F1")
    castle4 = FieldNameField(help_text="deck=table: e.g. C2")


class TurnSerializer(_Fields):
    """deck=app: no fields. deck=table: the field of the card turned (the last may be left out)."""

    field = FieldNameField(help_text="deck=table: e.g. G3")


class ScoreSerializer(serializers.Serializer):
    """One seat's score for one round (scoring it again replaces the earlier score)."""

    seat = serializers.IntegerField(min_value=0, help_text="the seat scored, 0 first")
    round = serializers.IntegerField(label=FIELD_LABELS["round"], min_value=rules.ROUNDS[0],
                                     max_value=rules.ROUNDS[-1])
    castle6_knights = serializers.IntegerField(label=FIELD_LABELS["castle6_knights"],
        min_value=0, help_text="knights connected by road to the 6-castle")
    castle4_knights = serializers.IntegerField(label=FIELD_LABELS["castle4_knights"],
        min_value=0, help_text="knights connected by road to the 4-castle")
    church_groups = GroupSizesField(label=FIELD_LABELS["church_groups"],
        building="church", required=False,
        help_text="the size of each group of connected churches ([] or \"\": none); required")
    windmill_groups = GroupSizesField(label=FIELD_LABELS["windmill_groups"],
        building="windmill", required=False,
        help_text="the size of each group of connected windmills ([] or \"\": none); required")
    defense_shields = serializers.IntegerField(label=FIELD_LABELS["defense_shields"],
        min_value=0, help_text="the shields of the knights defending the realm")
    knight_groups = KnightGroupsField(label=FIELD_LABELS["knight_groups"],
        required=False, allow_null=True,
        help_text="round 3 only: the shields (1-3) of each group of connected knights")


SERIALIZERS = {"castles": CastlesSerializer, "turn": TurnSerializer, "score": ScoreSerializer}
