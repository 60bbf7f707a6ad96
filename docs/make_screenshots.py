"""Makes docs/screens/: every table page of every installed game at 360 x 740, as the host's
phone and a guest's phone see it in the middle of a game and at its end, in the light and the
dark colour scheme (and in Spanish, light: *-light-es.png), and each game's board at 1920 x 1080
(a TV in the middle of the table).

    .venv/bin/python docs/make_screenshots.py

A scratch SQLite database, a local server on 127.0.0.1 and Debian's Chromium; the games are
played with moves drawn from each game's samples (games/<slug>/samples.py). Look at the pictures
after a change to a page: is each phone's own part on the first screen?
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screens"
DB = Path(tempfile.mkdtemp()) / "screens.sqlite3"
# Static files straight from the apps' folders (no collectstatic needed for pictures).
os.environ.update({"DATABASE_URL": f"sqlite:///{DB}", "DJANGO_SETTINGS_MODULE":
                   "companion.settings", "STATIC_HASHED": "0"})
sys.path.insert(0, str(ROOT))

PORT = 8766
BASE = f"http://127.0.0.1:{PORT}"
PASSWORD = "tilted windmills 42"  # noqa: S105 (a scratch account on a scratch database)
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}
TV = {"viewport": {"width": 1920, "height": 1080}}
# Moves into each game: its middle (the score pad's five rounds end at 14).
MIDDLE_MOVES = {"pad": 6}


def tables(host):
    """[(slug, what, session, guest token)]: each game in the middle and at its end."""
    from companion import plugins, services
    from tests.factories import first_sample_options, play_to_the_end

    made = []
    for plugin in plugins.all_plugins():
        slug = plugin.slug
        options = first_sample_options(slug)
        middle = services.session_create(owner=host, game=slug, players=["Ana", "Ben", "Cy"],
                                         options=options, host_seat=0, seed=f"{slug}mid")
        guest = services.guest_join(code=middle.code, seat=1)
        play_to_the_end(middle, seed=0, max_moves=MIDDLE_MOVES.get(slug, 14))
        made.append((slug, "middle", middle, guest.token))
        for seed in range(12):
            end = services.session_create(owner=host, game=slug, players=["Ana", "Ben", "Cy"],
                                          options=options, host_seat=0, seed=f"{slug}end{seed}")
            guest = services.guest_join(code=end.code, seat=1)
            if play_to_the_end(end, seed=seed, max_moves=800):
                made.append((slug, "end", end, guest.token))
                break
    return made


def wait_for_server():
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{BASE}/api/health/", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit("the server did not start")


def main():
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from companion.access import guest_cookie_name

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    host = get_user_model().objects.create_user("ana", password=PASSWORD)
    made = tables(host)
    OUT.mkdir(parents=True, exist_ok=True)
    server = subprocess.Popen([sys.executable, "-m", "uvicorn", "companion.asgi:application",
                               "--host", "127.0.0.1", "--port", str(PORT), "--log-level",
                               "warning"], cwd=ROOT)
    written = []
    try:
        wait_for_server()
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium",
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            # Light and dark in English, and light on phones that speak Spanish.
            for scheme, locale, suffix in (("light", "en-GB", "light"), ("dark", "en-GB", "dark"),
                                           ("light", "es-ES", "light-es")):
                host_page = browser.new_context(base_url=BASE, color_scheme=scheme,
                                                locale=locale, **PHONE).new_page()
                host_page.goto("/login/")
                host_page.locator("input[name=username]").fill("ana")
                host_page.locator("input[name=password]").fill(PASSWORD)
                host_page.locator("form:has(input[name=password]) button").click()
                host_page.wait_for_url("**/")
                for slug, what, session, token in made:
                    guest = browser.new_context(base_url=BASE, color_scheme=scheme,
                                                locale=locale, **PHONE)
                    guest.add_cookies([{"name": guest_cookie_name(session.pk), "value": token,
                                        "url": BASE}])
                    for who, page in (("host", host_page), ("guest", guest.new_page())):
                        page.goto(f"/s/{session.pk}/")
                        page.wait_for_selector("#table[data-stream=open]", state="attached")
                        path = OUT / f"{slug}-{what}-{who}-{suffix}.png"
                        page.screenshot(path=str(path))
                        written.append(path)
                    guest.close()
                host_page.context.close()
            tv = browser.new_context(base_url=BASE, **TV).new_page()
            for slug, what, session, _token in made:
                if what != "middle":
                    continue
                tv.goto(f"/board/{session.board_key}/")
                tv.wait_for_selector("#table[data-stream=open]", state="attached")
                path = OUT / f"{slug}-board-1920.png"
                tv.screenshot(path=str(path))
                written.append(path)
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
    for path in written:
        print(path.relative_to(ROOT))


if __name__ == "__main__":
    main()
