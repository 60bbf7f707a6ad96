"""The bench seats its tables under its own host: a one-table probe (bench/move_cost.py,
bench/profile_move.py) run beside bench/all.py must not delete the run's tables."""

import pytest
from django.db import connections

from bench import live as bench
from companion.models import Session


@pytest.fixture(autouse=True)
def connections_stay_open(monkeypatch):
    # seat_tables closes its connections for the servers that follow; in a test the database
    # lives in the connection's transaction.
    monkeypatch.setattr(connections, "close_all", lambda: None)


@pytest.mark.django_db
def test_a_probes_table_leaves_the_runs_tables_alone():
    run = bench.seat_tables("pad", 2, 3)
    probe = bench.seat_tables("pad", 1, 3, host_name=bench.PROBE_HOST_NAME)
    assert set(Session.objects.values_list("pk", flat=True)) == {
        *(table["id"] for table in run), probe[0]["id"]}


@pytest.mark.django_db
def test_seating_again_replaces_the_hosts_own_tables():
    first = bench.seat_tables("pad", 2, 3)
    again = bench.seat_tables("pad", 1, 3)
    assert not Session.objects.filter(pk__in=[table["id"] for table in first]).exists()
    assert Session.objects.filter(pk=again[0]["id"]).exists()
