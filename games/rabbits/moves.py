"""One serializer per move: the shape of its fields, for the API, the OpenAPI schema and the
panel's forms alike. What the fields mean (whose turn, which suits, the price) is for rules.py.

A list of cards comes as a JSON list (["QH", "10D"]) or, from a form without JavaScript, as one
text ("QH 10D 5H", commas or plus signs allowed); suits likewise (["S", "C"], "S C" or "SC").
"""


from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from companion.engine import RuleViolation
from companion.language import say
from games.rabbits import rules

_SUIT_WORDS = {str(name): letter for letter, name in rules.SUIT_NAMES.items()}
_SUIT_WORDS.update({name: letter for letter, name in rules.SUIT_SINGULAR.items()})


def _blank(data):
    return data is None or data == "" or (
        isinstance(data, list) and all(item in ("", None) for item in data))


class CardField(serializers.CharField):
    """One card written rank + suit, normalised ("qh" -> "QH")."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 8)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        text = super().to_internal_value(data)
        if not text:
            return text
        try:
            return rules.normal_card(text)
        except RuleViolation as error:
            raise serializers.ValidationError(say(error.message)) from None


@extend_schema_field({"oneOf": [
    {"type": "array", "items": {"type": "string", "pattern": "^(A|[2-9]|10|J|Q|K)[SHDC]$"}},
    {"type": "string", "description": "the cards as one text, \"QH 10D 5H\""}],
    "example": ["QH", "10D", "5H"]})
class CardListField(serializers.ListField):
    """Cards as a list, or as one text "QH 10D 5H" (a form's fallback); blank is no card."""

    child = CardField()

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 52)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        words = rules.card_words(data)
        if isinstance(words, list):
            # One flat sentence per refusal ("'ZZ' is not a card..."), not DRF's per-index map.
            for word in words:
                if not isinstance(word, str):
                    raise serializers.ValidationError(
                        _("%(word)s is not a card such as QH.") % {"word": repr(word)})
                try:
                    rules.parse_card(word)
                except RuleViolation as error:
                    raise serializers.ValidationError(say(error.message)) from None
        return super().to_internal_value(words)


@extend_schema_field({"oneOf": [
    {"type": "array", "items": {"type": "string", "enum": list(rules.SUITS)}},
    {"type": "string", "description": "the suits as one text, \"S C\" or \"SC\""}],
    "example": ["S", "C"]})
class SuitListField(serializers.ListField):
    """Suits as a list or a text: ["S", "C"], "S C", "SC", "spades clubs"."""

    child = serializers.ChoiceField(choices=[(s, rules.SUIT_NAMES[s]) for s in rules.SUITS])

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 4)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        words = rules.card_words(data)
        if isinstance(words, list):
            suits = []
            for word in words:
                if isinstance(word, str):
                    word = word.strip()
                    lower = word.lower()
                    if lower in _SUIT_WORDS:
                        word = _SUIT_WORDS[lower]
                    elif len(word) > 1 and set(word.upper()) <= set(rules.SUITS):
                        suits += list(word.upper())
                        continue
                    word = word.upper()
                if word not in rules.SUITS:
                    raise serializers.ValidationError(
                        _("%(word)s is not a suit: the suits are S, H, D and C.")
                        % {"word": repr(word)})
                suits.append(word)
            words = suits
        return super().to_internal_value(words)


@extend_schema_field({"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6},
                      "minItems": 2, "maxItems": 2, "nullable": True, "example": [3, 4]})
class DiceField(serializers.ListField):
    """The two dice as [3, 4] or "3 4"; left out or blank, the server rolls."""

    child = serializers.IntegerField(min_value=1, max_value=6)

    def __init__(self, **kwargs):
        kwargs.update(required=False, allow_null=True, min_length=2, max_length=2)
        super().__init__(**kwargs)

    def validate_empty_values(self, data):
        if _blank(data):
            return True, None
        return super().validate_empty_values(data)

    def to_internal_value(self, data):
        return super().to_internal_value(rules.card_words(data))


class SeatField(serializers.IntegerField):
    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", 3)
        super().__init__(**kwargs)


class OptionalCardField(CardField):
    """A card that may be left out or blank (a steal's `returns`)."""

    def __init__(self, **kwargs):
        kwargs.update(required=False, allow_null=True, allow_blank=True)
        super().__init__(**kwargs)

    def run_validation(self, data=serializers.empty):
        if data == "":
            return None
        return super().run_validation(data)


class _Move(serializers.Serializer):
    def to_internal_value(self, data):
        values = super().to_internal_value(data)
        # A blank optional field is the same as a field left out.
        return {key: value for key, value in values.items() if value is not None}


class RollSerializer(_Move):
    seat = SeatField(help_text="The seat starting its turn.")
    dice = DiceField(help_text="The two dice rolled at the table, as [3, 4]; left out, the "
                               "server rolls them.")


class LotterySerializer(_Move):
    seat = SeatField()
    card = CardField(help_text="The card shown, matching one of the turn's dice, as 5H.")


class PaySerializer(_Move):
    seat = SeatField()
    cards = CardListField(required=True, help_text='The cards paid, as ["7H", "AS"] (or the '
                                                   'text "7H AS").')
    suits = SuitListField(help_text='The suits the tile accepts, as ["S", "C"].')


class AudienceSerializer(_Move):
    seat = SeatField()
    royal = CardField(help_text="The royal of the line, as QH.")
    cards = CardListField(required=True, help_text="At least 10 points of the royal's suit.")


class StealSerializer(_Move):
    thief = SeatField()
    victim = SeatField()
    royal = CardField(help_text="The royal the victim held.")
    returns = OptionalCardField(help_text="With 4 royals, the one the thief returns to the line.")


class WhereSerializer(_Move):
    seat = SeatField()
    place = serializers.ChoiceField(choices=[(p, rules.PLACE_NAMES[p]) for p in rules.PLACES])


class ArriveSerializer(_Move):
    seat = SeatField()
    cards = CardListField(help_text="With advanced_citadel: hearts worth at least the price.")


SERIALIZERS = {
    "roll": RollSerializer,
    "lottery": LotterySerializer,
    "pay": PaySerializer,
    "audience": AudienceSerializer,
    "steal": StealSerializer,
    "where": WhereSerializer,
    "arrive": ArriveSerializer,
}
