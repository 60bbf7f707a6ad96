"""Issue 19's classes of bad input, each in the places the issue names that the API's and the
pages' own bad-input tests do not already send: a 4xx with a sentence, and nothing changed.
(A NUL only breaks PostgreSQL, which refuses it in any text: run on both databases.)"""

import pytest
from django.contrib.auth import get_user_model

from companion.models import Guest, Move, Player, Seat, Session
from games.alatriste.models import Card
from tests.api.moves import snapshot
from tests.conftest import api_client
from tests.factories import session_for
from tests.views.helpers import browser_for, off_the_loop


def world():
    """Everything a bad request could have changed."""
    return (get_user_model().objects.count(), Player.objects.count(), Session.objects.count(),
            Seat.objects.count(), Move.objects.count(), Guest.objects.count(),
            Card.objects.count())


def sentence(response, status=400):
    assert response.status_code == status, response.content[:300]
    detail = response.json()["detail"]
    assert isinstance(detail, str) and len(detail.split()) >= 3, detail
    return detail


def page_sentence(response, status, *words):
    assert response.status_code == status, response.content[:300]
    text = response.content.decode()
    for word in words:
        assert word in text, text[:500]
    return text


def exported(as_alice, game):
    """An export of `game` with two moves, the second undone."""
    for seat, points in ((0, 4), (1, 2)):
        as_alice.post(f"/api/sessions/{game.pk}/moves/", {"type": "add", "seat": seat,
                                                          "points": points}, format="json")
    as_alice.post(f"/api/sessions/{game.pk}/undo/")
    export = as_alice.get(f"/api/sessions/{game.pk}/export/").json()
    assert [move["undone"] for move in export["moves"]] == [False, True]
    return export


# A NUL byte in any text -----------------------------------------------------------------------

@pytest.mark.parametrize("damage", [
    lambda export: export["seats"][0].update(name="An\x00a"),
    lambda export: export.update(game="tiny\x00"),
    lambda export: export.update(seed="ab\x00c"),
    lambda export: export["moves"][1].update(type="add\x00"),
    lambda export: export["moves"][0].update(summary="Ana \x00 scores"),
    lambda export: export["moves"][0]["data"].update(note="x\x00"),
], ids=["seat-name", "game", "seed", "undone-type", "summary", "field"])
def test_a_nul_in_an_import_field_is_400(as_alice, game, damage):
    export = exported(as_alice, game)
    damage(export)
    before = world()
    assert "control characters" in sentence(as_alice.post("/api/sessions/import/", export,
                                                          format="json"))
    assert world() == before


@pytest.mark.parametrize("path, body", [
    ("/api/auth/token/", {"username": "ali\x00ce", "password": "a long table password"}),
    ("/api/join/", {"code": "ABC\x00EF"}),
    ("/api/games/alatriste/cards/", {"name": "Espa\x00da", "kind": "possession"}),
])
def test_a_nul_in_a_sign_in_a_join_or_a_card_is_400(as_alice, path, body):
    before = world()
    assert "control characters" in sentence(as_alice.post(path, body, format="json"))
    assert world() == before


def test_a_nul_in_a_move_field_is_400(as_alice, game):
    before = snapshot(game)
    sentence(as_alice.post(f"/api/sessions/{game.pk}/moves/",
                           {"type": "add", "seat": 0, "points": 2, "note": "\x00"},
                           format="json"))
    assert snapshot(game) == before


def test_a_nul_in_the_idempotency_key_is_400(as_alice, game):
    before = snapshot(game)
    assert "control characters" in sentence(as_alice.post(
        f"/api/sessions/{game.pk}/moves/", {"type": "add", "seat": 0, "points": 2},
        format="json", HTTP_IDEMPOTENCY_KEY="k\x00"))
    assert snapshot(game) == before


