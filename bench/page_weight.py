"""Each page's weight on the wire (issue 14): bytes and requests, first visit and repeat visit.

    .venv/bin/python bench/page_weight.py [--keep]

It makes a scratch folder with its own SQLite database and collected static files
(STATIC_HASHED=1: hashed names, gzip and brotli copies, as `make run` serves them; the admin's
and the API docs' files are left out, no page measured loads them), seats a session of every
installed game (a host, alice, and a guest at seat 2), starts uvicorn on a free 127.0.0.1 port
and loads each page in Debian's Chromium (/usr/bin/chromium, driven by Playwright) on a
360 x 740 phone. Cold: a new browser context (empty cache); warm: the same page again in that
context. Bytes are Chromium's encodedDataLength (headers and compressed body, what crossed the
network) from the DevTools Network events; a response the browser took from its cache is not
counted. The table page's event stream counts as a request (its bytes until the page settled).
Service workers are blocked here so that the figures are the HTTP cache's alone; the worker
adds /sw.js (about 1 KB compressed) to a first visit and otherwise fetches from the same cache.
It prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.servers import free_port  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}
PASSWORD = "a long bench password"
SEED = """
import json
from companion import plugins, services
from django.contrib.auth.models import User
from tests.factories import first_sample_options
alice = User.objects.create_user("alice", password="PASSWORD")
tables = []
for plugin in plugins.all_plugins():
    players = ["Ann", "Bo", "Cy", "Di"][:max(3, plugin.rules.min_players)]
    session = services.session_create(owner=alice, game=plugin.slug, players=players,
                                      options=first_sample_options(plugin.slug), seed="bench")
    guest = services.guest_join(code=session.code, seat=1)
    tables.append({"slug": plugin.slug, "pk": session.pk, "code": session.code,
                   "board": session.board_key, "guest": guest.token})
print(json.dumps(tables))
""".replace("PASSWORD", PASSWORD)


def manage(env, *args, stdin=None):
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                          input=stdin, capture_output=True, text=True).stdout


class Meter:
    """Requests and bytes of one page load, from the DevTools Network events."""

    def __init__(self, page):
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        self.requests = {}
        self.cdp.on("Network.requestWillBeSent", self.sent)
        self.cdp.on("Network.responseReceived", self.received)
        self.cdp.on("Network.requestServedFromCache", self.cached)
        self.cdp.on("Network.dataReceived", self.data)
        self.cdp.on("Network.loadingFinished", self.finished)

    def reset(self):
        self.requests = {}

    def sent(self, event):
        if not event["request"]["url"].startswith("data:"):
            self.requests.setdefault(event["requestId"], {"bytes": 0, "cached": False,
                                                          "url": event["request"]["url"]})

    def received(self, event):
        request = self.requests.get(event["requestId"])
        if request is None:
            return
        response = event["response"]
        if response.get("fromDiskCache") or response.get("fromPrefetchCache"):
            request["cached"] = True
        request["bytes"] = response.get("encodedDataLength", 0)

    def cached(self, event):
        if event["requestId"] in self.requests:
            self.requests[event["requestId"]]["cached"] = True

    def data(self, event):
        if event["requestId"] in self.requests:
            self.requests[event["requestId"]]["bytes"] += event.get("encodedDataLength", 0)

    def finished(self, event):
        if event["requestId"] in self.requests:
            self.requests[event["requestId"]]["bytes"] = event["encodedDataLength"]

    def figures(self):
        wire = [r for r in self.requests.values() if not r["cached"]]
        return sum(r["bytes"] for r in wire), len(wire), sorted(r["url"] for r in wire)


def visit(page, meter, url):
    meter.reset()
    page.goto(url, wait_until="load")
    # The table's stream and a deferred script or two: let the page settle.
    page.wait_for_timeout(700)
    return meter.figures()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    parser.add_argument("--verbose", action="store_true", help="list each page's requests")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    scratch = Path(tempfile.mkdtemp(prefix="companion-weight-"))
    env = {name: value for name, value in os.environ.items() if name != "PYTEST_VERSION"}
    env.update({"DATABASE_URL": f"sqlite:///{scratch / 'db.sqlite3'}",
                "STATIC_ROOT": str(scratch / "static"), "STATIC_HASHED": "1", "DEBUG": "0",
                "DJANGO_SETTINGS_MODULE": "companion.settings", "PYTHONPATH": str(ROOT)})
    server = None
    try:
        manage(env, "migrate", "--noinput")
        manage(env, "createcachetable")
        manage(env, "collectstatic", "--noinput", "-v0", "-i", "admin/*",
               "-i", "drf_spectacular_sidecar/*", "-i", "rest_framework/*")
        tables = json.loads(manage(env, "shell", stdin=SEED).strip().splitlines()[-1])
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "companion.asgi:application", "--host",
             "127.0.0.1", "--port", str(port), "--log-level", "warning", "--lifespan", "off"],
            cwd=ROOT, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/api/health/", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)

        pages = [("home", None, "/"), ("join", None, "/join/"), ("new (host)", "host", "/new/")]
        for table in tables:
            pages += [(f"table {table['slug']} (host)", "host", f"/s/{table['pk']}/"),
                      (f"table {table['slug']} (guest)", table, f"/s/{table['pk']}/")]
        first = tables[0]
        pages += [("board", None, f"/board/{first['board']}/"),
                  ("history (host)", "host", "/history/"),
                  ("history session (host)", "host", f"/history/sessions/{first['pk']}/"),
                  ("history game (host)", "host", f"/history/games/{tables[1]['slug']}/")]

        rows = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update"])
            for name, who, path in pages:
                context = browser.new_context(base_url=base, service_workers="block", **PHONE)
                page = context.new_page()
                if who == "host":
                    page.goto("/login/")
                    page.get_by_label("User name").fill("alice")
                    page.get_by_label("Password").fill(PASSWORD)
                    page.get_by_role("button", name="Sign in").click()
                    page.wait_for_url("**/")
                    # Signing in loaded the shared files: clear them for a true first visit.
                    context.new_cdp_session(page).send("Network.clearBrowserCache")
                elif who is not None:
                    context.add_cookies([{"name": f"guest{who['pk']}", "value": who["guest"],
                                          "url": base}])
                meter = Meter(page)
                cold = visit(page, meter, base + path)
                warm = visit(page, meter, base + path)
                rows.append((name, path, cold, warm))
                context.close()
            browser.close()

        print("| page | first visit KB | requests | repeat visit KB | requests |")
        print("|---|---:|---:|---:|---:|")
        for name, _path, cold, warm in rows:
            print(f"| {name} | {cold[0] / 1024:.1f} | {cold[1]} | {warm[0] / 1024:.1f} "
                  f"| {warm[1]} |")
        if args.verbose:
            for name, _path, cold, warm in rows:
                print(f"\n{name}\n  cold: {cold[2]}\n  warm: {warm[2]}")
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
        if args.keep:
            print(f"scratch folder: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
