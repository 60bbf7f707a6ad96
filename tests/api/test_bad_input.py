"""Input that is wrong in any way answers a 4xx with a sentence and changes nothing: each class of
bad input a clumsy client or an attacker sent, sent again here."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from companion.models import Move, Player, Session
from tests.api.moves import snapshot
from tests.conftest import api_client


def world():
    """Everything a bad request could have changed."""
    return (get_user_model().objects.count(), Player.objects.count(), Session.objects.count(),
            Move.objects.count())


def refused_with_a_sentence(response, status=400):
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert isinstance(body["detail"], str) and len(body["detail"]) > 10, body
    return body


@pytest.mark.parametrize("path, body", [
    ("/api/players/", {"name": "Pe\u0000ter"}),
    ("/api/sessions/", {"game": "tiny", "players": ["Ana", "B\u0000o"]}),
    ("/api/sessions/", {"game": "tiny\u0000", "players": ["Ana", "Bo"]}),
    ("/api/auth/register/", {"username": "do\u0000ra", "password": "windmills at dusk"}),
])
def test_a_nul_in_any_text_is_400(as_alice, path, body):
    before = world()
    refused_with_a_sentence(as_alice.post(path, body, format="json"))
    assert world() == before


@pytest.mark.parametrize("look_alike", [
    "Ana\u200b", "\u200bAna", "A\u00adna", "\u202eAna", "Ana\u2066", "\ufeffAna", "A\u2060na",
])
def test_a_name_with_an_invisible_character_is_the_name_without_it(as_alice, look_alike):
    as_alice.post("/api/players/", {"name": "Ana"}, format="json")
    again = as_alice.post("/api/players/", {"name": look_alike}, format="json")
    assert again.status_code == 400 and "already have a player called Ana" in again.json()["detail"]
    game = as_alice.post("/api/sessions/", {"game": "tiny", "players": [look_alike, "Bo"]},
                         format="json")
    assert game.status_code == 201, game.content
    assert [seat["name"] for seat in game.json()["seats"]] == ["Ana", "Bo"]
    assert Player.objects.filter(owner__username="alice").count() == 2  # Ana, once; Bo


def test_a_name_typed_with_a_combining_accent_is_the_same_name(as_alice):
    as_alice.post("/api/players/", {"name": "Jos\u00e9"}, format="json")
    again = as_alice.post("/api/players/", {"name": "Jose\u0301"}, format="json")
    assert again.status_code == 400 and "already have a player called" in again.json()["detail"]
    # The joiners stay: a family emoji is one picture made of three.
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert as_alice.post("/api/players/", {"name": family}, format="json").json()["name"] == family


def test_a_nul_in_a_query_parameter_is_400(as_alice, game):
    body = refused_with_a_sentence(as_alice.get("/api/sessions/?game=%00"))
    assert "control characters" in body["detail"]


@pytest.mark.parametrize("header", ["HTTP_IF_MATCH", "HTTP_IF_NONE_MATCH"])
@pytest.mark.parametrize("value", ['"²"', "²", '"1e3"', '"-1"'])
def test_a_version_header_that_is_not_a_whole_number_is_400(as_alice, game, header, value):
    before = snapshot(game)
    if header == "HTTP_IF_MATCH":
        response = as_alice.post(f"/api/sessions/{game.pk}/moves/",
                                 {"type": "add", "seat": 0, "points": 2}, format="json",
                                 **{header: value})
    else:
        response = as_alice.get(f"/api/sessions/{game.pk}/", **{header: value})
    refused_with_a_sentence(response)
    assert snapshot(game) == before


def test_an_idempotency_key_longer_than_100_characters_is_400(as_alice, game):
    before = snapshot(game)
    body = refused_with_a_sentence(as_alice.post(
        f"/api/sessions/{game.pk}/moves/", {"type": "add", "seat": 0, "points": 2},
        format="json", HTTP_IDEMPOTENCY_KEY="k" * 101))
    assert "100" in body["detail"]
    assert snapshot(game) == before


def test_a_user_name_over_150_characters_is_400(anonymous):
    before = world()
    refused_with_a_sentence(anonymous.post(
        "/api/auth/register/", {"username": "d" * 151, "password": "windmills at dusk"},
        format="json"))
    assert world() == before


@pytest.mark.parametrize("move_type", [["add"], {"add": 1}, 7, True])
def test_a_move_type_that_is_not_text_is_400(as_alice, game, move_type):
    before = snapshot(game)
    refused_with_a_sentence(as_alice.post(f"/api/sessions/{game.pk}/moves/",
                                          {"type": move_type, "seat": 0, "points": 2},
                                          format="json"))
    assert snapshot(game) == before


@pytest.mark.parametrize("player", ["abc", 1.5, True, [1], {"id": 1}])
def test_a_player_id_that_is_not_a_whole_number_is_400(as_alice, player):
    before = world()
    refused_with_a_sentence(as_alice.post(
        "/api/sessions/", {"game": "tiny", "players": [{"player": player}, "Bo"]},
        format="json"))
    assert world() == before


def deep(levels):
    return "[" * levels + "]" * levels


@pytest.mark.parametrize("levels", [100, 5000])
def test_json_nested_too_deeply_is_400(as_alice, game, levels):
    before = snapshot(game)
    body = '{"type": "add", "seat": 0, "points": ' + deep(levels) + "}"
    response = as_alice.post(f"/api/sessions/{game.pk}/moves/", body,
                             content_type="application/json")
    assert "nested" in refused_with_a_sentence(response)["detail"]
    assert snapshot(game) == before


def exported(as_alice, game):
    as_alice.post(f"/api/sessions/{game.pk}/moves/", {"type": "add", "seat": 0, "points": 4},
                  format="json")
    as_alice.post(f"/api/sessions/{game.pk}/moves/", {"type": "add", "seat": 1, "points": 2},
                  format="json")
    as_alice.post(f"/api/sessions/{game.pk}/undo/")
    return as_alice.get(f"/api/sessions/{game.pk}/export/").json()


@pytest.mark.parametrize("damage", [
    lambda export: export.update(seed="s" * 33),
    lambda export: export.update(seed=["s"]),
    lambda export: export["moves"][1].update(type="t" * 41),
    lambda export: export["moves"][1].update(type=["add"]),
    lambda export: export["moves"][0].update(seq="abc"),
    lambda export: export["moves"][0].update(seq=10**12),
    lambda export: export["moves"][0].update(seat=99),
    lambda export: export["moves"][0].update(actor_seat="x"),
    lambda export: export["moves"][1].update(data={"seat": 0, "points": "lots"}),
    lambda export: export["moves"][0].update(data=[1]),
    lambda export: export["moves"].extend([{**export["moves"][1], "seq": 3 + n, "undone": True}
                                           for n in range(5001)]),
    lambda export: export.update(created_at="last tuesday"),
    lambda export: export.update(created_at=20261124),
    lambda export: export.update(finished_at="2999-01-01T00:00:00+00:00"),
    lambda export: export.update(created_at="2026-01-02T00:00:00+00:00",
                                 finished_at="2026-01-01T00:00:00+00:00"),
    lambda export: export["moves"][0].update(created_at="soon"),
    lambda export: export.update(created_at="0001-01-01T00:00:00+00:00"),
], ids=["seed-long", "seed-list", "type-long", "type-list", "seq-text", "seq-huge", "seat-99",
        "actor-text", "undone-data", "data-list", "too-many-moves", "start-text", "start-number",
        "end-to-come", "end-before-start", "move-time-text", "start-year-1"])
def test_a_damaged_import_is_400_and_creates_nothing(as_alice, game, damage):
    export = exported(as_alice, game)
    damage(export)
    before = world()
    refused_with_a_sentence(as_alice.post("/api/sessions/import/", export, format="json"))
    assert world() == before


@pytest.mark.parametrize("path", ["/api/sessions/abc/", "/api/sessions/1x/moves/",
                                  "/api/nothing-here/"])
def test_an_address_that_matches_nothing_under_api_answers_json(as_alice, path):
    body = refused_with_a_sentence(as_alice.get(path), status=404)
    assert body["code"] == "not_found"


def test_the_session_list_schema_is_the_paginated_object(as_alice):
    schema = as_alice.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    answer = schema["paths"]["/api/sessions/"]["get"]["responses"]["200"]["content"]
    ref = answer["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert set(schema["components"]["schemas"][ref]["properties"]) >= {"count", "next",
                                                                       "results"}


@pytest.mark.django_db(transaction=True)
def test_twenty_registrations_of_one_name_at_once_make_one_account():
    answers, start = [], threading.Barrier(20)

    def register(number):
        start.wait()
        name = "Dora" if number % 2 else "dora"  # names differing only in case clash too
        try:
            answers.append(api_client().post(  # twenty phones: no registration limit
                "/api/auth/register/", {"username": name, "password": "windmills at dusk"},
                format="json", REMOTE_ADDR=f"10.0.0.{number}"))
        finally:
            connection.close()

    threads = [threading.Thread(target=register, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answer.status_code for answer in answers) == [201] + [400] * 19
    for answer in answers:
        if answer.status_code == 400:
            assert refused_with_a_sentence(answer)["detail"].endswith("is taken: choose another.")
    assert get_user_model().objects.filter(username__iexact="dora").count() == 1



def test_an_over_large_body_under_api_answers_json(as_alice):
    from django.conf import settings

    name = "a" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)
    body = '{"game": "tiny", "players": ["' + name + '"]}'
    before = world()
    response = as_alice.post("/api/sessions/", body, content_type="application/json")
    assert 400 <= response.status_code < 500
    assert response["Content-Type"].startswith("application/json")
    assert len(response.json()["detail"]) > 10
    assert world() == before


def test_csv_cells_cannot_start_a_formula(alice, as_alice):
    from tests.factories import played

    played(alice, players=('=HYPERLINK("x")', "+Bo"))
    played(alice, players=("-Cy", "@Di"))
    text = b"".join(as_alice.get("/api/results.csv").streaming_content).decode()
    for name in ('=HYPERLINK', "+Bo", "-Cy", "@Di"):
        assert "'" + name in text
        assert "\n" + name not in text and "," + name not in text and '"' + name not in text
    # A name never starts with a tab (names are stripped); a cell that did would be quoted too.
    from companion.history import spreadsheet_safe

    assert spreadsheet_safe("\tEd") == "'\tEd" and spreadsheet_safe(-3) == -3


def test_a_list_items_refusal_is_said_under_its_field_not_as_its_index(as_alice, alice):
    """{"dice": ["0"]}: DRF says a list's item by its index, which the body gave as the field's
    sentence; the sentence itself is what api.md's `fields` holds."""
    from tests.factories import session_for

    game = session_for(alice, game="rabbits", players=("Ana", "Ben", "Cai"))
    before = world()
    body = refused_with_a_sentence(as_alice.post(
        f"/api/sessions/{game.pk}/moves/", {"type": "roll", "seat": 0, "dice": [7, 1]},
        format="json"))
    assert body["fields"] == {"dice": ["Ensure this value is less than or equal to 6."]}
    assert body["detail"] == "dice: Ensure this value is less than or equal to 6."
    assert world() == before


