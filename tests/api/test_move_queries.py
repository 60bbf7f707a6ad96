"""A phone's move costs the POST five queries at most (issue #15): the session with its guest and
its seats, the session written, the move, the announcement. On PostgreSQL the last three are one
statement (services._move_write_at_once): two in all."""

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
    if connection.vendor == "postgresql":
        assert len(statements(queries)) == 2, "\n".join(statements(queries))
        assert "pg_notify" in statements(queries)[-1]


def test_a_phone_of_another_game_is_still_refused_in_one_sentence(as_bob, alice):
    from tests.factories import session_for

    other = session_for(alice)
    response = as_bob.post(f"/api/sessions/{other.pk}/moves/",
                           {"type": "add", "seat": 1, "points": 3}, format="json")
    assert response.status_code == 403
    assert response.json()["detail"] == "This guest token belongs to another game."


def test_the_move_reads_the_session_as_the_orm_does(game, bob, rf):
    """access.session_access_to_play's one plain query gives the session, its guest, its seats
    and the newest seq as the ORM's queryset does, and nothing more is read after it."""
    from companion import services
    from companion.access import session_access, session_access_to_play
    from companion.api.views import sessions_with_seats

    services.move_play(session=game, type="add", data={"seat": 1, "points": 2},
                       actor=services.Actor(user=game.owner))
    request = rf.post("/", HTTP_X_GUEST_TOKEN=bob.token)
    request.user = None
    expected, expected_actor = session_access(
        request, game.pk, queryset=services.with_last_seq(sessions_with_seats()))
    with CaptureQueriesContext(connection) as queries:
        session, actor = session_access_to_play(request, game.pk)
        seats = [(seat.index, seat.name, seat.player_id) for seat in session.seats.all()]
        guest = (actor.guest.pk, actor.guest.seat, actor.guest.session_id, actor.seat)
    assert len(queries.captured_queries) == 1
    assert seats == [(seat.index, seat.name, seat.player_id) for seat in expected.seats.all()]
    # Every field as the ORM reads it: a field JSON does not carry as Python has it (a date)
    # would come as text, and fail here.
    assert [{field.attname: getattr(seat, field.attname) for field in seat._meta.concrete_fields}
            for seat in session.seats.all()] == [
        {field.attname: getattr(seat, field.attname) for field in seat._meta.concrete_fields}
        for seat in expected.seats.all()]
    assert guest == (expected_actor.guest.pk, expected_actor.guest.seat,
                     expected_actor.guest.session_id, expected_actor.seat)
    assert session.last_seq == expected.last_seq == 1
    assert {field.attname: getattr(session, field.attname)
            for field in session._meta.concrete_fields} == {
        field.attname: getattr(expected, field.attname)
        for field in expected._meta.concrete_fields}


def test_a_phones_move_is_planned_once_per_connection(as_bob, game, bob):
    """PostgreSQL binds the parameters and prepares a statement run five times on a connection
    (settings: server_side_binding, prepare_threshold), so a busy table's moves are not planned
    anew each time: planning was three quarters of their time in the database."""
    import pytest

    if connection.vendor != "postgresql":
        pytest.skip("statements are prepared on PostgreSQL only")
    url = f"/api/sessions/{game.pk}/moves/"
    for _ in range(6):
        response = as_bob.post(url, {"type": "add", "seat": 1, "points": 1}, format="json")
        assert response.status_code == 201
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("last_seq" in statement for statement in prepared), prepared  # the read
    assert any("pg_notify" in statement for statement in prepared), prepared  # the write
