"""The broker across server processes on one PostgreSQL, and streams that come and go."""

import json
import time

import httpx
import pytest
from django.db import connection

from tests.factories import UserFactory, session_for
from tests.live.test_events import host_token, next_event, open_stream
from tests.servers import ProcessServer, database_url_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql":
        pytest.skip("several server processes need PostgreSQL (CI runs it)")
    return database_url_of(connection)


def test_a_move_posted_to_one_process_is_announced_by_the_other_within_a_second(postgres):
    alice = UserFactory(username="alice")
    # A product game: the server processes know only the installed games.
    game = session_for(alice, game="quixote", options={"deck": "app"})
    first, second = ProcessServer(postgres), ProcessServer(postgres)
    try:
        found, stop = open_stream(f"{second.url}/api/sessions/{game.pk}/events/",
                                  host_token(alice))
        assert json.loads(next_event(found, "version", timeout=10)[1]) == {"version": 0}
        posted = time.monotonic()
        response = httpx.post(f"{first.url}/api/sessions/{game.pk}/moves/",
                              json={"type": "castles"},
                              headers=host_token(alice))
        assert response.status_code == 201
        _, data, seen = next_event(found, "version")
        assert json.loads(data) == {"version": 1}
        assert seen - posted < 1.0, f"announced after {seen - posted:.3f} s"
        stop.set()
    finally:
        first.stop()
        second.stop()


SERVER_APP = "companion-test-server"  # libpq's PGAPPNAME, for the server process's connections


def listeners(name):
    """The backends of the live listeners on the test database ('companion-live')."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s"
                       " AND application_name = 'companion-live'", [name])
        return {row[0] for row in cursor.fetchall()}


def server_connections(name, others):
    """The server process's connections to the test database: its pool's (named by PGAPPNAME)
    and its listener's (which names itself): every listener but `others`, those that were there
    before the server started (this worker's in-process test server may hold one)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s"
                       " AND application_name = %s", [name, SERVER_APP])
        pool = cursor.fetchone()[0]
    return pool + len(listeners(name) - others)


def test_a_hundred_reconnects_leave_no_connections_or_streams_behind(postgres):
    """No stream keeps a connection: once the server has heard the last disconnect, none of its
    pool's is out but the health request's own, and the database holds no more connections than
    the pool's and the listener's (the pool may have grown meanwhile, within its bounds, and it
    keeps what it grew for a while: counting connections before and after cannot tell a leak)."""
    alice = UserFactory(username="alice")
    game = session_for(alice)
    name = connection.settings_dict["NAME"]
    others = listeners(name)
    server = ProcessServer(postgres, env={"PGAPPNAME": SERVER_APP})
    url = f"{server.url}/api/sessions/{game.pk}/events/"
    try:
        with httpx.Client(timeout=5) as client:
            def connect_once():
                with client.stream("GET", url, headers=host_token(alice)) as response:
                    assert response.status_code == 200
                    for line in response.iter_lines():
                        if line.startswith("data: "):
                            return  # leaving the block drops the connection

            for _ in range(100):
                connect_once()
            # The server hears the last disconnects on its own time (a loaded machine: seconds):
            # asked until every stream is gone and the connections are back, for 15 s at most.
            deadline = time.monotonic() + 15
            while True:
                found = client.get(f"{server.url}/api/health/").json()
                live, pool = found["live"], found["pool"]
                held = server_connections(name, others)
                settled = live["streams"] == 0 and live["sessions"] == 0 and pool["in_use"] <= 1
                if settled and held <= pool["size"] + 1 or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
        assert live["streams"] == 0 and live["sessions"] == 0
        assert pool["in_use"] <= 1, f"{pool['in_use']} of the pool's connections still out"
        assert held <= pool["size"] + 1, (
            f"{held} connections to the database, the pool holds {pool['size']} (+1: the listener)")
        assert live["listener"] is True
    finally:
        server.stop()
