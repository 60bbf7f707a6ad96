"""POST /api/plays/: a play logged afterwards, answered as the session it became; bad input is a
400 with a sentence and writes nothing; the session, its export and its table work on it."""

import pytest

from companion.models import Move, Player, Result, Seat, Session


def four(scores=(61, 74, 58, 74)):
    return [{"name": name, "score": score}
            for name, score in zip(("Ana", "Ben", "Cid", "Dee"), scores, strict=True)]


def counts():
    return (Session.objects.count(), Seat.objects.count(), Result.objects.count(),
            Player.objects.count(), Move.objects.count())


def test_a_named_play_is_logged(as_alice):
    body = {"title": "Carcassonne", "played_at": "2026-10-03", "minutes": 45,
            "location": "Club", "note": "Ben's first", "players": four()}
    response = as_alice.post("/api/plays/", body, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert (data["game"], data["title"], data["logged"], data["status"], data["location"]) == (
        "pad", "Carcassonne", True, "finished", "Club")
    assert [(row["name"], row["rank"], row["winner"]) for row in data["standings"]] == [
        ("Ben", 1, True), ("Dee", 1, True), ("Ana", 3, False), ("Cid", 4, False)]
    assert data["created_at"].startswith("2026-10-03")
    session = as_alice.get(f"/api/sessions/{data['id']}/").json()
    assert session["standings"] == data["standings"]
    exported = as_alice.get(f"/api/sessions/{data['id']}/export/").json()
    assert exported["logged"] is True and exported["moves"] == []
    copy = as_alice.post("/api/sessions/import/", exported, format="json")
    assert copy.status_code == 201 and copy.json()["standings"] == data["standings"]
    undo = as_alice.post(f"/api/sessions/{data['id']}/undo/")
    assert undo.status_code == 409 and undo.json()["detail"].endswith(".")


def test_one_of_our_games_with_a_roster_player_and_winners(as_alice, alice):
    ana = Player.objects.create(owner=alice, name="Ana")
    body = {"game": "tiny", "players": [{"player": ana.pk, "winner": True}, {"name": "Ben"}]}
    response = as_alice.post("/api/plays/", body, format="json")
    assert response.status_code == 201, response.json()
    rows = {row["name"]: row for row in response.json()["standings"]}
    assert rows["Ana"]["winner"] and not rows["Ben"]["winner"]
    assert Result.objects.get(session=response.json()["id"], seat=0).player == ana


@pytest.mark.parametrize(("body", "words"), [
    ({"players": four()}, "Name the game played"),
    ({"game": "chess", "title": "Azul", "players": four()}, "no game called"),
    ({"title": "Azul", "minutes": 30, "duration_min": 45, "players": four()}, "differ"),
    ({"title": "Azul"}, "players"),
    ({"title": "Azul", "players": "Ana"}, "players"),
    ({"title": "Azul", "players": four((1, None, 3, 4))}, "every player a score"),
    ({"title": "Azul", "win": "most", "players": four()}, "win"),
    ({"title": "Azul", "win": "none", "players": four()}, "takes no scores"),
    ({"title": "Azul", "played_at": "tomorrow", "players": four()}, "played_at"),
    ({"title": "Azul", "played_at": "2999-01-01", "players": four()}, "still to come"),
    ({"title": "Azul", "played_at": "0001-01-01", "players": four()}, "before 1900"),
    ({"title": "Azul", "minutes": -5, "players": four()}, "minutes"),
    ({"title": "Azul", "players": [{"name": "Ana", "score": "ten"}]}, "score"),
    ({"title": "Azul", "players": [{"player": 999999, "score": 1}]}, "no player with id"),
    ({"game": "tiny", "title": "Azul", "players": four()}, "a game of its own"),
    ({"title": "x" * 61, "players": four()}, "title"),
])
def test_bad_input_is_a_400_with_a_sentence(as_alice, body, words):
    before = counts()
    response = as_alice.post("/api/plays/", body, format="json")
    assert response.status_code == 400, response.json()
    assert words in response.json()["detail"]
    assert counts() == before


def test_the_contract_s_game_name_and_duration_min(as_alice):
    # specs/api.md: {"game": slug or a game's name, "played_at", "duration_min", ...}
    response = as_alice.post("/api/plays/", {"game": "Carcassonne", "duration_min": 45,
                                             "players": four()}, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert (data["game"], data["title"], data["state"]["logged"]["minutes"]) == (
        "pad", "Carcassonne", 45)
    response = as_alice.post("/api/plays/", {"game": "don QUIXOTE", "players": four()},
                             format="json")
    assert response.status_code == 201, response.json()
    assert (response.json()["game"], response.json()["title"]) == ("quixote", "")


@pytest.mark.parametrize(("body", "field"), [
    ({"title": "Azul", "duration_min": -5}, "duration_min"),  # the name it was sent by
    ({"title": "Azul", "minutes": -5}, "minutes"),
    ({"title": "Azul", "players": [{"name": "Ana", "score": 1}, {"name": "ana", "score": 2}]},
     "players"),
])
def test_a_refusal_names_the_field_the_client_sent(as_alice, body, field):
    """`fields` held "minutes" for a duration_min, and nothing for a name given twice."""
    response = as_alice.post("/api/plays/", {"players": four(), **body}, format="json")
    assert response.status_code == 400
    assert list(response.json()["fields"]) == [field]
    assert response.json()["fields"][field] == [response.json()["detail"]]


def test_a_host_is_needed(anonymous, as_bob):
    assert anonymous.post("/api/plays/", {"title": "Azul", "players": four()},
                          format="json").status_code == 401
    assert as_bob.post("/api/plays/", {"title": "Azul", "players": four()},
                       format="json").status_code == 401


def test_the_schema_documents_it(as_alice):
    schema = as_alice.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/plays/"]["post"]
    assert "201" in operation["responses"] and "400" in operation["responses"]
    fields = schema["components"]["schemas"]["PlayLogRequest"]["properties"]
    assert {"game", "title", "win", "played_at", "minutes", "location", "note",
            "players"} <= set(fields)


def test_a_time_of_day_is_kept_and_sent_to_bg_stats_as_entered(as_alice, settings):
    import datetime

    from companion import bgstats

    settings.TIME_ZONE = "Europe/Madrid"
    answer = as_alice.post("/api/plays/", {"game": "Carcassonne", "played_at":
                                           "2026-03-02T21:30:00", "players": [
                                               {"name": "Ana", "score": 5},
                                               {"name": "Bea", "score": 3}]}, format="json")
    assert answer.status_code == 201, answer.json()
    session = Session.objects.get(pk=answer.json()["id"])
    assert session.created_at == datetime.datetime(2026, 3, 2, 20, 30, tzinfo=datetime.UTC)
    assert bgstats.data_of(bgstats.send_link(session))["playDate"] == "2026-03-02 21:30:00"


@pytest.mark.parametrize("played_at", ["2026-03-02T25:00", "2026-02-30", "tomorrow"])
def test_a_day_or_time_that_is_none_is_a_400(as_alice, played_at):
    answer = as_alice.post("/api/plays/", {"game": "Carcassonne", "played_at": played_at,
                                           "players": ["Ana", "Bea"]}, format="json")
    assert answer.status_code == 400
    assert answer.json()["fields"]["played_at"]