def test_a_form_body_that_cannot_be_read_is_said_in_the_requests_language(anonymous, caplog):
    """A multipart body without its boundary: it was refused in English whatever the request
    asked for, and logged with a traceback each time."""
    import logging

    caplog.set_level(logging.WARNING)
    before = world()
    answer = anonymous.generic("POST", "/api/players/", b"x",
                               content_type="multipart/form-data",
                               HTTP_ACCEPT_LANGUAGE="es")
    assert answer.status_code == 400 and answer["Content-Language"] == "es"
    assert answer.json()["detail"].startswith("No se ha podido leer esta petición")
    assert not [record for record in caplog.records if record.exc_info]
    assert world() == before


@pytest.mark.parametrize("game_slug, move", [
    ("quixote", {"type": "score", "seat": 0, "church_groups": deep(3000)}),
    ("knights", {"type": "seal", "seat": 0, "placements": deep(3000)}),
    ("knights", {"type": "worship", "placements": deep(3000)}),
    ("knights", {"type": "seal", "seat": 0, "placements": "x"}),
    ("knights", {"type": "seal", "seat": 0, "placements": "²"}),
    ("alatriste", {"type": "combat", "rolls": deep(3000)}),
    ("alatriste", {"type": "duel", "rolls": deep(3000)}),
], ids=["quixote-list", "knights-seal-deep", "knights-worship-deep", "knights-seal-x",
        "knights-seal-digit", "alatriste-combat-rolls", "alatriste-duel-rolls"])
def test_json_written_inside_a_field_is_read_with_the_bodys_care(as_alice, alice, game_slug,
                                                                 move):
    """JSON a field holds as text (a form's field, an API client's string): a few kilobytes of
    "[" went deeper than the parser, and a text that is not JSON where an object was read as
    one; both were 500s."""
    from tests.factories import session_for

    session = session_for(alice, game=game_slug, players=("Ana", "Ben", "Cy"))
    before = snapshot(session)
    response = as_alice.post(f"/api/sessions/{session.pk}/moves/", move, format="json")
    assert response.status_code in (400, 403), response.content[:300]
    assert isinstance(response.json()["detail"], str)
    assert snapshot(session) == before
