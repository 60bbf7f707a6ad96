"""The BG Stats pages: upload a backup, confirm who is who (nothing is written before), the
summary of what was added, matched and skipped; refusals are one sentence that writes nothing;
the history downloads in the backup's shape."""

import json
import re

import httpx
import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection

from bench.bgstats_import import make_backup
from companion import bgstats_backup, services
from companion.models import BackupImport, Player, Result, Session
from tests.factories import UserFactory
from tests.servers import ProcessServer, database_url_of, worker_run
from tests.views.helpers import assert_phone_ready, browser_for


def upload(client, data, name="backup.json"):
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    return client.post("/bgstats/import/", {"backup": SimpleUploadedFile(name, raw)})


def counts():
    return Session.objects.count(), Result.objects.count(), Player.objects.count()


def test_upload_confirm_then_import(alice):
    client = browser_for(alice)
    page = client.get("/bgstats/import/")
    assert page.status_code == 200
    assert_phone_ready(page)
    zoe = services.player_create(owner=alice, name="Zoe")
    before = counts()
    data = make_backup(plays=10, games=5, players=4, seed=5)
    response = upload(client, data)
    assert response.status_code == 302 and "/bgstats/import/confirm/" in response["Location"]
    confirm = client.get(response["Location"])
    html = confirm.content.decode()
    assert confirm.status_code == 200 and "Who is who" in html
    assert 'name="player-1"' in html and "New player: Player A" in html
    assert counts() == before  # nothing is written before the host confirms
    answer = client.post(response["Location"], {"player-1": str(zoe.pk), "player-2": ""})
    assert answer.status_code == 302 and "/bgstats/import/" in answer["Location"]
    answer = client.get(answer["Location"])
    text = answer.content.decode()
    assert answer.status_code == 200 and "10 plays added." in text
    assert "1 player matched to your roster: Zoe." in text and "3 new players" in text
    a_plays = sum(1 for play in data["plays"] for score in play["playerScores"]
                  if score["playerRefId"] == 1)
    assert Result.objects.filter(player=zoe).count() == a_plays
    # The same file again: nothing added.
    again = client.post(upload(client, data)["Location"], {"player-1": str(zoe.pk)},
                        follow=True)
    assert "0 plays added." in again.content.decode()
    assert "10 plays were imported before: not added again." in again.content.decode()


def test_a_new_player_who_shares_a_roster_name_is_a_player_of_their_own(alice):
    # The host says this backup's "Player A" is not the roster's Player A.
    roster_a = services.player_create(owner=alice, name="player a")
    data = make_backup(plays=6, games=3, players=4, seed=5)
    client = browser_for(alice)
    address = upload(client, data)["Location"]
    html = client.get(address).content.decode()
    assert "New player: Player A 2" in html and "New player: Player B<" in html
    text = client.post(address, {f"player-{n}": "" for n in range(1, 5)},
                       follow=True).content.decode()
    assert "0 players matched to your roster." in text
    assert not Result.objects.filter(player=roster_a).exists()
    a_plays = sum(1 for play in data["plays"] for score in play["playerScores"]
                  if score["playerRefId"] == 1)
    assert Result.objects.filter(player__name="Player A 2").count() == a_plays > 0


def test_refusals_are_one_sentence_and_write_nothing(alice):
    client = browser_for(alice)
    before = counts()
    for data, sentence in [
        (b"\x00not json at all", "This file is not JSON, so it is not a BG Stats backup"),
        ({"format": "companion-session", "moves": []},
         "This is a Companion export of one game, not a BG Stats backup"),
        ({"collection": [{"name": "Azul"}]}, "This file is not a BG Stats backup"),
    ]:
        response = upload(client, data)
        assert response.status_code == 400
        assert sentence in response.content.decode()
        assert response.content.decode().count('role="alert"') == 1
    assert counts() == before


def test_a_roster_choice_that_is_not_a_roster_players_number_is_a_new_player(alice):
    client = browser_for(alice)
    zoe = services.player_create(owner=alice, name="Zoe")
    location = upload(client, make_backup(plays=3, games=1, players=2, seed=3))["Location"]
    # "²" is a digit to Python's str.isdigit, and not a number int() reads (it was a 500).
    answer = client.post(location, {"player-1": "²", "player-2": f" {zoe.pk} "}, follow=True)
    assert answer.status_code == 200 and "3 plays added." in answer.content.decode()
    assert "1 player matched to your roster: Zoe." in answer.content.decode()


def test_a_file_too_large_is_refused_before_it_is_read(alice, settings, monkeypatch):
    monkeypatch.setattr(bgstats_backup, "BACKUP_MAX_BYTES", 100)
    response = upload(browser_for(alice), make_backup(plays=3, games=1, players=2))
    assert response.status_code == 400
    assert "a BG Stats backup of up to 0 MB can be imported" in response.content.decode()


def test_a_confirm_page_of_another_host_or_expired_writes_nothing(alice, charlie):
    location = upload(browser_for(alice), make_backup(plays=3, games=2, players=2))["Location"]
    before = counts()
    response = browser_for(charlie).post(location, {})
    assert response.status_code == 410 and "upload the file again" in response.content.decode()
    assert counts() == before


