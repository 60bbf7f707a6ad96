"""One serializer per move: the shape of its fields, for the API, the OpenAPI schema and the
panel's forms alike. What the fields mean (whose phase, which card is free) is for rules.py.

The API sends the spec's fields as JSON. The panel's forms, which must work without JavaScript,
may send simpler spellings that these serializers fold into the same data:
- placements as radio fields `p.<seat>.<chivalry>` (worship, disaster) or `p.<chivalry>` (seal),
  or as a JSON text;
- a grant's card as `card` = "Elaine:honor";
- a joust's card as `target` = "<holder>:<damosel>:<chivalry>" (damosel empty in the service
  phase), its pairs as `similar` (how many similar pairs) and `end` ("different" or "declined"),
  or `cards` as a list or a text "similar similar different".
"""

import re

from django.utils.translation import gettext as _
from rest_framework import serializers

from companion import inputs
from games.knights import rules

MAX_SEAT = rules.GAME.max_players - 1
_WORDS = re.compile(r"[\s,;]+")


def _blank(value):
    return value is None or value == "" or value == []


def _plain(data):
    """A mutable dict of the posted fields, whatever mapping they came in."""
    if hasattr(data, "dict") and hasattr(data, "getlist"):  # a QueryDict
        return {key: (data.getlist(key) if len(data.getlist(key)) > 1 else data.get(key))
                for key in data}
    return dict(data) if isinstance(data, dict) else data


def dotted(data, prefix="p."):
    """{"p.0.honor": "up"} -> {"0": {"honor": "up"}}; {"p.honor": "up"} -> {"honor": "up"}."""
    nested = {}
    for key, value in data.items():
        if not isinstance(key, str) or not key.startswith(prefix) or _blank(value):
            continue
        parts = key[len(prefix):].split(".")
        if isinstance(value, list):
            value = value[-1]
        if len(parts) == 1:
            nested[parts[0]] = value
        elif len(parts) == 2:
            nested.setdefault(parts[0], {})[parts[1]] = value
    return nested


class KnightsEmptySerializer(serializers.Serializer):
    """A move with no fields of its own."""


class SeatField(serializers.IntegerField):
    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", MAX_SEAT)
        super().__init__(**kwargs)


def _choice(names, **kwargs):
    return serializers.ChoiceField(choices=[(name, name) for name in names], **kwargs)


class KnightsPassEventsSerializer(serializers.Serializer):
    discard = _choice(sorted(rules.EVENTS), help_text="one of Arthur's 3 drawn events")


class KnightsRevealEventSerializer(serializers.Serializer):
    event = _choice(sorted(rules.EVENTS),
                    help_text="one of the 2 Arthur passed, or (deck=table) any event")


class KnightsGrantSerializer(serializers.Serializer):
    seat = SeatField(help_text="the seat whose knight is granted the card")
    damosel = _choice(rules.DAMOSELS)
    chivalry = _choice(rules.CHIVALRIES)

    def to_internal_value(self, data):
        data = _plain(data)
        if isinstance(data, dict) and isinstance(data.get("card"), str) and ":" in data["card"]:
            damosel, _colon, chivalry = data.pop("card").partition(":")
            data.setdefault("damosel", damosel)
            data.setdefault("chivalry", chivalry)
        return super().to_internal_value(data)


class KnightsOfferSerializer(serializers.Serializer):
    seat = SeatField()
    chivalry = _choice(rules.CHIVALRIES)


class FacesField(serializers.DictField):
    """{chivalry: "up" | "down"}."""

    child = _choice(rules.FACES)

    def to_internal_value(self, data):
        value = super().to_internal_value(_json_text(data))
        wrong = [key for key in value if key not in rules.CHIVALRIES]
        if wrong:
            raise serializers.ValidationError(
                _("%(given)s is not a chivalry (%(names)s).")
                % {"given": repr(wrong[0]), "names": ", ".join(rules.CHIVALRIES)})
        return value


def _json_text(data):
    if isinstance(data, str):
        if not data.strip():
            return {}
        return inputs.field_json(data, not_json=_("The placements are not valid JSON."))
    return data