@pytest.mark.parametrize("query", ["?game=%00", "?status=%00", "?player=%00", "?%00=1"])
def test_a_nul_in_any_query_parameter_of_the_api_is_400(as_alice, game, query):
    assert "control characters" in sentence(as_alice.get(f"/api/sessions/{query}"))
    assert "control characters" in sentence(as_alice.get(f"/api/players/{query}"))


@pytest.mark.parametrize("path, fields", [
    ("/login/", {"username": "ali\x00ce", "password": "a long table password"}),
    ("/join/", {"code": "ABC\x00EF"}),
])
def test_a_nul_in_the_sign_in_and_join_forms_is_400(alice, path, fields):
    before = world()
    page_sentence(browser_for().post(path, fields), 400, "control characters")
    assert world() == before


def test_a_nul_in_a_move_form_field_is_400(alice, game):
    before = snapshot(game)
    page_sentence(browser_for(alice).post(f"/s/{game.pk}/move/", {
        "type": "add", "seat": "0", "points": "2\x00"}), 400, "control characters")
    assert snapshot(game) == before


def test_a_nul_in_a_page_query_is_400(alice, game):
    page_sentence(browser_for(alice).get("/join/?code=%00"), 400, "control characters")
    page_sentence(browser_for(alice).get(f"/history/sessions/{game.pk}/?upto=%00"), 400,
                  "control characters")


# Unicode digits where a whole number goes ------------------------------------------------------

# (DRF reads the text "١" as 1, as it reads "1": a seat the JSON gives as text is DRF's lenience,
# never a 500; the forms, read by companion.inputs, take ASCII digits only.)
@pytest.mark.parametrize("seat", ["²", "1e3", -1, 1.5, True, [0]])
def test_a_seat_that_is_not_a_whole_number_on_the_api_join_is_400(alice, game, seat):
    before = world()
    sentence(api_client().post("/api/join/", {"code": game.code, "seat": seat}, format="json"))
    assert world() == before


@pytest.mark.parametrize("after", ["²", "١٢", "-1", "1.0"])
def test_the_moves_lists_after_and_limit_refuse_unicode_digits(as_alice, game, after):
    sentence(as_alice.get(f"/api/sessions/{game.pk}/moves/?after={after}"))
    sentence(as_alice.get(f"/api/sessions/{game.pk}/moves/?limit={after}"))


@pytest.mark.parametrize("raw", ["١", "²", "1e3"])
def test_the_history_page_refuses_unicode_digits_in_upto_and_page(alice, game, raw):
    history = browser_for(alice)
    page_sentence(history.get(f"/history/sessions/{game.pk}/", {"upto": raw}), 400,
                  "The move is a whole number")
    page_sentence(history.get(f"/history/sessions/{game.pk}/", {"page": raw}), 400,
                  "whole number")


@pytest.mark.django_db(transaction=True)  # the stream reads on threads of its own
@pytest.mark.parametrize("raw", ["١", "1.5"])
def test_the_streams_last_event_id_refuses_other_digits(alice, game, raw):
    client = browser_for(alice)
    response = off_the_loop(lambda: client.get(f"/s/{game.pk}/stream/", HTTP_LAST_EVENT_ID=raw))
    page_sentence(response, 400, "Last-Event-ID is a whole number")


# Values longer than their column ---------------------------------------------------------------

def test_a_form_key_longer_than_100_characters_is_400(alice, game):
    before = snapshot(game)
    page_sentence(browser_for(alice).post(f"/s/{game.pk}/move/", {
        "type": "add", "seat": "0", "points": "2", "idempotency_key": "k" * 101}), 400,
        "too long")
    assert snapshot(game) == before


def test_a_user_name_over_150_characters_on_the_sign_up_page_is_refused(db):
    before = world()
    response = browser_for().post("/signup/", {"username": "d" * 151,
                                               "password": "windmills at dusk"})
    page_sentence(response, 400, "The user name is too long (150 characters at most).")
    assert world() == before


