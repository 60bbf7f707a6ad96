"""The OpenAPI schema documents every path of api.md, and the docs load their assets locally."""

import pytest
import yaml

from companion import plugins

PATHS = [
    "/api/auth/register/", "/api/auth/token/", "/api/games/", "/api/sessions/",
    "/api/sessions/{id}/", "/api/sessions/{id}/moves/", "/api/sessions/{id}/undo/",
    "/api/join/", "/api/players/", "/api/players/{id}/stats/", "/api/games/{slug}/stats/",
    "/api/sessions/{id}/export/", "/api/sessions/import/", "/api/sessions/{id}/events/",
    "/api/sessions/{id}/claim/", "/api/players/{id}/link/", "/api/players/{id}/merge/",
    "/api/me/plays/", "/api/me/stats/",
]


@pytest.fixture
def schema(anonymous):
    response = anonymous.get("/api/schema/")
    assert response.status_code == 200
    # libyaml's reader: the pure-Python one takes half a second over the 100 kB document.
    return yaml.load(response.content, Loader=yaml.CSafeLoader)


@pytest.mark.parametrize("path", PATHS)
def test_schema_has_the_path(schema, path):
    assert path in schema["paths"]


def test_move_post_documents_its_status_codes(schema):
    responses = schema["paths"]["/api/sessions/{id}/moves/"]["post"]["responses"]
    assert {"201", "400", "403", "404", "409", "412", "422"} <= set(responses)


def test_a_412_is_documented_as_the_current_session(schema):
    for path in ("/api/sessions/{id}/moves/", "/api/sessions/{id}/undo/"):
        stale = schema["paths"][path]["post"]["responses"]["412"]
        ref = stale["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
        assert {"code", "version", "state", "detail"} <= set(schema["components"]["schemas"][ref]
                                                            ["properties"]), path
    parameters = schema["paths"]["/api/sessions/{id}/"]["get"]["parameters"]
    assert "If-None-Match" in {parameter["name"] for parameter in parameters}


def test_the_events_stream_is_documented_as_served(schema, alice):
    """A plain async view, outside DRF, added by a hook: its path is the one served, and what
    it says of its answers is what the stream does (tests/live/test_events.py reads it)."""
    from django.urls import reverse

    from tests.factories import session_for

    operation = schema["paths"]["/api/sessions/{id}/events/"]["get"]
    assert "text/event-stream" in operation["responses"]["200"]["content"]
    assert {"403", "404"} <= set(operation["responses"])
    assert {p["name"] for p in operation["parameters"]} >= {"id", "X-Guest-Token",
                                                              "Accept-Language"}
    game = session_for(alice)
    assert reverse("api-events", args=[game.pk]) == f"/api/sessions/{game.pk}/events/"


def test_docs_serve_their_assets_from_this_app(anonymous):
    response = anonymous.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in html
    assert "cdn" not in html.lower()


def test_every_game_move_has_its_fields_in_the_schema(schema):

    components = schema["components"]["schemas"]
    body = schema["paths"]["/api/sessions/{id}/moves/"]["post"]["requestBody"]
    assert "MoveRequest" in str(body)
    for game in plugins.all_rules():
        for move_type in game.moves:
            name = f"{game.slug.title()}{move_type.title().replace('_', '')}MoveRequest"
            assert name in components, name
            assert components[name]["properties"]["type"]["pattern"] == f"^{move_type}$"


def test_who_starts_is_documented_as_a_seat_or_the_draw(schema):
    components = schema["components"]["schemas"]
    first = components["SessionCreateRequest"]["properties"]["first"]
    assert first["oneOf"] == [{"type": "integer", "minimum": 0},
                              {"type": "string", "enum": ["draw"]}]
    assert first["nullable"] is True and "draw" in first["description"]
    assert components["Session"]["properties"]["first"]["type"] == "integer"
    assert "first_option" in components["Game"]["properties"]


def test_the_schema_generates_and_validates_without_warnings():
    from django.core.management import call_command

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", "/dev/null")



def test_the_schema_is_made_once_for_each_language(anonymous, monkeypatch):
    from drf_spectacular.generators import SchemaGenerator

    made = []
    generate = SchemaGenerator.get_schema
    monkeypatch.setattr(SchemaGenerator, "get_schema",
                        lambda self, **kwargs: made.append(1) or generate(self, **kwargs))
    english = anonymous.get("/api/schema/").content
    assert anonymous.get("/api/schema/").content == english
    spanish = anonymous.get("/api/schema/", HTTP_ACCEPT_LANGUAGE="es").content
    assert spanish != english
    assert anonymous.get("/api/schema/", HTTP_ACCEPT_LANGUAGE="es").content == spanish
    assert anonymous.get("/api/schema/").content == english
    assert len(made) == 2


def test_a_players_own_history_documents_its_refusals(schema):
    paths = schema["paths"]
    assert {"200", "400", "401", "403", "404", "409"} <= set(
        paths["/api/sessions/{id}/claim/"]["post"]["responses"])
    assert "X-Guest-Token" in {p["name"] for p in paths["/api/sessions/{id}/claim/"]["post"]
                               ["parameters"]}
    assert {"200", "400", "404", "409"} <= set(paths["/api/players/{id}/merge/"]["post"]
                                               ["responses"])
    assert "into" in schema["components"]["schemas"]["MergeRequest"]["required"]
    assert {"204", "404"} <= set(paths["/api/players/{id}/link/"]["delete"]["responses"])
    assert "seat" in schema["components"]["schemas"]["OwnPlay"]["properties"]
