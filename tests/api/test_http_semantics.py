"""HTTP as a client or a cache reads it: a session's answers are private to who asked and vary on
every credential and the language; a filter that names nothing is a 400; pages hold `page_size`
up to 100; the roster pages as the sessions do."""

import pytest

from companion.models import Player
from tests.factories import session_for

pytestmark = pytest.mark.django_db
CREDENTIALS_AND_LANGUAGE = {"authorization", "x-guest-token", "cookie", "accept-language"}


def _varies(response):
    return {name.strip().lower() for name in response["Vary"].split(",")}


@pytest.mark.parametrize("tail", ["", "moves/", "export/"])
def test_a_sessions_answers_are_private_and_vary_on_who_asks(as_alice, alice, tail):
    session = session_for(alice)
    answer = as_alice.get(f"/api/sessions/{session.pk}/{tail}")
    assert answer.status_code == 200
    assert {"private", "no-cache"} <= {part.strip() for part in
                                       answer["Cache-Control"].split(",")}
    assert _varies(answer) >= CREDENTIALS_AND_LANGUAGE


def test_a_moves_answer_and_a_refusal_are_private_too(as_alice, alice):
    session = session_for(alice)
    url = f"/api/sessions/{session.pk}/moves/"
    for answer in (as_alice.post(url, {"type": "add", "seat": 0, "points": 1}, format="json"),
                   as_alice.post(url, {"type": "add", "seat": 9, "points": 1}, format="json")):
        assert "private" in answer["Cache-Control"]
        assert _varies(answer) >= CREDENTIALS_AND_LANGUAGE


@pytest.mark.parametrize("query, field", [("game=chess", "game"), ("status=won", "status")])
def test_a_filter_that_names_nothing_is_a_400(as_alice, alice, query, field):
    session_for(alice)
    answer = as_alice.get(f"/api/sessions/?{query}")
    assert answer.status_code == 400 and field in answer.json()["fields"]
    assert "There is no" in answer.json()["detail"]


def test_known_filters_still_filter(as_alice, alice):
    session_for(alice)
    assert as_alice.get("/api/sessions/?game=tiny&status=active").json()["count"] == 1
    assert as_alice.get("/api/sessions/?status=finished").json()["count"] == 0


def test_page_size_is_honoured_up_to_100(as_alice, alice):
    for _ in range(3):
        session_for(alice)
    assert len(as_alice.get("/api/sessions/?page_size=2").json()["results"]) == 2
    assert as_alice.get("/api/sessions/?page_size=2&page=2").json()["next"] is None
    assert len(as_alice.get("/api/sessions/?page_size=500").json()["results"]) == 3
    for wrong in ("0", "x", "-3"):
        assert as_alice.get(f"/api/sessions/?page_size={wrong}").status_code == 400


def test_the_roster_pages_as_the_sessions_do(as_alice, alice):
    Player.objects.bulk_create(Player(owner=alice, name=f"Player {n:02}") for n in range(25))
    first = as_alice.get("/api/players/").json()
    assert first["count"] == 25 and len(first["results"]) == 20 and first["next"]
    assert [row["name"] for row in first["results"]][:2] == ["Player 00", "Player 01"]
    rest = as_alice.get("/api/players/?page=2").json()
    assert len(rest["results"]) == 5 and rest["next"] is None
    assert len(as_alice.get("/api/players/?page_size=100").json()["results"]) == 25
