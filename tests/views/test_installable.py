"""The installable app (issue 14): the manifest and its icons, the service worker served from the
root, and static files under hashed names, precompressed, cached for years once collected."""

import io
import json
import os
import re
import subprocess
import sys

import pytest
from django.core.management import call_command
from django.test import override_settings
from PIL import Image

from companion import pwa
from tests.factories import session_for
from tests.views.helpers import browser_for, guest_browser

YEAR = 365 * 24 * 3600


def static_body(response):
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.mark.django_db
def test_the_manifest_names_the_app_its_start_and_icons_of_each_size():
    client = browser_for()
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["short_name"] == "Companion" and manifest["name"]
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    icons = {(icon["sizes"], icon["purpose"]): icon for icon in manifest["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for (sizes, _purpose), icon in icons.items():
        image = client.get(icon["src"])
        assert image.status_code == 200, icon["src"]
        assert image["Content-Type"] == icon["type"] == "image/png"
        width, height = Image.open(io.BytesIO(static_body(image))).size
        assert f"{width}x{height}" == sizes


@pytest.mark.django_db
def test_every_page_links_the_manifest_and_registers_the_worker_from_a_script_of_its_own(alice):
    session = session_for(alice)
    for client, path in [(browser_for(), "/"), (browser_for(alice), "/new/"),
                         (browser_for(alice), f"/s/{session.pk}/"),
                         (guest_browser(session, seat=1), f"/s/{session.pk}/")]:
        html = client.get(path).content.decode()
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html, path
        assert re.search(r'<script src="/static/js/pwa\.js" data-worker="/sw\.js" defer>', html)
    table = browser_for(alice).get(f"/s/{session.pk}/").content.decode()
    # offline.js after table.js, its sentences on its tag.
    assert table.index("js/table.js") < table.index("js/offline.js")
    assert 'data-kept="Offline: your move is kept on this phone' in table


@pytest.mark.django_db
def test_the_worker_is_served_from_the_root_never_kept_without_asking_and_lists_the_shell():
    client = browser_for()
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", body).group(1))
    assert "/static/css/companion.css" in shell and "/static/js/offline.js" in shell
    for url in shell:
        assert client.get(url).status_code == 200, url
    # Asked again with its ETag: nothing to send.
    again = client.get("/sw.js", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


@pytest.mark.django_db
def test_collected_pages_use_hashed_names_served_precompressed_for_a_year(alice, tmp_path):
    hashed = {"staticfiles": {
        "BACKEND": "companion.static_storage.StaticStorage"},
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"}}
    with override_settings(STORAGES=hashed, STATIC_ROOT=tmp_path, WHITENOISE_USE_FINDERS=False):
        # Our own files only: the admin's and the API docs' take a minute to compress.
        call_command("collectstatic", "--noinput", verbosity=0,
                     ignore_patterns=["admin/*", "drf_spectacular_sidecar/*", "rest_framework/*"])
        pwa.worker.cache_clear()
        try:
            session = session_for(alice)
            client = browser_for(alice)
            html = client.get(f"/s/{session.pk}/").content.decode()
            css = re.search(r'href="(/static/css/companion\.[0-9a-f]{12}\.css)"', html)
            assert css, "the stylesheet is not named by its hash"
            htmx = re.search(r'src="(/static/vendor/htmx-2\.0\.11\.min\.[0-9a-f]{12}\.js)"', html)
            assert htmx, "htmx is not named by its hash"
            assert re.search(r'src="/static/js/offline\.[0-9a-f]{12}\.js"', html)
            assert re.search(r'"/static/css/companion\.[0-9a-f]{12}\.css"',
                             client.get("/sw.js").content.decode())

            raw = static_body(client.get(htmx.group(1)))
            for accepted, encoding in [("br", "br"), ("gzip", "gzip"), ("gzip, deflate, br", "br")]:
                response = client.get(htmx.group(1), HTTP_ACCEPT_ENCODING=accepted)
                assert response.status_code == 200
                assert response["Content-Encoding"] == encoding, accepted
                assert len(static_body(response)) < len(raw) / 2
                max_age = int(re.search(r"max-age=(\d+)", response["Cache-Control"]).group(1))
                assert max_age >= YEAR and "immutable" in response["Cache-Control"]
            # Only the hashed copies are served.
            assert client.get("/static/css/companion.css").status_code == 404
        finally:
            pwa.worker.cache_clear()


@pytest.mark.parametrize("collected, finders", [(True, "False"), (False, "True")])
def test_outside_the_tests_the_settings_serve_hashed_precompressed_files(tmp_path, collected,
                                                                         finders):
    """Once collected, the hashed copies alone; before `collectstatic`, the apps' folders."""
    if collected:
        (tmp_path / "staticfiles.json").write_text('{"paths": {}, "version": "1.1"}')
    env = {name: value for name, value in os.environ.items()
           if name not in {"PYTEST_VERSION", "STATIC_HASHED"}}
    env.update(DJANGO_SETTINGS_MODULE="companion.settings", STATIC_ROOT=str(tmp_path))
    code = ("import django; django.setup(); from django.conf import settings; import brotli; "
            "print(settings.STORAGES['staticfiles']['BACKEND'], settings.WHITENOISE_USE_FINDERS)")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, cwd=pwa.settings.BASE_DIR).stdout.split()
    assert out == ["companion.static_storage.StaticStorage", finders]


@pytest.mark.django_db
def test_a_move_kept_offline_and_overtaken_is_said_not_played_with_what_it_was(alice):
    """Ben's points saved on his phone offline, then entered for him by the host before it was
    back: refused as stale, and the phone had no word of it (the form it came from was gone).
    The answer says it, for offline.js to show, with the move in its game's words, as played on
    the table Ben's phone last saw (seq 0)."""
    from urllib.parse import unquote

    table = session_for(alice, game="pad", players=("Ana", "Ben"),
                        options={"game": "Hearts", "win": "high"})
    ben = guest_browser(table, seat=1)
    kept = {"type": "score", "form": "score", "seat": "1", "round": "1", "points": "12",
            "expected_version": "0"}
    browser_for(alice).post(f"/s/{table.pk}/move/", {"type": "score", "seat": "1",
                                                     "points": "9"})
    answer = ben.post(f"/s/{table.pk}/move/", kept, HTTP_X_OFFLINE_REPLAY="0",
                      HTTP_HX_REQUEST="true")
    assert answer.status_code == 412
    assert unquote(answer["X-Kept-Refused"]) == (
        "Your move kept offline was not played: the table had moved on. It was: Ben scores +12 "
        "in round 1 (total 12)")
    # Said once, by the phone's notice: not again beside a form, or in the now line.
    assert "Your move kept offline" not in answer.content.decode()
    # Refused by the rules: their sentence, and the move described on the table as it is.
    answer = ben.post(f"/s/{table.pk}/move/", {**kept, "round": "2", "expected_version": "1"},
                      HTTP_X_OFFLINE_REPLAY="1")
    assert unquote(answer["X-Kept-Refused"]).startswith(
        "Your move kept offline was not played: Ben has scored round 1: round 2 opens once Ana "
        "has scored round 1")
    # Sent as it was made (no header): the page's usual answer, no notice.
    answer = ben.post(f"/s/{table.pk}/move/", kept)
    assert answer.status_code == 412 and "X-Kept-Refused" not in answer


@pytest.mark.django_db
def test_a_kept_roll_is_not_described_with_dice_it_never_rolled(alice):
    table = session_for(alice, game="rabbits", players=("Ana", "Ben"))
    ana = guest_browser(table, seat=0)
    browser_for(alice).post(f"/s/{table.pk}/move/", {"type": "roll", "seat": "0"})
    answer = ana.post(f"/s/{table.pk}/move/", {"type": "roll", "seat": "0",
                                               "expected_version": "0"},
                      HTTP_X_OFFLINE_REPLAY="0")
    assert answer.status_code == 412
    assert answer["X-Kept-Refused"].endswith("moved%20on.")
