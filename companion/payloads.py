"""A move's payload checked for shape by its game's serializer: the API and the pages share it."""

import json

from django.core.serializers.json import DjangoJSONEncoder
from django.utils.translation import gettext as _

from companion import plugins
from companion.api.errors import field_messages, first_sentence
from companion.engine import RuleViolation
from companion.errors import Invalid
from companion.language import say


def move_payload(*, game, move_type, fields, owner=None):
    """The move's data, checked by `games/<game>/moves.py`, as plain JSON-able values. The
    serializers see the session's host (`owner`, an id) in their context: what a host keeps of
    their own (e.g. cards) is looked up among that host's."""
    rules = plugins.rules_of(game)
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
    serializer = serializer_class(data=fields, context={"owner": owner})
    if not serializer.is_valid():
        errors = serializer.errors
        # A field's label where its serializer declares one (unbound, a field has no other).
        labels = {name: field.label for name, field in serializer.get_fields().items()
                  if field.label}
        raise Invalid(first_sentence(errors, labels), fields=field_messages(errors))
    return json.loads(json.dumps(serializer.validated_data, cls=DjangoJSONEncoder))
