"""The score pad's moves, one serializer each: the shape of a move (whole numbers, lists), for the
API, the OpenAPI schema and the panel's forms alike. What the numbers mean (which seat, which
round, whether the game is scored) is for rules.py.

Points are whole numbers, negative allowed; no halves (a game that scores halves doubles them on
the pad). A form sends them as text: " -3 ", "+4" and the typographic minus "−3" read as numbers,
a blank as no score (a seat left out of a round).
"""

import re

from django.utils import formats
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from companion import inputs
from games.pad import rules

_WHOLE = re.compile(r"[+-]?[0-9]{1,7}")


@extend_schema_field({"type": "integer", "minimum": -rules.MAX_POINTS,
                      "maximum": rules.MAX_POINTS, "example": -3})
class PointsField(serializers.Field):
    """A whole number of points, either sign: 12, -3, "−3" from a phone's keyboard, or a sum of
    them as a paper pad is kept ("12+7": 19)."""

    default_error_messages = {
        # Said in the request's language when refused (DRF fills the {fields}).
        "invalid": _("Points are a whole number such as 12 or -3, or a sum such as 12+7 (no "
                     "halves), not {value}."),
        "range": _("Points are at most {max} either way."),
    }

    def __init__(self, **kwargs):
        self.blank_is_none = kwargs.pop("blank_is_none", False)
        super().__init__(**kwargs)

    def validate_empty_values(self, data):
        if self.blank_is_none and (data is None or (isinstance(data, str) and not data.strip())):
            return True, None
        return super().validate_empty_values(data)

    def to_internal_value(self, data):
        if isinstance(data, bool):
            self.fail("invalid", value=repr(data))
        if isinstance(data, float) and data.is_integer():
            data = int(data)
        if isinstance(data, str):
            text = data.strip().replace("\u2212", "-")
            if _WHOLE.fullmatch(text):
                data = int(text)
            else:  # a sum as a paper pad is kept: "12+7" is 19
                try:
                    data = inputs.score_sum(text)
                except ValueError:
                    self.fail("invalid", value=repr(data[:20]))
        if not isinstance(data, int):
            self.fail("invalid", value=repr(str(data)[:20]))
        if abs(data) > rules.MAX_POINTS:
            self.fail("range", max=formats.number_format(rules.MAX_POINTS, force_grouping=True))
        return data

    def to_representation(self, value):
        return value


class SeatField(serializers.IntegerField):
    """A seat, 0 first (the rules name the seats there are)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", 1000)
        kwargs.setdefault("help_text", "the seat, 0 first")
        super().__init__(**kwargs)


class RoundField(serializers.IntegerField):
    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", rules.MAX_ROUNDS)
        super().__init__(**kwargs)


class _Move(serializers.Serializer):
    def to_internal_value(self, data):
        values = super().to_internal_value(data)
        # A blank optional field is the same as a field left out.
        return {key: value for key, value in values.items() if value is not None}


class ScoreSerializer(_Move):
    """One seat's points for its next round."""

    seat = SeatField()
    points = PointsField(help_text="the round's points, negative allowed")
    round = RoundField(required=False, allow_null=True,
                       help_text="the seat's next round (checked when given)")


class RoundSerializer(serializers.Serializer):
    """A round for every seat at once: one entry per seat, in seat order; null (or a blank
    form field) leaves that seat out, to be scored later."""

    scores = serializers.ListField(
        child=PointsField(allow_null=True, blank_is_none=True), min_length=1, max_length=1000,
        help_text="one number per seat, in seat order (null: not this seat)")


class CorrectSerializer(_Move):
    """An earlier entry replaced."""

    seat = SeatField()
    round = RoundField(help_text="the round corrected, 1 first")
    points = PointsField(help_text="the round's right points")


class WinnersSerializer(serializers.Serializer):
    """A game without points: the seats that won (it ends)."""

    seats = serializers.ListField(child=SeatField(), min_length=1, max_length=1000,
                                  label=_("The winners"), help_text="the winners' seats, 0 first")


class EndSerializer(_Move):
    """The end now; a cooperative game says whether the table won."""

    outcome = serializers.ChoiceField(
        choices=[("won", "The table won"), ("lost", "The table lost")], required=False,
        allow_null=True, allow_blank=True, help_text="cooperative games only: won or lost")

    def to_internal_value(self, data):
        values = super().to_internal_value(data)
        if values.get("outcome") == "":
            values.pop("outcome")
        return values


SERIALIZERS = {
    "score": ScoreSerializer,
    "round": RoundSerializer,
    "correct": CorrectSerializer,
    "winners": WinnersSerializer,
    "end": EndSerializer,
}
