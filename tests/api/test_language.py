"""The API answers in the language of Accept-Language: refusals (the rules' and the fields'),
log lines, and the schema says so."""

from django.utils import translation

from companion import engine, plugins
from companion.language import say
from companion.models import Move


def test_a_field_refusal_in_the_requests_language(as_alice):
    answer = as_alice.post("/api/sessions/", {"players": ["Ann", "Ben"]}, format="json",
                           HTTP_ACCEPT_LANGUAGE="es")
    assert answer.status_code == 400 and answer["Content-Language"] == "es"
    assert answer.json()["fields"]["game"] == ["Este campo es obligatorio."]
    english = as_alice.post("/api/sessions/", {"players": ["Ann", "Ben"]}, format="json")
    assert english.json()["fields"]["game"] == ["This field is required."]


def test_a_rules_refusal_is_said_at_the_edge_in_the_requests_language(as_alice, game):
    refusal = plugins.rules_of("tiny").moves  # the refusal of a move the game does not have:
    english = engine._("{game} has no move called {move} (its moves: {known}).",
                       game=plugins.rules_of("tiny").name, move="'fly'",
                       known=", ".join(sorted(refusal)))
    with translation.override("es"):
        spanish = say(english)
    answer = as_alice.post(f"/api/sessions/{game.pk}/moves/", {"type": "fly"}, format="json",
                           HTTP_ACCEPT_LANGUAGE="es")
    assert answer.status_code == 400
    assert answer.json()["detail"] == spanish != str(english)
    answer = as_alice.post(f"/api/sessions/{game.pk}/moves/", {"type": "fly"}, format="json")
    assert answer.json()["detail"] == str(english)


def test_a_log_line_in_the_requests_language(as_alice, game):
    Move.objects.create(session=game, seq=1, type="add", data={}, summary="English",
                        message={"id": "This field is required.", "values": {}})
    moves = as_alice.get(f"/api/sessions/{game.pk}/moves/", HTTP_ACCEPT_LANGUAGE="es").json()
    assert [move["summary"] for move in moves] == ["Este campo es obligatorio."]
    moves = as_alice.get(f"/api/sessions/{game.pk}/moves/").json()
    assert [move["summary"] for move in moves] == ["This field is required."]


def test_the_schema_says_every_operation_takes_accept_language(as_alice):
    schema = as_alice.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "Accept-Language" in schema["info"]["description"]
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            names = [p["name"] for p in operation.get("parameters", [])]
            assert "Accept-Language" in names, (method, path)


def test_a_games_name_made_by_its_rules_is_said_in_the_requests_language(as_alice):
    names = {game["slug"]: game["name"]
             for game in as_alice.get("/api/games/", HTTP_ACCEPT_LANGUAGE="es").json()}
    assert names["pad"] == "Cualquier juego" and names["quixote"] == "Don Quixote"
    names = {game["slug"]: game["name"] for game in as_alice.get("/api/games/").json()}
    assert names["pad"] == "Any game"


def test_a_fraction_in_a_sentence_is_written_as_the_reader_writes_it():
    # Alatriste's score is Fame + half the ducats: the log said "7.5" on a Spanish page whose
    # scoreboard said 7,5.
    stopped = engine._("The players stopped: {name} leads with {score}", name="Cleo", score=7.5)
    with translation.override("es"):
        assert say(stopped) == "La mesa lo deja: Cleo va primero con 7,5"
    with translation.override("en"):
        assert say(stopped) == "The players stopped: Cleo leads with 7.5"
    whole = engine._("The players stopped: {name} leads with {score}", name="Cleo", score=12)
    with translation.override("es"):
        assert say(whole) == "La mesa lo deja: Cleo va primero con 12"


def test_a_refusal_names_the_game_in_the_requests_language(as_alice, alice):
    """The score pad's name is its rules' Text: it read "Any game no tiene ninguna jugada…"."""
    from tests.factories import session_for

    pad = session_for(alice, game="pad")
    answer = as_alice.post(f"/api/sessions/{pad.pk}/moves/", {"type": "fly"}, format="json",
                           HTTP_ACCEPT_LANGUAGE="es")
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("Cualquier juego no tiene")


def test_drfs_own_field_sentences_are_said_as_the_app_says_spanish(as_alice, game):
    """DRF's Spanish speaks as "usted" ("Introduzca…", "Asegúrese…"); the app's own Spanish
    answers for it (companion/drf_sentences.py)."""
    answer = as_alice.post("/api/sessions/", {"game": "tiny", "players": ["Ann", "Ben"],
                                              "location": "x" * 300}, format="json",
                           HTTP_ACCEPT_LANGUAGE="es")
    assert answer.status_code == 400
    assert answer.json()["fields"]["location"] == [
        "Este campo no puede tener más de 60 caracteres."]
    answer = as_alice.post(f"/api/sessions/{game.pk}/moves/",
                           {"type": "add", "seat": 0, "points": "many"}, format="json",
                           HTTP_ACCEPT_LANGUAGE="es")
    assert answer.status_code == 400
    assert "Hace falta un número entero válido." in answer.json()["detail"]
    assert "Introduzca" not in answer.json()["detail"]
