import pytest

from tests.factories import session_for


def create(client, **body):
    body = {"game": "tiny", "players": ["Vanessa", "Peter"], **body}
    return client.post("/api/sessions/", body, format="json")


def test_create_answers_the_session(as_alice, alice):
    response = create(as_alice, options={"target": 30})
    assert response.status_code == 201
    body = response.json()
    assert set(body) >= {"id", "code", "game", "status", "version", "options", "created_at",
                         "finished_at", "seats", "state", "standings"}
    assert body["status"] == "active" and body["version"] == 0
    assert body["options"] == {"target": 30}
    assert [seat["name"] for seat in body["seats"]] == ["Vanessa", "Peter"]
    assert all(seat["player"] for seat in body["seats"])  # new names join the roster
    assert body["standings"][0]["rank"] == 1 and body["standings"][1]["rank"] == 1
    assert response["ETag"] == '"0"'


def test_create_reuses_a_roster_player(as_alice, alice):
    player = as_alice.post("/api/players/", {"name": "Íñigo"}, format="json").json()
    response = create(as_alice, players=[{"name": "Íñigo", "player": player["id"]}, "Ana"])
    assert response.status_code == 201
    assert response.json()["seats"][0]["player"] == player["id"]


@pytest.mark.parametrize(("body", "words"), [
    ({"game": "chess"}, "no game called 'chess'"),
    ({"players": ["A", "B", "C", "D", "E"]}, "played by 1 to 4 players, not 5"),
    ({"players": []}, "Name the players"),
    ({"options": {"colour": "red"}}, "no option colour"),
    ({"options": {"target": 0}}, "at least 1"),
    ({"players": ["Ana", "ana"]}, "named twice"),
    ({"players": [{"name": "X", "player": 999}]}, "no player with id 999"),
])
def test_create_refuses_with_a_sentence(as_alice, body, words):
    response = create(as_alice, **body)
    assert response.status_code == 400
    assert words in response.json()["detail"]


def test_create_needs_a_host(anonymous):
    assert create(anonymous).status_code == 401


def test_get_with_etag_and_304(as_alice, game):
    response = as_alice.get(f"/api/sessions/{game.pk}/")
    assert response.status_code == 200 and response["ETag"] == '"0"'
    assert as_alice.get(f"/api/sessions/{game.pk}/",
                        HTTP_IF_NONE_MATCH='"0"').status_code == 304
    assert as_alice.get(f"/api/sessions/{game.pk}/",
                        HTTP_IF_NONE_MATCH='"5"').status_code == 200
    # The standard forms a cache sends: a list of tags, or *.
    for tags, answer in (('"4", W/"0"', 304), ('"4", "5"', 200), ("*", 304)):
        assert as_alice.get(f"/api/sessions/{game.pk}/",
                            HTTP_IF_NONE_MATCH=tags).status_code == answer, tags


def test_list_is_own_sessions_newest_first_paginated_and_filtered(as_alice, alice, charlie):
    first = session_for(alice)
    second = session_for(alice, options={"target": 1})
    session_for(charlie)
    body = as_alice.get("/api/sessions/").json()
    assert set(body) >= {"count", "next", "results"}
    assert [s["id"] for s in body["results"]] == [second.pk, first.pk]
    assert as_alice.get("/api/sessions/?game=quixote").json()["count"] == 0
    assert as_alice.get("/api/sessions/?status=active").json()["count"] == 2
    assert as_alice.get("/api/sessions/?status=finished").json()["count"] == 0


def test_list_pages(as_alice, alice):
    for _ in range(3):
        session_for(alice)
    body = as_alice.get("/api/sessions/?page_size=2").json()
    assert body["count"] == 3 and len(body["results"]) == 2 and body["next"]
    assert [row["id"] for row in as_alice.get("/api/sessions/?page_size=2&page=2").json()[
        "results"]] == [row["id"] for row in as_alice.get("/api/sessions/").json()["results"]][2:]
    # A page that is no number is the request's mistake, said; one past the last finds nothing.
    for page, sentence in (("0", "The pages are counted from 1, not 0."),
                           ("x", "The page is a whole number, not x."),
                           ("-1", "The pages are counted from 1, not -1.")):
        answer = as_alice.get(f"/api/sessions/?page={page}")
        assert (answer.status_code, answer.json()["detail"]) == (400, sentence)
    assert as_alice.get("/api/sessions/?page=3&page_size=2").status_code == 404


def test_list_keeps_a_constant_number_of_queries(as_alice, alice, django_assert_max_num_queries):
    for _ in range(8):
        session_for(alice)
    with django_assert_max_num_queries(5):
        assert as_alice.get("/api/sessions/").status_code == 200
