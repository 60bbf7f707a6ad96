"""Every list a request or a file holds is bounded, and the bound is checked before any of the list
is read: a list of 100,000 names is a 400 with a sentence that looked nothing up, and one a little
too long for the game is refused before any name is looked up or any move replayed."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from companion import bgstats_backup, inputs
from companion.errors import Invalid
from tests.api.test_bad_input import refused_with_a_sentence, world

HUGE = 100_000


def _roster_reads(queries):
    """The statements that looked a player up or wrote anything."""
    return [query["sql"] for query in queries.captured_queries
            if '"companion_player"' in query["sql"]
            or query["sql"].startswith(("INSERT", "UPDATE", "DELETE"))]


def _post(client, path, body):
    before = world()
    with CaptureQueriesContext(connection) as queries:
        answer = refused_with_a_sentence(client.post(path, body, format="json"))
    assert world() == before
    assert _roster_reads(queries) == []
    return answer["detail"]


@pytest.mark.parametrize("path, body", [
    ("/api/sessions/", {"game": "pad", "players": [f"P{n}" for n in range(HUGE)],
                        "options": {"game": "Carcassonne"}}),
    ("/api/plays/", {"game": "", "title": "Carcassonne",
                     "players": [f"P{n}" for n in range(HUGE)]}),
    # (a body of 100,000 seats written whole is over the size any request may have)
    ("/api/sessions/import/", {"game": "pad", "seed": "abc", "moves": [], "seats": [0] * HUGE}),
])
def test_a_list_of_a_hundred_thousand_is_refused_before_it_is_read(as_alice, path, body):
    detail = _post(as_alice, path, body)
    assert detail == f"A list here holds {inputs.MAX_ITEMS} items at most; this one has {HUGE}."


def test_a_move_with_a_hundred_thousand_scores_is_refused(as_alice, alice):
    from tests.factories import session_for

    session = session_for(alice, game="pad", players=("Ana", "Bea"), options={"game": "X"})
    detail = _post(as_alice, f"/api/sessions/{session.pk}/moves/",
                   {"type": "round", "scores": list(range(HUGE))})
    assert str(inputs.MAX_ITEMS) in detail


@pytest.mark.parametrize("path, body", [
    ("/api/sessions/", {"game": "pad", "players": [f"P{n}" for n in range(2000)],
                        "options": {"game": "Carcassonne"}}),
    ("/api/plays/", {"game": "", "title": "Carcassonne",
                     "players": [{"name": f"P{n}", "score": n} for n in range(2000)]}),
    ("/api/sessions/import/", {"game": "pad", "seed": "abc", "options": {"game": "X"},
                               "moves": [{"seq": n, "type": "round", "data": {}}
                                         for n in range(1, 2001)],
                               "seats": [{"index": n, "name": f"P{n}"} for n in range(2000)]}),
])
def test_more_players_than_the_game_seats_are_refused_before_any_is_looked_up(as_alice, path,
                                                                               body):
    detail = _post(as_alice, path, body)
    assert detail == "Any game is played by 1 to 12 players, not 2000."


def _backup(plays=1, players_per_play=2):
    players = [{"id": n, "name": f"P{n}"} for n in range(max(players_per_play, 1))]
    play = {"gameRefId": 1, "playDate": "2026-03-02 19:30:00",
            "playerScores": [{"playerRefId": n, "score": "1"} for n in range(players_per_play)]}
    return json.dumps({"games": [{"id": 1, "name": "Catan"}], "players": players,
                       "plays": [play] * plays}).encode()


def test_a_backup_of_too_many_plays_is_refused_before_a_play_is_read():
    most = bgstats_backup.BACKUP_MOST["plays"]
    with pytest.raises(Invalid) as refused:
        bgstats_backup.read_backup(_backup(plays=most + 1))
    assert refused.value.message == (f"This backup lists {most + 1} plays; an import takes "
                                     f"{most} at most.")
    assert len(bgstats_backup.read_backup(_backup(plays=3))["plays"]) == 3


def test_a_backup_play_of_too_many_players_is_refused():
    most = bgstats_backup.PLAY_SEATS_MOST
    read = bgstats_backup.read_backup(_backup(players_per_play=most + 1))
    assert not read["plays"]
    assert all(why == f"It names {most + 1} players; a play has {most} at most."
               for _label, why in read["refused"])


def test_a_page_form_of_thousands_of_fields_is_a_400(client, alice):
    client.force_login(alice)
    response = client.post("/new/?game=pad", {f"player{n}": "x" for n in range(2000)})
    assert response.status_code == 400
