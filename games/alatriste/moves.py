"""One serializer per move: the shape of its fields (types, ranges, catalogue look-ups).

What the fields mean is rules.py's business. The same serializers read the API's JSON and the
panel's HTML forms; for the forms, a few flat field names are folded into the spec's nested ones
before validation (see `_fold`):

- `die_<who>_1`, `die_<who>_2`, `die_<who>_x` -> rolls[<who>] = [d1, d2], rolls[<who>_extra] = x;
  `dice=server` drops every given die ("Roll for us");
- `patrol_distance`, `patrol_roll` -> patrol {"distance", "roll"};
- `take_card`, `take_keep` -> take {"card", "keep"};
- `oneoff_name`, `oneoff_kind`, ... -> card {...} (a one-off card);
- `step` ("fame:-1") and `amount` -> stat and delta.

A card given as a catalogue id (or, when added, a catalogue name) is replaced by the catalogue
card's full values here, so the stored move and its replay never depend on the catalogue again.
"""

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from companion import inputs
from companion.errors import Invalid
from companion.language import say
from games.alatriste import rules
from games.alatriste.models import Card

MAX_SEAT = 5
DIE_SUFFIXES = {"1": 0, "2": 1, "x": "extra"}


def _as_int(value):
    # ASCII digits only: str.isdigit() takes "²" and "--5", which int() refuses.
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value.strip()):
        return int(value.strip())
    return value


def _truthy(value):
    return value in (True, 1, "1", "on", "true", "True", "yes")


def _fold_dice(data, errors):
    """The dice typed die by die (die_<who>_a, _b, _x) folded into `rolls`; "server": none."""
    dice_mode = data.pop("dice", None)
    dice = {key: data.pop(key) for key in [k for k in data if k.startswith("die_")]}
    if dice_mode == "server":
        data.pop("rolls", None)
    elif dice:
        rolls = data.get("rolls")
        if isinstance(rolls, str):
            try:
                rolls = inputs.parse_json(rolls)
            except Invalid:
                rolls = None
        rolls = dict(rolls) if isinstance(rolls, dict) else {}
        pairs = {}
        for key, value in dice.items():
            who, _sep, suffix = key[4:].rpartition("_")
            if not who or suffix not in DIE_SUFFIXES:
                continue
            if suffix == "x":
                rolls[f"{who}_extra"] = _as_int(value)
            else:
                pairs.setdefault(who, [None, None])[DIE_SUFFIXES[suffix]] = _as_int(value)
        for who, pair in pairs.items():
            if None in pair:
                # The fold knows a seat's number and the roles' keys, not the names the page
                # shows above each die: the sentence names no one.
                errors["rolls"] = [_("One die of a pair was given alone: give both dice, or "
                                     "none.")]
            rolls[who] = pair
        data["rolls"] = rolls


def _fold_oneoff(data):
    """A one-off card's fields (oneoff_name, oneoff_fame...) folded into `card`."""
    oneoff = {key[7:]: data.pop(key) for key in [k for k in data if k.startswith("oneoff_")]}
    if oneoff:
        enemies = oneoff.get("enemies", [])
        if isinstance(enemies, str):
            enemies = [name.strip() for name in enemies.split(",") if name.strip()]
        data["card"] = {
            "name": oneoff.get("name", ""), "kind": oneoff.get("kind", "character"),
            "fame": _as_int(oneoff.get("fame", 0)), "vigour": _as_int(oneoff.get("vigour", 0)),
            "fencing": _as_int(oneoff.get("fencing", 0)),
            "pistols": _truthy(oneoff.get("pistols")), "vehicle": _truthy(oneoff.get("vehicle")),
            "enemies": enemies,
        }


def _fold(data):
    """The panel's flat form fields folded into the spec's nested fields; blanks dropped."""
    data = {key: value for key, value in data.items()
            if value is not None and value != "" and value != [] and value != [""]}
    errors = {}
    _fold_dice(data, errors)
    if "patrol_distance" in data or "patrol_roll" in data:
        if "patrol_distance" not in data:
            errors["patrol"] = [_("Give the Patrol's distance with its die.")]
        else:
            patrol = {"distance": data.pop("patrol_distance")}
            if "patrol_roll" in data:
                patrol["roll"] = data.pop("patrol_roll")
            data["patrol"] = patrol
        data.pop("patrol_roll", None)
    if "take_card" in data:
        data["take"] = {"card": data.pop("take_card"),
                        "keep": _truthy(data.pop("take_keep", False))}
    data.pop("take_keep", None)
    _fold_oneoff(data)
    if "step" in data:
        stat, _sep, sign = str(data.pop("step")).partition(":")
        amount = _as_int(data.pop("amount", 1))
        if not isinstance(amount, int) or amount < 1:
            errors["amount"] = [_("The amount is a whole number of at least 1.")]
        else:
            data["stat"] = stat
            data["delta"] = -amount if sign.startswith("-") else amount
    data.pop("amount", None)
    if errors:
        raise serializers.ValidationError(errors)
    return data


