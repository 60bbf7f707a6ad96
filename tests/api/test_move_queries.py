"""A phone's move costs the POST five queries at most (issue #15): the session with its guest,
the seats, the session written, the move, the announcement (PostgreSQL's NOTIFY)."""

from django.db import connection
from django.test.utils import CaptureQueriesContext


def statements(queries):
    # The test's own transaction turns the move's into a savepoint: not a query of the move.
    return [query["sql"] for query in queries.captured_queries
            if not query["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]


def test_a_phones_move_costs_five_queries_at_most(as_bob, game, bob):
    url = f"/api/sessions/{game.pk}/moves/"
    as_bob.post(url, {"type": "add", "seat": 1, "points": 2}, format="json")
    with CaptureQueriesContext(connection) as queries:
        response = as_bob.post(url, {"type": "add", "seat": 1, "points": 3}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["seq"] == 2 and body["session"]["version"] == 2
    assert [seat["name"] for seat in body["session"]["seats"]] == ["Vanessa", "Peter"]
    assert len(statements(queries)) <= 5, "\n".join(statements(queries))


def test_a_phone_of_another_game_is_still_refused_in_one_sentence(as_bob, alice):
    from tests.factories import session_for

    other = session_for(alice)
    response = as_bob.post(f"/api/sessions/{other.pk}/moves/",
                           {"type": "add", "seat": 1, "points": 3}, format="json")
    assert response.status_code == 403
    assert response.json()["detail"] == "This guest token belongs to another game."
