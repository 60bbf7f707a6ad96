"""A phone's move through the API: one request, and the statements of the one write path
(services.move_play), named."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext


def statements(queries):
    # The test's own transaction turns the move's into a savepoint: not a query of the move.
    return [query["sql"] for query in queries.captured_queries
            if not query["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]


def kinds(sql):
    """What each statement does, in order: the access read, the lock, the writes, the answer's
    seats and the announcement."""
    named = []
    for text in sql:
        if text.startswith("NOTIFY"):
            named.append("notify")
        elif "FOR UPDATE" in text or (connection.vendor == "sqlite"  # it locks the whole file
                                      and text.startswith("SELECT") and "LIMIT 21" in text):
            named.append("lock")
        elif text.startswith("INSERT") and '"companion_move"' in text:
            named.append("insert move")
        elif text.startswith("UPDATE") and '"companion_session"' in text:
            named.append("update session")
        elif text.startswith("SELECT") and 'FROM "companion_seat"' in text:
            named.append("seats")
        elif text.startswith("SELECT") and 'FROM "companion_session"' in text:
            named.append("access")
        else:
            named.append(text)
    return named


def test_a_phones_move_is_the_one_write_path(as_bob, game, bob,
                                             django_capture_on_commit_callbacks):
    url = f"/api/sessions/{game.pk}/moves/"
    as_bob.post(url, {"type": "add", "seat": 1, "points": 2}, format="json")
    with (CaptureQueriesContext(connection) as queries,
          django_capture_on_commit_callbacks(execute=True)):
        response = as_bob.post(url, {"type": "add", "seat": 1, "points": 3}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["seq"] == 2 and body["session"]["version"] == 2
    assert [seat["name"] for seat in body["session"]["seats"]] == ["Vanessa", "Peter"]
    expected = ["access", "lock", "insert move", "update session", "seats"]
    if connection.vendor == "postgresql":
        expected.append("notify")  # the other broker wakes this process's streams in memory
    assert kinds(statements(queries)) == expected, "\n".join(statements(queries))


def test_a_phone_of_another_game_is_still_refused_in_one_sentence(as_bob, alice):
    from tests.factories import session_for

    other = session_for(alice)
    response = as_bob.post(f"/api/sessions/{other.pk}/moves/",
                           {"type": "add", "seat": 1, "points": 3}, format="json")
    assert response.status_code == 403
    assert response.json()["detail"] == "This guest token belongs to another game."


def test_the_page_and_the_api_write_a_move_through_one_function(client, as_bob, game, bob,
                                                                monkeypatch):
    from companion import services

    calls = []
    move_play = services.move_play

    def spy(**kwargs):
        calls.append(kwargs["actor"])
        return move_play(**kwargs)

    monkeypatch.setattr(services, "move_play", spy)
    response = as_bob.post(f"/api/sessions/{game.pk}/moves/",
                           {"type": "add", "seat": 1, "points": 3}, format="json")
    assert response.status_code == 201
    client.force_login(game.owner)
    response = client.post(f"/s/{game.pk}/move/", {"type": "add", "seat": "0", "points": "4"})
    assert response.status_code == 302
    assert [actor.is_host for actor in calls] == [False, True]
    game.refresh_from_db()
    assert game.version == 2


def test_a_phones_move_is_planned_once_per_connection(as_bob, game, bob):
    """PostgreSQL binds the parameters and prepares a statement run five times on a connection
    (settings: server_side_binding, prepare_threshold), so a busy table's moves are not planned
    anew each time."""
    if connection.vendor != "postgresql":
        pytest.skip("statements are prepared on PostgreSQL only")
    url = f"/api/sessions/{game.pk}/moves/"
    for _ in range(6):
        response = as_bob.post(url, {"type": "add", "seat": 1, "points": 1}, format="json")
        assert response.status_code == 201
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("FOR UPDATE" in statement for statement in prepared), prepared
