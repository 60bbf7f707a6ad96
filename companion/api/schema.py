"""The OpenAPI description of a move's body: one component per game and move, built from the
serializers each game registered (games/<game>/moves.py): the schema shows every move's fields.
And what drf-spectacular cannot see: every operation's Accept-Language, the live events
stream (a plain async view, not DRF's), what the server checks in any request before a
serializer reads it (companion.inputs), and the refusals any operation may give."""

import copy

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from companion import inputs, plugins


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


# --- what the server checks in any request (companion.inputs) ----------------------------------

def _escaped(characters):
    """A character class's characters as \\uXXXX escapes, which ECMAScript and Python read alike
    (a schema shows no invisible character)."""
    return "".join(c if c == "-" or 32 < ord(c) < 127 else f"\\u{ord(c):04x}"
                   for c in characters)


# Any text of a request: no control character (the tab and the line breaks aside) and no run of
# more digits than a number here has (inputs.checked_json, inputs.text).
_CONTROL = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f"
_NO_LONG_NUMBER = rf"(?![\s\S]*[0-9]{{{inputs.MAX_DIGITS + 1}}})"
TEXT = rf"^{_NO_LONG_NUMBER}[^{_CONTROL}]*$"
# A text that may not be blank: the server strips the spaces round it and the characters that
# show nothing (inputs.INVISIBLE), then refuses what is left empty. \x85 is a space to Python.
_SHOWN = rf"[^\s\x00-\x1f\x7f\x85{_escaped(inputs.INVISIBLE.pattern[1:-1])}]"
SAID = rf"^{_NO_LONG_NUMBER}[^{_CONTROL}]*{_SHOWN}[^{_CONTROL}]*$"


def _constrain(schema, components, seen):
    """Say in `schema` (a request's, and the components it names) what the server checks of
    every request: its texts (TEXT, or SAID where one may not be blank), its lists' length
    (inputs.MAX_ITEMS), and that an object takes the fields listed: the server reads no others."""
    if not isinstance(schema, dict):
        return
    if ref := schema.get("$ref"):
        name = ref.rsplit("/", 1)[-1]
        if name not in seen:
            seen.add(name)
            _constrain(components.get(name), components, seen)
        return
    kind = schema.get("type")
    if kind == "string" and not {"enum", "format", "pattern"} & set(schema):
        schema["pattern"] = SAID if schema.get("minLength") else TEXT
    elif kind == "array":
        schema.setdefault("maxItems", inputs.MAX_ITEMS)
    elif kind == "object" and "properties" in schema:
        schema.setdefault("additionalProperties", False)
    for key in ("items", "additionalProperties"):
        _constrain(schema.get(key), components, seen)
    for value in (schema.get("properties") or {}).values():
        _constrain(value, components, seen)
    for key in ("oneOf", "anyOf", "allOf"):
        for value in schema.get(key) or ():
            _constrain(value, components, seen)


def request_constraints(result, generator, request, public):
    """What the server checks in any request, said where a client sends it (drf-spectacular
    postprocessing hook): the bodies' and the query's texts, lists and objects (_constrain), and
    that an operation taking a body needs one. A generated client, or schemathesis, then sends
    only what the server accepts but for the rules' own decisions."""
    components = result.get("components", {}).get("schemas", {})
    seen = set()
    for item in result.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", ()):
                if parameter.get("in") in ("query", "path"):
                    _constrain(parameter.get("schema"), components, seen)
            if body := operation.get("requestBody"):
                body["required"] = True
                for media in body.get("content", {}).values():
                    _constrain(media.get("schema"), components, seen)
    return result


RETRY_AFTER = {"Retry-After": {"description": "The seconds to wait before trying again.",
                               "schema": {"type": "integer", "minimum": 1}}}
REFUSALS = """

## Refusals any operation may give

- 405, with `Allow`, to a method the path does not list.
- 406 to an `Accept` that excludes JSON, and 415 to a body that is not JSON (each operation
  lists them).
- 429, with `Retry-After`, past a rate limit: failed joins, failed sign-ins, registrations, the
  phones a session takes (the operations that count them list it).
- 503, with `Retry-After`, when the database cannot be had for a moment: nothing changed."""


def limits_and_outages(result, generator, request, public):
    """The refusals that do not come from a view (drf-spectacular postprocessing hook): a rate
    limit's 429 says when to try again, every operation may answer 503 while the database is
    away (companion.middleware), and a method a path does not list is a 405, which OpenAPI has
    no operation to hang on: the API's description says it, once."""
    for item in result.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            if "429" in responses:
                responses["429"].setdefault("headers", RETRY_AFTER)
            responses.setdefault("503", {**_error("The database cannot be had for a moment: "
                                                  "nothing changed."), "headers": RETRY_AFTER})
    info = result.setdefault("info", {})
    info["description"] = info.get("description", "") + REFUSALS
    return result


# --- a new session's game and options: what the installed games declare -------------------------

class InstalledGames:
    """The slugs of the installed games, read when the schema is made (a game registered after
    the API's views were imported, such as the tests' own, is listed too)."""

    def __iter__(self):
        return iter(sorted(rules.slug for rules in plugins.all_rules()))

    def __len__(self):
        return len(list(iter(self)))


def _option_schema(option, default):
    kind = option.kind
    if kind == "choice":
        schema = {"enum": [value for value, _label in option.choices]}
    elif kind == "switch":
        schema = {"type": "boolean"}
    elif kind == "number":
        schema = {"type": "integer", **({"minimum": option.minimum}
                                        if option.minimum is not None else {}),
                  **({"maximum": option.maximum} if option.maximum is not None else {})}
    elif kind == "seat":
        schema = {"type": "integer", "minimum": 0}
    elif kind == "teams":
        schema = {"type": "array", "items": {"type": "array",
                                             "items": {"type": "integer", "minimum": 0}}}
    elif kind == "names":
        schema = {"type": "array", "items": {"type": "string"}}
    elif kind == "text":
        schema = {"type": "string"}
    else:  # "advanced": the game reads it
        schema = {"type": "object"}
    if option.optional or default is None:
        schema["nullable"] = True
    return schema


def options_schema():
    """Every installed game's options by name (GET /api/games/ gives each game's, with their
    defaults): a name of another game, or a value the game refuses, is the game's refusal."""
    by_name = {}
    for rules in plugins.all_rules():
        fields = {option.name: option for option in rules.option_fields}
        for name, default in rules.options.items():
            schema = _option_schema(fields[name], default) if name in fields else {}
            kept = by_name.setdefault(name, schema)
            if kept != schema:
                if "enum" in kept and "enum" in schema:  # one name, two games' choices
                    kept["enum"] = sorted(set(kept["enum"]) | set(schema["enum"]), key=str)
                else:
                    by_name[name] = {}
    return {"type": "object", "properties": dict(sorted(by_name.items())),
            "additionalProperties": False,
            "description": "The game's set-up options by name, each as GET /api/games/ gives "
                           "its default; those left out keep it."}


class GameFieldSchema(OpenApiSerializerFieldExtension):
    target_class = "companion.api.serializers.GameField"

    def map_serializer_field(self, auto_schema, direction):
        return {"type": "string", "enum": list(InstalledGames())}


class OptionsFieldSchema(OpenApiSerializerFieldExtension):
    target_class = "companion.api.serializers.OptionsField"

    def map_serializer_field(self, auto_schema, direction):
        return options_schema()
