"""Makes docs/table-phone.png, the README's picture of a Don Quixote table on a phone.

    .venv/bin/python docs/make_screenshot.py

It uses a scratch SQLite database and a local server on 127.0.0.1, and Debian's Chromium.
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DB = Path(tempfile.mkdtemp()) / "screenshot.sqlite3"
os.environ.update({"DATABASE_URL": f"sqlite:///{DB}", "DJANGO_SETTINGS_MODULE":
                   "companion.settings", "STATIC_HASHED": "0"})
sys.path.insert(0, str(ROOT))


def main():
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model

    from companion import services

    host = get_user_model().objects.create_user("vanessa", password="tilted windmills 42")
    session = services.session_create(owner=host, game="quixote", players=["Vanessa", "Peter"],
                                      options={"deck": "app"}, seed="readme")
    actor = services.Actor(user=host)
    services.move_play(session=session, type="castles", data={}, actor=actor)
    for _ in range(9):
        services.move_play(session=session, type="turn", data={}, actor=actor)
    services.move_play(session=session, type="score", actor=actor, data={
        "seat": 0, "round": 1, "castle6_knights": 1, "castle4_knights": 0, "church_groups": [2],
        "windmill_groups": [3], "defense_shields": 4})
    services.move_play(session=session, type="score", actor=actor, data={
        "seat": 1, "round": 1, "castle6_knights": 0, "castle4_knights": 1, "church_groups": [],
        "windmill_groups": [2, 1], "defense_shields": 2})
    for _ in range(3):
        services.move_play(session=session, type="turn", data={}, actor=actor)

    server = subprocess.Popen([sys.executable, "-m", "uvicorn", "companion.asgi:application",
                               "--host", "127.0.0.1", "--port", "8765", "--log-level", "warning"],
                              cwd=ROOT)
    try:
        time.sleep(3)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                                 args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 390, "height": 844},
                                    device_scale_factor=2, is_mobile=True, has_touch=True)
            page.goto("http://127.0.0.1:8765/login/")
            page.get_by_label("User name").fill("vanessa")
            page.get_by_label("Password").fill("tilted windmills 42")
            page.get_by_role("button", name="Sign in").click()
            page.goto(f"http://127.0.0.1:8765/s/{session.pk}/")
            page.screenshot(path=str(ROOT / "docs" / "table-phone.png"), full_page=False)
            browser.close()
    finally:
        server.terminate()
    print("docs/table-phone.png")


if __name__ == "__main__":
    main()
