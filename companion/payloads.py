"""A move's payload checked for shape by its game's serializer: the API and the pages share it."""

import json
import threading

from django.core.serializers.json import DjangoJSONEncoder
from django.utils.translation import gettext as _

from companion import engine, plugins
from companion.api.errors import field_messages, first_sentence
from companion.engine import RuleViolation
from companion.errors import Invalid
from companion.language import say


def move_payload(*, game, move_type, fields, owner=None):
    """The move's data, checked by `games/<game>/moves.py`, as plain JSON-able values. The
    serializers see the session's host (`owner`, an id) in their context: what a host keeps of
    their own (e.g. cards) is looked up among that host's."""
    rules = engine.get(game)
    if move_type is not None and not isinstance(move_type, str):
        raise Invalid(_("The field `type` names a move: it is text."),
                      fields={"type": [_("Not a valid string.")]})
    if not move_type:
        raise Invalid(_("Say which move: the field `type` is missing."),
                      fields={"type": [_("This field is required.")]})
    if move_type not in rules.moves:
        known = ", ".join(sorted(rules.moves))
        raise RuleViolation(_("%(game)s has no move called '%(move)s' (its moves: %(known)s).")
                            % {"game": say(rules.name), "move": move_type, "known": known},
                            field="type")
    serializer_class = plugins.get(game).serializers.get(move_type)
    if serializer_class is None:
        return dict(fields)
    serializer = _checker(serializer_class, fields, {"owner": owner})
    if not serializer.is_valid():
        errors = serializer.errors
        # A field's label, where its serializer gives one (DRF keeps what it was made with).
        labels = {name: field._kwargs["label"] for name, field in serializer.fields.items()
                  if field._kwargs.get("label")}
        raise Invalid(first_sentence(errors, labels), fields=field_messages(errors))
    return json.loads(json.dumps(serializer.validated_data, cls=DjangoJSONEncoder))


# One serializer of each move's class per thread, kept: DRF builds a serializer's fields anew for
# every instance (a deep copy of the declared fields, each made again with its validators), which
# was most of the cost of checking a move (Don Quixote's score: 0.4 ms of 0.45). The fields hold
# nothing of one check; what a check leaves (its data, context, result and errors) is on the
# serializer, and is set anew for each (tests/api/test_move_checker.py holds a kept one to a new
# one over every game's moves).
_kept = threading.local()
_CHECK_LEFT = ("_validated_data", "_errors", "_data")


def _checker(serializer_class, data, context):
    kept = _kept.__dict__
    serializer = kept.get(serializer_class)
    if serializer is None:
        serializer = kept[serializer_class] = serializer_class(data=data, context=context)
        return serializer
    for name in _CHECK_LEFT:
        serializer.__dict__.pop(name, None)
    serializer.initial_data, serializer._context = data, context
    return serializer
