"""The API's finished Session carries its BG Stats link (share.bgstats), documented in the
schema; a session in play carries none."""

import datetime

from companion import bgstats, services
from tests.factories import session_for


def test_a_finished_session_carries_its_bgstats_link(as_alice, alice):
    session = services.play_log(owner=alice, game="rabbits", played_at=datetime.date(2026, 5, 1),
                                players=[{"name": "Ana", "score": 3}, {"name": "Ben", "score": 5}])
    answer = as_alice.get(f"/api/sessions/{session.pk}/").json()
    link = answer["share"]["bgstats"]
    assert link == bgstats.send_link(session)
    play = bgstats.data_of(link)
    assert play["sourcePlayId"] == f"session-{session.pk}"
    assert [(p["name"], p["winner"]) for p in play["players"]] == [("Ana", False), ("Ben", True)]
    listed = as_alice.get("/api/sessions/").json()["results"]
    assert next(row for row in listed if row["id"] == session.pk)["share"]["bgstats"] == link


def test_a_session_in_play_has_no_share(as_alice, alice):
    session = session_for(alice, game="rabbits", players=("Ana", "Ben"))
    assert as_alice.get(f"/api/sessions/{session.pk}/").json()["share"] is None


def test_the_schema_documents_share(as_alice):
    schema = as_alice.get("/api/schema/?format=json").json()
    session = schema["components"]["schemas"]["Session"]["properties"]
    assert "share" in session
    share = schema["components"]["schemas"]["Share"]["properties"]["bgstats"]
    assert share["format"] == "uri" and "create-play" in share["description"]
