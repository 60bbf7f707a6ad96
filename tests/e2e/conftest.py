"""Browser tests: Playwright drives Debian's Chromium (never a downloaded build) on a phone-sized
viewport against the live test server."""

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
PHONE = {"viewport": {"width": 360, "height": 780}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}

# Playwright's sync API runs an event loop in this thread; the tests' own ORM calls are still
# plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


class AsgiServer:
    """The app under uvicorn on a free port, in a thread of the test process: the same server
    as production (the event streams need ASGI), on the test database."""

    def __init__(self):
        import socket
        import threading
        import time

        import uvicorn
        from django.test.utils import modify_settings

        from companion.asgi import application

        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        config = uvicorn.Config(application, log_level="warning", lifespan="off",
                                timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]},
                                       daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{port}"
        # pytest-django's helper enables and disables this around each test.
        self._live_server_modified_settings = modify_settings(
            ALLOWED_HOSTS={"append": "127.0.0.1"})

    def stop(self):
        self.server.should_exit = True
        self.thread.join(5)


@pytest.fixture(scope="session")
def live_server(django_db_setup, django_db_blocker):
    """Replaces pytest-django's WSGI live server: the table pages hold event streams open."""
    server = AsgiServer()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium to run the browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"],
        )
        yield browser
        browser.close()


@pytest.fixture
def phone(browser, live_server):
    """A new phone: its own cookies, a 360 px wide screen; every request it makes is recorded."""
    contexts = []

    def make():
        context = browser.new_context(base_url=live_server.url, **PHONE)
        context.set_default_timeout(10_000)
        context.requests = []
        context.on("request", lambda request: context.requests.append(request.url))
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.fixture
def host_phone(phone, alice):
    """A phone signed in as alice, the host."""

    def make():
        page = phone()
        page.goto("/login/")
        page.get_by_label("User name").fill("alice")
        page.get_by_label("Password").fill("a long table password")
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url("**/")
        return page

    return make


def guest_phone_for(phone, session, seat):
    """A second phone that joined `session` by its code and took `seat` (by name)."""
    page = phone()
    page.goto(f"/join/{session.code}/")
    page.get_by_role("button", name=seat).click()
    page.wait_for_selector("#scoreboard")
    return page
