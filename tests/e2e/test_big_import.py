"""A BG Stats backup of 10,000 plays, 200 players and 300 games imported through the API by the
background worker (bin/worker, as `make run` starts it) while a table plays on a phone: the move
answers within a second, the figures after equal a plain recount of the file, and the same file
again adds nothing (issue 50)."""

import json
import subprocess
import time

import httpx
import pytest
from django.db import connection
from django.db.models import Count, Q
from playwright.sync_api import expect

from bench.bgstats_import import make_backup
from companion import services, stats
from companion.models import BackupImport, Player, Result
from tests.factories import session_for
from tests.servers import ROOT, database_url_of
from tests.test_bgstats_import import recount

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def imported(client, raw):
    """Post the backup; the job the answer gives."""
    job = client.post("/api/imports/bgstats/", content=raw,
                      headers={"Content-Type": "application/json"})
    assert job.status_code == 202, job.text[:300]
    return job.json()


def job_when(client, job, ready, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        read = client.get(f"/api/imports/{job['id']}/").json()
        if ready(read):
            return read
        time.sleep(0.2)  # polling the API, as a client would: no page signal to wait on
    raise AssertionError(f"the import did not get there: {read}")


def test_ten_thousand_plays_import_while_the_table_plays(host_phone, alice, live_server,
                                                         settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    data = make_backup(plays=10_000, games=300, players=200, seed=50)
    raw = json.dumps(data).encode()
    session = session_for(alice, game="pad", players=["Ana", "Ben"],
                          options={"game": "Hearts", "rounds": 3})
    page = host_phone()
    page.goto(f"/s/{session.pk}/")
    client = httpx.Client(base_url=live_server.url, timeout=30,
                          headers={"Authorization": f"Token {services.token_for(user=alice)}"})
    worker = subprocess.Popen([str(ROOT / "bin" / "worker"), "--no-startup-delay",
                               "--interval", "0.2", "--verbosity", "0"], cwd=ROOT,
                              env={"DATABASE_URL": database_url_of(connection),
                                   "DJANGO_SETTINGS_MODULE": "companion.settings",
                                   "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    try:
        job = imported(client, raw)
        assert job["status"] in ("queued", "running") and job["total"] == 10_000
        job_when(client, job, lambda read: read["done"] > 0, 60)

        # A round saved on the table's page while the worker imports.
        form = page.locator("#pad-round")
        for seat, points in enumerate((5, 3)):
            form.locator(f"#pad-score-{seat}").fill(str(points))
        started = time.monotonic()
        with page.expect_response(lambda answer: answer.request.method == "POST") as saved:
            form.get_by_role("button", name="Save round 1").click()
        answered = time.monotonic() - started
        assert saved.value.ok
        expect(page.locator(".htmx-request")).to_have_count(0)
        during = client.get(f"/api/imports/{job['id']}/").json()
        assert during["status"] == "running", during  # the move was played during the import
        assert answered < 1, answered

        done = job_when(client, job, lambda read: read["status"] in ("done", "failed"), 240)
        assert done["status"] == "done" and done["summary"]["refused"] == []
        assert done["summary"]["added"] == 10_000
        players, _per_game = recount(data)
        assert len(players) == len(done["summary"]["new_players"]) > 190
        # Each player's plays and wins, as their page counts them (stats.player_stats sums
        # these rows per game), in one query for the 200.
        counted = {row["player__name"]: (row["plays"], row["wins"]) for row in
                   Result.objects.filter(owner=alice).values("player__name")
                   .annotate(plays=Count("id"), wins=Count("id", filter=Q(winner=True)))}
        assert {name: counted[name] for name in players} == \
            {name: (row["plays"], row["wins"]) for name, row in players.items()}
        ana = Player.objects.get(owner=alice, name="Player A")
        assert (stats.player_stats(player=ana)["plays"], stats.player_stats(player=ana)["wins"]) \
            == counted["Player A"]

        again = imported(client, raw)
        again = job_when(client, again, lambda read: read["status"] == "done", 120)
        assert (again["summary"]["added"], again["summary"]["already"]) == (0, 10_000)
    finally:
        worker.kill()  # idle by now, unless the test failed in the middle of an import
        worker.wait(10)
    assert BackupImport.objects.filter(status="done").count() == 2
