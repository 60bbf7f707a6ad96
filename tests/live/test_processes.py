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


def database_connections(name):
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [name])
        return cursor.fetchone()[0]


def test_a_hundred_reconnects_leave_no_connections_or_streams_behind(postgres):
    alice = UserFactory(username="alice")
    game = session_for(alice)
    server = ProcessServer(postgres)
    url = f"{server.url}/api/sessions/{game.pk}/events/"
    name = connection.settings_dict["NAME"]
    try:
        with httpx.Client(timeout=5) as client:
            def connect_once():
                with client.stream("GET", url, headers=host_token(alice)) as response:
                    assert response.status_code == 200
                    for line in response.iter_lines():
                        if line.startswith("data: "):
                            return  # leaving the block drops the connection

            connect_once()  # warm up: the pool and the listener open their connections
            time.sleep(0.5)
            before = database_connections(name)
            for _ in range(100):
                connect_once()
            # The server hears the last disconnects on its own time (a loaded machine: seconds):
            # asked until every stream is gone and the connections are back, for 15 s at most.
            deadline = time.monotonic() + 15
            while True:
                after = database_connections(name)
                live = client.get(f"{server.url}/api/health/").json()["live"]
                settled = after <= before and live["streams"] == 0 and live["sessions"] == 0
                if settled or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
        assert after <= before, f"{before} connections before, {after} after"
        assert live["streams"] == 0 and live["sessions"] == 0
        assert live["listener"] is True
    finally:
        server.stop()