@pytest.mark.parametrize("path, body", [
    ("/api/players/", {"name": "P" * 61}),
    ("/api/sessions/", {"game": "tiny", "players": ["Ana", "B" * 61]}),
    ("/api/games/alatriste/cards/", {"name": "C" * 300, "kind": "possession"}),
])
def test_a_name_longer_than_its_column_is_400(as_alice, path, body):
    before = world()
    sentence(as_alice.post(path, body, format="json"))
    assert world() == before


def test_an_imported_seat_name_longer_than_its_column_is_400(as_alice, game):
    export = exported(as_alice, game)
    export["seats"][0]["name"] = "A" * 61
    before = world()
    sentence(as_alice.post("/api/sessions/import/", export, format="json"))
    assert world() == before


# Wrong JSON types in an import -----------------------------------------------------------------

@pytest.mark.parametrize("damage", [
    lambda export: export["moves"][0].update(seq=-1),
    lambda export: export["moves"][0].update(seq=0),
    lambda export: export["moves"][0].update(seq=1.5),
    lambda export: export["moves"][0].update(seq=True),
    lambda export: export["moves"][0].update(seat="x"),
    lambda export: export["moves"][0].update(seat=-1),
    lambda export: export["moves"][0].update(seat=[0]),
    lambda export: export["moves"][1].update(actor_seat=99),
    lambda export: export["moves"][1].update(seat=10**30),
    lambda export: export["moves"][0].update(undone="yes"),
    lambda export: export.update(game=["tiny"]),
    lambda export: export.update(options=[1]),
    lambda export: export.update(seats=[{"index": 0, "name": ["Ana"]}, {"index": 1,
                                                                         "name": "Bo"}]),
    lambda export: export.update(seats=[{"index": "a", "name": "Ana"}, {"index": 1,
                                                                         "name": "Bo"}]),
    lambda export: export.update(seats=["Ana", "Bo"]),
    lambda export: export.update(moves={"1": {}}),
], ids=["seq-negative", "seq-zero", "seq-float", "seq-bool", "seat-text", "seat-negative",
        "seat-list", "undone-actor-99", "undone-seat-huge", "undone-text", "game-list",
        "options-list", "seat-name-list", "seat-index-mixed", "seats-text", "moves-object"])
def test_an_import_with_a_field_of_the_wrong_type_is_400(as_alice, game, damage):
    export = exported(as_alice, game)
    damage(export)
    before = world()
    sentence(as_alice.post("/api/sessions/import/", export, format="json"))
    assert world() == before


def test_an_import_of_40000_undone_moves_is_refused_whole(as_alice, game):
    export = exported(as_alice, game)
    undone = export["moves"][1]
    export["moves"] += [{**undone, "seq": 3 + number} for number in range(40_000)]
    before = world()
    response = as_alice.post("/api/sessions/import/", export, format="json")
    assert 400 <= response.status_code < 500, response.status_code
    assert len(response.json()["detail"].split()) >= 3
    assert world() == before


# Names differing only in case ------------------------------------------------------------------

def test_a_name_differing_only_in_case_is_taken(anonymous):
    account = {"username": "Dora", "password": "windmills at dusk"}
    assert anonymous.post("/api/auth/register/", account, format="json").status_code == 201
    before = world()
    again = api_client().post("/api/auth/register/", {**account, "username": "dORA"},
                              format="json", REMOTE_ADDR="10.0.0.7")
    assert sentence(again) == "The name dORA is taken: choose another."
    page_sentence(browser_for().post("/signup/", {**account, "username": "dora"},
                                     REMOTE_ADDR="10.0.0.8"), 400, "The name dora is taken")
    assert world() == before


# A code that cannot be one ---------------------------------------------------------------------

@pytest.mark.parametrize("code", ["a/b", "../admin", "%2F"])
def test_the_join_page_answers_a_code_with_a_slash_in_words(alice, game, code):
    before = world()
    text = page_sentence(browser_for().get("/join/", {"code": code}), 404,
                         "No game is open with the code")
    assert world() == before
    assert "<html" in text.lower()