class PlacementsField(serializers.DictField):
    """{"<seat>": {chivalry: "up" | "down"}}, as an object or a JSON text."""

    child = FacesField()

    def to_internal_value(self, data):
        value = super().to_internal_value(_json_text(data))
        wrong = [key for key in value if not (str(key).isascii() and str(key).isdigit())]
        if wrong:
            raise serializers.ValidationError(
                _("%(given)s is not a seat number.") % {"given": repr(wrong[0])})
        return {str(int(key)): faces for key, faces in value.items()}


def _with_form_placements(data):
    """The placements of an HTML form (radios named p.<seat>.<chivalry> or p.<chivalry>) folded
    into the `placements` field the API sends, unless that field was given."""
    data = _plain(data)
    if isinstance(data, dict):
        folded = dotted(data)
        if folded and _blank(data.get("placements")):
            data["placements"] = folded
    return data


class KnightsPlacementsSerializer(serializers.Serializer):
    placements = PlacementsField(
        required=False, default=dict,
        help_text='{"<seat>": {"<chivalry>": "up" | "down"}}: every card the round needs placed')

    def to_internal_value(self, data):
        return super().to_internal_value(_with_form_placements(data))


class KnightsWorshipSerializer(KnightsPlacementsSerializer):
    pass


class KnightsDisasterSerializer(KnightsPlacementsSerializer):
    pass


class KnightsSealSerializer(serializers.Serializer):
    seat = SeatField(help_text="the sealing seat: a phone seals only its own")
    placements = FacesField(help_text='{"<chivalry>": "up" | "down"} for that seat\'s cards')

    def to_internal_value(self, data):
        # A JSON text is read by the field (FacesField), whose refusal is then the field's.
        return super().to_internal_value(_with_form_placements(data))


class KnightsJoustSerializer(serializers.Serializer):
    holder = SeatField(help_text="the seat granted or offering the card")
    challenger = SeatField()
    chivalry = _choice(rules.CHIVALRIES)
    damosel = _choice(rules.DAMOSELS, required=False, allow_null=True, allow_blank=True,
                      help_text="the card's damosel, in the knight phase")
    cards = serializers.ListField(
        child=_choice(rules.JOUST_CARDS), min_length=1, max_length=rules.MAX_JOUST_PAIRS,
        help_text='the pairs in order: "similar"..., then "different" or "declined"')

    def to_internal_value(self, data):
        data = _plain(data)
        if isinstance(data, dict):
            target = data.pop("target", None)
            if isinstance(target, str) and target.count(":") == 2:
                holder, damosel, chivalry = target.split(":")
                data.setdefault("holder", holder)
                data.setdefault("chivalry", chivalry)
                if damosel:
                    data.setdefault("damosel", damosel)
            similar, end = data.pop("similar", None), data.pop("end", None)
            if _blank(data.get("cards")) and not _blank(end):
                try:
                    count = int(similar or 0)
                except (TypeError, ValueError):
                    raise serializers.ValidationError(
                        {"similar": [_("How many similar pairs: a whole number.")]}) from None
                count = max(0, min(count, rules.MAX_SIMILAR_PAIRS))
                data["cards"] = ["similar"] * count + [end]
            elif isinstance(data.get("cards"), str):
                data["cards"] = [word for word in _WORDS.split(data["cards"]) if word]
        value = super().to_internal_value(data)
        if not value.get("damosel"):
            value.pop("damosel", None)
        return value


SERIALIZERS = {
    "draw_events": KnightsEmptySerializer,
    "pass_events": KnightsPassEventsSerializer,
    "reveal_event": KnightsRevealEventSerializer,
    "grant": KnightsGrantSerializer,
    "offer": KnightsOfferSerializer,
    "seal": KnightsSealSerializer,
    "worship": KnightsWorshipSerializer,
    "disaster": KnightsDisasterSerializer,
    "joust": KnightsJoustSerializer,
    "end_round": KnightsEmptySerializer,
}