class MoveSerializer(serializers.Serializer):
    def to_internal_value(self, data):
        if hasattr(data, "items"):
            data = _fold(dict(data.items()))
        return super().to_internal_value(data)


def seat_field(**kwargs):
    return serializers.IntegerField(min_value=0, max_value=MAX_SEAT, **kwargs)


class FlexList(serializers.ListField):
    """A list from JSON, or from a form: a repeated field, one value, a JSON text or "a, b"."""

    def to_internal_value(self, data):
        if isinstance(data, str):
            text = data.strip()
            if text.startswith("["):
                data = inputs.field_json(text, not_json=_("This list is not valid JSON."))
            else:
                data = [part.strip() for part in text.split(",") if part.strip()]
        elif not isinstance(data, list | tuple):
            data = [data]
        return super().to_internal_value(list(data))


def _who(key):
    """A fighter's role in the reader's words ("el retador"), not the field's key; any other key
    (a player's name) as given."""
    role = rules.ROLE_WORDS.get(key.removesuffix("_extra"))
    return say(role) if role is not None else key


def _die(value, who):
    value = _as_int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise serializers.ValidationError(
            _("A die shows 1 to 6 (%(who)s: %(value)s).") % {"who": who, "value": repr(value)})
    return value


# How a refusal names the dice field ("The dice: Give two dice for the challenger.").
DICE_LABEL = gettext_lazy("The dice")


@extend_schema_field({"type": "object", "additionalProperties": {
    "oneOf": [{"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6},
               "minItems": 2, "maxItems": 2},
              {"type": "integer", "minimum": 1, "maximum": 6}]},
    "example": {"challenger": [6, 2], "challenged": [3, 4], "challenger_extra": 2}})
class RollsField(serializers.Field):
    """{"<who>": [d, d], "<who>_extra": d}: who rolled what, each die 1 to 6."""

    def to_internal_value(self, data):
        if isinstance(data, str):
            data = inputs.field_json(data, not_json=_("The dice are not valid JSON."))
        if not isinstance(data, dict):
            raise serializers.ValidationError(_('Give the dice as {"who": [d, d]}.'))
        rolls = {}
        for key, value in data.items():
            key = str(key)
            if key.endswith("_extra"):
                rolls[key] = _die(value, _who(key))
            else:
                if not isinstance(value, list | tuple) or len(value) != 2:
                    raise serializers.ValidationError(
                        _("Give two dice for %(who)s.") % {"who": _who(key)})
                rolls[key] = [_die(die, _who(key)) for die in value]
        return rolls

    def to_representation(self, value):
        return value


class OneOffCardSerializer(serializers.Serializer):
    id = serializers.IntegerField(required=False, allow_null=True)
    number = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    name = serializers.CharField(max_length=80)
    kind = serializers.ChoiceField(choices=rules.CARD_KINDS)
    fame = serializers.IntegerField(default=0, min_value=-99, max_value=99)
    vigour = serializers.IntegerField(default=0, min_value=-99, max_value=99)
    fencing = serializers.IntegerField(default=0, min_value=-99, max_value=99)
    pistols = serializers.BooleanField(default=False)
    vehicle = serializers.BooleanField(default=False)
    enemies = FlexList(child=serializers.CharField(max_length=80), default=list)


@extend_schema_field({"oneOf": [
    {"type": "integer", "description": "a catalogue card's id"},
    {"type": "string", "description": "a card's name"},
    {"type": "object", "description": "a one-off card with the catalogue's fields"}]})
class CardField(serializers.Field):
    """A catalogue id, a card name, or a one-off card object; resolved by `resolve_card`."""

    def to_internal_value(self, data):
        data = _as_int(data)
        if isinstance(data, str) and data.strip().startswith("{"):
            data = inputs.field_json(data, not_json=_("The card is not valid JSON."))
        if isinstance(data, dict) and "name" not in data:
            reference = _as_int(data.get("card", data.get("id")))
            if isinstance(reference, int) and not isinstance(reference, bool):
                return reference
        if isinstance(data, dict):
            card = OneOffCardSerializer(data=data)
            if not card.is_valid():
                field, messages = next(iter(card.errors.items()))
                raise serializers.ValidationError(f"{field}: {messages[0]}")
            values = dict(card.validated_data)
            values["enemies"] = list(values["enemies"])
            return {key: value for key, value in values.items() if value is not None}
        if isinstance(data, bool) or not isinstance(data, int | str) or data == "":
            raise serializers.ValidationError(
                _("Give a catalogue card's id, a card's name or a one-off card."))
        return data.strip() if isinstance(data, str) else data

    def to_representation(self, value):
        return value


