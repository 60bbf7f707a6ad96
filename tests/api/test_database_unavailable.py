"""A move that cannot have the database (SQLite locked by another writer past its busy timeout;
on PostgreSQL, the session's row held past the lock timeout) answers 503 with Retry-After and a
sentence, on the API and on the page, and nothing of it is applied."""

import sqlite3
import threading

import pytest
from django.db import connection

from companion.models import Move
from tests.api.test_bad_input import refused_with_a_sentence
from tests.factories import session_for
from tests.views.helpers import browser_for


def _held(session):
    """Hold the database (SQLite) or the session's row (PostgreSQL) from another connection,
    and make this connection's wait for it short. Returns the release."""
    if connection.vendor == "sqlite":
        other = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        connection.close()
        connection.settings_dict["OPTIONS"]["timeout"] = 0.2
        return lambda: other.execute("ROLLBACK")
    import psycopg

    settings = connection.settings_dict
    other = psycopg.connect(host=settings["HOST"] or "127.0.0.1", port=settings["PORT"] or 5432,
                            user=settings["USER"], dbname=settings["NAME"])
    other.execute("SELECT 1 FROM companion_session WHERE id = %s FOR UPDATE", [session.pk])
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '200ms'")

    def release():
        other.close()
        with connection.cursor() as cursor:  # a pooled connection keeps its settings
            cursor.execute("RESET lock_timeout")

    return release


@pytest.fixture
def restore_options():
    options = dict(connection.settings_dict["OPTIONS"])
    yield
    connection.settings_dict["OPTIONS"] = options
    connection.close()


@pytest.mark.django_db(transaction=True)
def test_a_move_the_database_cannot_take_now_is_503_and_not_applied(as_alice, alice,
                                                                   restore_options):
    session = session_for(alice)
    browser = browser_for(alice)
    release = _held(session)
    try:
        answer = as_alice.post(f"/api/sessions/{session.pk}/moves/",
                               {"type": "add", "seat": 0, "points": 5}, format="json")
        page = browser.post(f"/s/{session.pk}/move/", {"type": "add", "seat": "0", "points": "5"})
    finally:
        release()
    body = refused_with_a_sentence(answer, status=503)
    assert body["code"] == "unavailable" and int(answer["Retry-After"]) > 0
    assert page.status_code == 503 and int(page["Retry-After"]) > 0
    assert "wait a few seconds" in page.content.decode()
    assert not Move.objects.exists()
    # Once free, the same move goes through.
    assert as_alice.post(f"/api/sessions/{session.pk}/moves/",
                         {"type": "add", "seat": 0, "points": 5}, format="json").status_code == 201


def test_a_held_lock_is_seen_from_a_thread_too():
    """The helper holds what it says: a second SQLite connection cannot write meanwhile."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's file lock")
    errors = []

    def write(path):
        try:
            sqlite3.connect(path, timeout=0.1).execute("CREATE TABLE t (x)")
        except sqlite3.OperationalError as error:
            errors.append(error)

    path = "/tmp/companion-lock-check.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    thread = threading.Thread(target=write, args=(path,))
    thread.start()
    thread.join()
    holder.execute("ROLLBACK")
    assert errors and "locked" in str(errors[0])
