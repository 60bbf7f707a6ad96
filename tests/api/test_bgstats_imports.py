"""BG Stats imports on the API (api.md, "BG Stats imports"): 202 and the job at once, its progress
and summary after; a second import adds nothing; a failed import leaves nothing; an import whose
worker died is taken back; and with the database backend, the worker process runs it."""

import datetime
import io
import json

import pytest
from django.db import connection
from django.utils import timezone

from bench.bgstats_import import make_backup
from companion import services
from companion.models import BackupImport, Player, Result, Session
from companion.services import bgstats_imports
from tests.conftest import api_client
from tests.servers import database_url_of, worker_run


def post_file(client, data):
    raw = io.BytesIO(json.dumps(data).encode())
    raw.name = "backup.json"
    return client.post("/api/imports/bgstats/", {"file": raw}, format="multipart")


def test_an_upload_answers_with_its_job_and_the_job_with_its_summary(as_alice, alice):
    data = make_backup(plays=12, games=4, players=3, seed=3)
    answer = post_file(as_alice, data)
    assert answer.status_code == 202, answer.content
    job = answer.json()
    assert set(job) == {"id", "status", "done", "total", "summary"} and job["total"] == 12
    read = as_alice.get(f"/api/imports/{job['id']}/").json()
    assert read["status"] == "done" and read["done"] == 12
    assert read["summary"]["added"] == 12 and read["summary"]["already"] == 0
    assert read["summary"]["refused"] == [] and len(read["summary"]["new_players"]) == 3
    assert Session.objects.filter(owner=alice).count() == 12
    again = as_alice.get(f"/api/imports/{post_file(as_alice, data).json()['id']}/").json()
    assert (again["summary"]["added"], again["summary"]["already"]) == (0, 12)
    assert Session.objects.filter(owner=alice).count() == 12


def test_the_backup_may_be_the_body_itself(as_alice, alice):
    answer = as_alice.post("/api/imports/bgstats/",
                           json.dumps(make_backup(plays=3, games=1, players=2)),
                           content_type="application/json")
    assert answer.status_code == 202 and answer.json()["summary"]["added"] == 3


@pytest.mark.parametrize("body, sentence", [
    (b"not json", "This file is not JSON"),
    (b'{"collection": []}', "This file is not a BG Stats backup"),
])
def test_a_file_that_is_not_a_backup_is_a_400_and_no_job(as_alice, body, sentence):
    answer = as_alice.post("/api/imports/bgstats/", body, content_type="application/json")
    assert answer.status_code == 400 and sentence in answer.json()["detail"]
    assert not BackupImport.objects.exists()


def test_no_file_is_a_400_with_a_sentence(as_alice):
    answer = as_alice.post("/api/imports/bgstats/", {}, format="multipart")
    assert answer.status_code == 400 and "backup file" in answer.json()["detail"]


def test_only_its_owner_reads_an_import(as_alice, as_charlie, anonymous):
    job = post_file(as_alice, make_backup(plays=2, games=1, players=2)).json()
    assert as_charlie.get(f"/api/imports/{job['id']}/").status_code == 404
    assert anonymous.get(f"/api/imports/{job['id']}/").status_code == 401
    assert post_file(anonymous, make_backup(plays=2, games=1, players=2)).status_code == 401


def test_an_import_that_fails_leaves_nothing(as_alice, alice, monkeypatch):
    """Each play committed on its own, and the sixth breaks: the five before are taken back,
    with the roster players the import made."""
    services.player_create(owner=alice, name="Zoe")
    monkeypatch.setattr(bgstats_imports, "IMPORT_PART_SECONDS", 0)
    real, logged = bgstats_imports.play_prepare, []

    def breaks(**keywords):
        if len(logged) == 5:
            raise RuntimeError("the disk is full")
        logged.append(keywords)
        return real(**keywords)

    monkeypatch.setattr(bgstats_imports, "play_prepare", breaks)
    job = post_file(as_alice, make_backup(plays=10, games=3, players=3)).json()
    assert len(logged) == 5
    read = as_alice.get(f"/api/imports/{job['id']}/").json()
    assert read["status"] == "failed" and "nothing of it was kept" in read["summary"]["error"]
    assert not Session.objects.filter(owner=alice).exists() and not Result.objects.exists()
    assert list(Player.objects.filter(owner=alice).values_list("name", flat=True)) == ["Zoe"]


def test_an_import_whose_worker_died_is_taken_back_by_the_next(as_alice, alice):
    left = services.play_log(owner=alice, title="Azul", win="high",
                             players=[{"name": "Ann", "score": 3}, {"name": "Bo", "score": 2}])
    made = list(Player.objects.filter(owner=alice).values_list("id", flat=True))
    dead = BackupImport.objects.create(owner=alice, status="running", language="en", total=9,
                                       written={"sessions": [left.pk], "players": made})
    BackupImport.objects.filter(pk=dead.pk).update(
        updated_at=timezone.now() - bgstats_imports.IMPORT_ABANDONED
        - datetime.timedelta(seconds=1))
    post_file(as_alice, make_backup(plays=2, games=1, players=2))
    dead.refresh_from_db()
    assert dead.status == "failed" and "import the file again" in dead.summary["error"]
    assert not Session.objects.filter(pk=left.pk).exists()
    assert not Player.objects.filter(pk__in=made).exists()


@pytest.mark.django_db(transaction=True)
def test_the_worker_runs_what_the_api_queued(settings):
    """With the database backend (as `make run` has it), the answer comes before the import:
    queued, then done once the worker process (bin/worker) has run."""
    from tests.factories import UserFactory

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    alice = UserFactory(username="alice")
    client = api_client(user=alice)
    job = post_file(client, make_backup(plays=6, games=2, players=2)).json()
    assert (job["status"], job["done"], job["summary"]) == ("queued", 0, None)
    assert not Session.objects.exists()
    worker_run(database_url_of(connection))
    read = client.get(f"/api/imports/{job['id']}/").json()
    assert read["status"] == "done" and read["summary"]["added"] == 6
    assert Session.objects.filter(owner=alice).count() == 6


def test_a_play_another_import_wrote_meanwhile_is_counted_once(as_alice, alice, monkeypatch):
    """Between reading which plays this host has and writing its part, another import of the
    same file writes one of them: the part is written one play at a time, that one as "already"."""
    data = make_backup(plays=6, games=2, players=2)
    real, prepared = bgstats_imports.play_prepare, []

    def meanwhile(**keywords):
        prepared.append(keywords["source_key"])
        play = real(**keywords)
        if len(prepared) == 3:  # the other import commits this very play
            services.play_log(owner=alice, title="Elsewhere", source_key=keywords["source_key"],
                              players=[{"name": "Ann", "score": 1}])
        return play

    monkeypatch.setattr(bgstats_imports, "play_prepare", meanwhile)
    job = post_file(as_alice, data).json()
    summary = as_alice.get(f"/api/imports/{job['id']}/").json()["summary"]
    assert (summary["added"], summary["already"]) == (5, 1)
    keys = list(Session.objects.filter(owner=alice).values_list("source_key", flat=True))
    assert len(keys) == len(set(keys)) == 6