def resolve_card(value, *, owner=None, by_name=False):
    """A catalogue id (or, with by_name, a catalogue name) as the full card dict: a printed card
    or one of the session's host's own (`owner`, the host's id)."""
    cards = Card.seen_by(owner)
    if isinstance(value, int):
        card = cards.filter(pk=value).first()
        if card is None:
            raise serializers.ValidationError(
                _("There is no card %(id)s in the catalogue.") % {"id": value})
        return card.as_rules()
    if isinstance(value, str) and by_name:
        card = cards.filter(name__iexact=value.strip()).first()
        if card is None:
            raise serializers.ValidationError(
                _("There is no card called %(name)s in the catalogue: add it there, or as a "
                  "one-off card.") % {"name": value})
        return card.as_rules()
    return value


class PatrolSerializer(serializers.Serializer):
    distance = serializers.IntegerField(min_value=0, max_value=99)
    roll = serializers.IntegerField(min_value=1, max_value=6, required=False)


class TakeSerializer(serializers.Serializer):
    card = CardField()
    keep = serializers.BooleanField(default=False)


class SetupSerializer(MoveSerializer):
    seat = seat_field()
    fencing = serializers.IntegerField()
    ducats = serializers.IntegerField()


class SeatSerializer(MoveSerializer):
    seat = seat_field()


class AdjustSerializer(MoveSerializer):
    seat = seat_field()
    stat = serializers.ChoiceField(choices=rules.STATS)
    delta = serializers.IntegerField(min_value=-999, max_value=999)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200)


class CardMoveSerializer(MoveSerializer):
    seat = seat_field()
    action = serializers.ChoiceField(choices=("add", "remove"))
    card = CardField()

    def validate(self, attrs):
        try:
            attrs["card"] = resolve_card(attrs["card"], owner=self.context.get("owner"),
                                         by_name=attrs["action"] == "add")
        except serializers.ValidationError as error:
            raise serializers.ValidationError({"card": error.detail}) from None
        return attrs


class AttackSerializer(MoveSerializer):
    to = seat_field()
    action = serializers.ChoiceField(choices=("play", "resolve"))

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = seat_field(required=False)
        return fields


class StatusSerializer(MoveSerializer):
    seat = seat_field()
    status = serializers.ChoiceField(choices=rules.STATUSES)
    lost_turns = serializers.IntegerField(min_value=0, max_value=rules.MAX_LOST_TURNS,
                                          required=False)


class DuelSerializer(MoveSerializer):
    challenger = seat_field()
    challenged = seat_field()
    accepted = serializers.BooleanField()
    patrol = PatrolSerializer(required=False)
    rolls = RollsField(required=False, label=DICE_LABEL)
    loser_has_hand_cards = serializers.BooleanField(required=False)
    take = TakeSerializer(required=False)

    def validate(self, attrs):
        if attrs.get("take"):
            take = dict(attrs["take"])
            try:
                take["card"] = resolve_card(take["card"], owner=self.context.get("owner"))
            except serializers.ValidationError as error:
                raise serializers.ValidationError({"take": error.detail}) from None
            attrs["take"] = take
        return attrs


class CombatSerializer(MoveSerializer):
    attacker = seat_field()
    defender = seat_field()
    patrol = PatrolSerializer(required=False)
    rolls = RollsField(required=False, label=DICE_LABEL)
    discard = FlexList(child=serializers.CharField(max_length=80), required=False)


class DiceGameSerializer(MoveSerializer):
    seat = seat_field()
    bet = serializers.IntegerField(min_value=0, max_value=9999)
    joiners = FlexList(child=seat_field(), required=False)
    rolls = RollsField(required=False, label=DICE_LABEL)


class PlazaSerializer(MoveSerializer):
    rolls = RollsField(required=False, label=DICE_LABEL)


class ValidoSerializer(MoveSerializer):
    seat = seat_field()
    won = serializers.BooleanField()


class EndSerializer(MoveSerializer):
    pass


class BullfightSerializer(PlazaSerializer):
    pass


class ActOfFaithSerializer(PlazaSerializer):
    pass


class TurnSerializer(SeatSerializer):
    pass


class DeathSerializer(SeatSerializer):
    pass


SERIALIZERS = {
    "setup": SetupSerializer,
    "turn": TurnSerializer,
    "adjust": AdjustSerializer,
    "card": CardMoveSerializer,
    "attack": AttackSerializer,
    "status": StatusSerializer,
    "duel": DuelSerializer,
    "combat": CombatSerializer,
    "dice_game": DiceGameSerializer,
    "bullfight": BullfightSerializer,
    "act_of_faith": ActOfFaithSerializer,
    "death": DeathSerializer,
    "valido": ValidoSerializer,
    "end": EndSerializer,
}