# The moves list is bounded whatever is asked ---------------------------------------------------

@pytest.mark.parametrize("query", ["", "?limit=0", "?limit=999999999999999"])
def test_the_moves_list_never_answers_more_than_a_page(as_alice, game, monkeypatch, query):
    from companion.api import views

    for points in (1, 2, 3, 4, 5):
        as_alice.post(f"/api/sessions/{game.pk}/moves/", {"type": "add", "seat": 0,
                                                          "points": points}, format="json")
    monkeypatch.setattr(views, "MOVES_PAGE", 3)
    response = as_alice.get(f"/api/sessions/{game.pk}/moves/{query}")
    assert [move["seq"] for move in response.json()] == [1, 2, 3]
    assert 'after=3&limit=3>; rel="next"' in response["Link"]


# Digits int() refuses, in the games' own readings ----------------------------------------------

BIG = "9" * 5000  # int() refuses more than 4,300 digits


@pytest.fixture
def alatriste_table(alice, as_alice):
    table = session_for(alice, game="alatriste", players=("Íñigo", "Quevedo"), seed="digits")
    for seat in range(2):
        assert as_alice.post(f"/api/sessions/{table.pk}/moves/", {
            "type": "setup", "seat": seat, "fencing": 4, "ducats": 6},
            format="json").status_code == 201
    return table


@pytest.mark.parametrize("fields", [
    {"type": "card", "seat": 0, "action": "add", "card": "²"},
    {"type": "card", "seat": 0, "action": "add", "card": "--5"},
    {"type": "card", "seat": 0, "action": "add", "card": {"card": "²"}},
    {"type": "card", "seat": 0, "action": "add", "card": BIG},
    {"type": "adjust", "seat": 0, "step": "fame:+", "amount": "²"},
    {"type": "adjust", "seat": 0, "step": "fame:+", "amount": BIG},
], ids=["card-2", "card-minus-minus", "card-id-2", "card-big", "amount-2", "amount-big"])
def test_alatriste_refuses_digits_int_cannot_read(as_alice, alatriste_table, fields):
    before = snapshot(alatriste_table)
    sentence(as_alice.post(f"/api/sessions/{alatriste_table.pk}/moves/", fields,
                           format="json"))
    assert snapshot(alatriste_table) == before


@pytest.mark.parametrize("game_name, fields", [
    ("quixote", {"type": "score", "seat": 0, "round": 1, "church_groups": [BIG]}),
    ("knights", {"type": "worship", "placements": {BIG: {"sword": "up"}}}),
])
def test_a_number_of_thousands_of_digits_is_400(as_alice, alice, game_name, fields):
    table = session_for(alice, game=game_name, players=("Ana", "Bo", "Cy"))
    before = snapshot(table)
    assert "digits at most" in sentence(as_alice.post(f"/api/sessions/{table.pk}/moves/",
                                                      fields, format="json"))
    assert snapshot(table) == before


def test_a_number_of_thousands_of_digits_in_a_form_or_query_is_400(alice, game):
    before = snapshot(game)
    page_sentence(browser_for(alice).post(f"/s/{game.pk}/move/", {
        "type": "add", "seat": "0", "points": BIG}), 400, "digits at most")
    page_sentence(browser_for(alice).get(f"/history/sessions/{game.pk}/", {"upto": BIG}), 400,
                  "digits at most")
    assert snapshot(game) == before


def test_the_pad_refuses_unicode_digits_as_winners(alice):
    table = session_for(alice, game="pad", players=("Ana", "Bo"))
    before = snapshot(table)
    page_sentence(browser_for(alice).post(f"/s/{table.pk}/move/", {
        "type": "end", "form": "winners", "seats": ["²"], "confirmed": "1"}), 400)
    assert snapshot(table) == before
