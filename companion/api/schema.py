"""The OpenAPI description of a move's body: one component per game and move, built from the
serializers each game registered (games/<game>/moves.py): the schema shows every move's fields.
And what drf-spectacular cannot see: every operation's Accept-Language, and the live events
stream (a plain async view, not DRF's)."""

import copy

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


def negotiation_errors(result, generator, request, public):
    """The refusals DRF gives before a view runs, where they can happen (drf-spectacular
    postprocessing hook): 406 to an Accept that excludes JSON, on every operation DRF serves, and
    415 to a body that is not JSON, on every operation that takes one."""
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict) or "responses" not in operation \
                    or operation.get("operationId") == "sessions_events":  # not DRF's
                continue
            responses = operation["responses"]
            responses.setdefault("406", _error("The Accept header asks for what the API does "
                                               "not give (it answers JSON)."))
            if "requestBody" in operation:
                responses.setdefault("415", _error("The body is not JSON "
                                                   "(Content-Type: application/json)."))
    return result


def _error(description):
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


EVENTS = {
    "get": {
        "operationId": "sessions_events",
        "summary": "The session's live versions, as a server-sent event stream",
        "description": (
            "On connect the current version at once; then, within a second of each committed "
            "move or undo (on any server process), the new one: `id: <version>`, `event: "
            "version`, `data: {\"version\": <version>}`. A comment line (`: keepalive`) at "
            "least every 15 seconds keeps proxies from closing the stream. Read the session "
            "(`GET /api/sessions/{id}/`) when a version comes. Same access as the session."),
        "tags": ["sessions"],
        "parameters": [
            {"in": "path", "name": "id", "schema": {"type": "integer"}, "required": True},
            {"in": "header", "name": "X-Guest-Token", "schema": {"type": "string"},
             "description": "a guest device's token, from /api/join/"},
        ],
        "security": [{"knoxApiToken": []}, {"cookieAuth": []}, {}],
        "responses": {
            "200": {"description": "The stream: it stays open.",
                    "content": {"text/event-stream": {"schema": {
                        "type": "string",
                        "example": 'id: 4\nevent: version\ndata: {"version": 4}\n\n'}}}},
            "403": _error("A guest token of another session."),
            "404": _error("No such session, or not yours."),
        },
    },
}


def live_events(result, generator, request, public):
    """The events stream's operation, after the session's own (drf-spectacular postprocessing
    hook): companion/streams.py serves it, outside DRF."""
    events = copy.deepcopy(EVENTS)  # the hooks after this one add to it
    ordered = {}
    for path, item in result.get("paths", {}).items():
        ordered[path] = item
        if path == "/api/sessions/{id}/":
            ordered["/api/sessions/{id}/events/"] = events
    ordered.setdefault("/api/sessions/{id}/events/", events)
    result["paths"] = ordered
    return result
