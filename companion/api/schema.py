"""The OpenAPI description of a move's body: one component per game and move, built from the
serializers each game registered (games/<game>/moves.py): the schema shows every move's fields."""

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from companion import plugins


def _move_component(game, move_type, serializer_class):
    name = f"{game.slug.title()}{move_type.title().replace('_', '')}Move"
    # A pattern, not an enum: hundreds of one-value enums would only clutter the schema.
    fields = {"type": serializers.RegexField(rf"^{move_type}$",
                                             help_text=f"{game.name}: {move_type}")}
    if serializer_class is None:
        return type(name, (serializers.Serializer,), fields)
    return type(name, (serializer_class,), {**fields, "__doc__": serializer_class.__doc__})


def move_request():
    components = []
    for plugin in plugins.all_plugins():
        for move_type in sorted(plugin.rules.moves):
            components.append(_move_component(plugin.rules, move_type,
                                              plugin.serializers.get(move_type)))
    if not components:
        return serializers.DictField()
    return PolymorphicProxySerializer(component_name="MoveRequest", serializers=components,
                                      resource_type_field_name=None)


ACCEPT_LANGUAGE = {
    "name": "Accept-Language",
    "in": "header",
    "required": False,
    "description": "The language of the answer's sentences (refusals, log lines): `en` (the "
                   "default) or `es`. The answer says which in `Content-Language`.",
    "schema": {"type": "string", "example": "es"},
}


def accept_language(result, generator, request, public):
    """Every operation takes Accept-Language (drf-spectacular postprocessing hook)."""
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if isinstance(operation, dict) and "responses" in operation:
                parameters = operation.setdefault("parameters", [])
                if not any(p.get("name") == "Accept-Language" for p in parameters):
                    parameters.append(ACCEPT_LANGUAGE)
    return result