def test_the_history_downloads_in_the_backup_shape(alice):
    services.play_log(owner=alice, game="quixote", location="Home",
                      players=[{"name": "Ana", "score": 40}, {"name": "Ben", "score": 52}])
    response = browser_for(alice).get("/bgstats/export.json")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="companion-bgstats-')
    data = json.loads(response.content)
    assert [game["name"] for game in data["games"]] == ["Don Quixote"]
    assert [location["name"] for location in data["locations"]] == ["Home"]
    scores = data["plays"][0]["playerScores"]
    names = {player["id"]: player["name"] for player in data["players"]}
    assert [(names[s["playerRefId"]], s["score"], s["winner"]) for s in scores] == [
        ("Ana", "40", False), ("Ben", "52", True)]
    assert browser_for().get("/bgstats/export.json").status_code == 302  # sign in first


def test_the_history_page_links_to_the_import(alice):
    assert 'href="/bgstats/import/"' in browser_for(alice).get("/history/").content.decode()


@pytest.mark.django_db(transaction=True)
def test_an_upload_waits_in_the_database_for_another_process_after_a_restart():
    """Uploaded to one server process, which then stops; confirmed on another: the backup waited
    in the database, not in the memory of the process that took it."""
    alice = UserFactory(username="alice")
    # In the server's own hashing (the tests' is MD5, which the server does not take).
    alice.password = PBKDF2PasswordHasher().encode("a long table password", "salt",
                                                   iterations=1000)
    alice.save(update_fields=["password"])
    raw = json.dumps(make_backup(plays=4, games=2, players=3, seed=2)).encode()

    def signed_in(server):
        client = httpx.Client(base_url=server.url, timeout=20)
        page = client.get("/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
        signed = client.post("/login/", data={"username": "alice", "csrfmiddlewaretoken": token,
                                              "password": "a long table password"})
        assert signed.status_code == 302
        return client, client.cookies["csrftoken"]

    url = database_url_of(connection)
    first = ProcessServer(url)
    try:
        client, token = signed_in(first)
        answer = client.post("/bgstats/import/", data={"csrfmiddlewaretoken": token},
                             files={"backup": ("backup.json", raw, "application/json")})
        assert answer.status_code == 302, answer.text[:300]
        confirm = answer.headers["Location"]
    finally:
        first.stop()
    second = ProcessServer(url)
    try:
        client, token = signed_in(second)
        assert "Who is who" in client.get(confirm).text
        done = client.post(confirm, data={"csrfmiddlewaretoken": token})
        assert done.status_code == 302, done.text[:300]
        assert 'data-status="queued"' in client.get(done.headers["Location"]).text
        worker_run(url)  # the import runs in the worker, not in the server
        assert "4 plays added." in client.get(done.headers["Location"]).text
    finally:
        second.stop()
    assert Session.objects.filter(owner=alice).count() == 4


def test_an_account_keeps_its_newest_uploads_only(alice):
    client = browser_for(alice)
    waiting = [upload(client, make_backup(plays=2, games=1, players=2, seed=n))["Location"]
               for n in range(services.UPLOADS_KEPT + 1)]
    gone = client.get(waiting[0])
    assert gone.status_code == 410 and "upload the file again" in gone.content.decode()
    assert all(client.get(url).status_code == 200 for url in waiting[1:])


def test_an_upload_an_hour_old_is_no_longer_waiting(alice):
    from datetime import timedelta

    from django.utils import timezone

    from companion.models import BackupUpload

    client = browser_for(alice)
    url = upload(client, make_backup(plays=2, games=1, players=2, seed=1))["Location"]
    BackupUpload.objects.update(created_at=timezone.now() - timedelta(hours=1, minutes=1))
    assert client.get(url).status_code == 410


def test_another_account_cannot_confirm_an_upload(alice, charlie):
    url = upload(browser_for(alice), make_backup(plays=2, games=1, players=2, seed=1))["Location"]
    assert browser_for(charlie).get(url).status_code == 410


def test_a_backup_with_two_players_of_one_id_is_refused():
    data = make_backup(plays=2, games=1, players=2, seed=1)
    data["players"][1]["id"] = data["players"][0]["id"]
    from companion.errors import Invalid

    with pytest.raises(Invalid) as refused:
        bgstats_backup.read_backup(json.dumps(data).encode())
    assert refused.value.message == (f"This BG Stats backup is damaged: two of its players "
                                     f"have the id {data['players'][0]['id']}.")


def test_the_import_page_shows_its_progress_until_the_summary(alice, charlie, settings):
    """Queued for the worker: the page counts plays done of plays in the file, and an htmx poll
    gets that part alone; once done, the same address is the summary."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    client = browser_for(alice)
    confirm = upload(client, make_backup(plays=7, games=2, players=2))["Location"]
    progress = client.post(confirm, {})["Location"]
    page = client.get(progress).content.decode()
    assert "0 of 7 plays imported." in page and 'hx-trigger="every 1s"' in page
    polled = client.get(progress, headers={"HX-Request": "true"}).content.decode()
    assert polled.lstrip().startswith('<section class="card" id="bgstats-summary"')
    job = BackupImport.objects.get(owner=alice)
    services.bgstats_import_run(pk=job.pk)
    done = client.get(progress, headers={"HX-Request": "true"}).content.decode()
    assert "7 plays added." in done and "hx-trigger" not in done
    assert browser_for(charlie).get(progress).status_code == 404


def test_a_play_with_no_players_is_skipped_and_named_the_others_imported(alice):
    client = browser_for(alice)
    data = make_backup(plays=4, games=2, players=3, seed=1)
    data["plays"][1]["playerScores"] = []
    confirm = upload(client, data)["Location"]
    assert "The backup holds 4 plays." in client.get(confirm).content.decode()
    text = client.post(confirm, {}, follow=True).content.decode()
    assert "3 plays added." in text and "1 play skipped:" in text
    assert "It has no players, so it cannot be counted." in text
