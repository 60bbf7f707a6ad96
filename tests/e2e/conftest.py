"""Browser tests: Playwright drives Debian's Chromium (never a downloaded build) on a phone-sized
viewport against the live test server."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

CHROMIUM = "/usr/bin/chromium"
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}

# Playwright's sync API runs an event loop in this thread; the tests' own ORM calls are still
# plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# An assertion waits as long as any other step (the contexts' WAIT): on a loaded 2-core machine (the
# whole suite on two workers, each with its browser and servers) a push or an answer has taken
# more than 10 s now and then. A passing step never waits this long; a failing one fails later.
WAIT = 20_000
expect.set_options(timeout=WAIT)


@pytest.fixture(scope="session")
def live_server(django_db_setup, django_db_blocker):
    """Replaces pytest-django's WSGI live server: the table pages hold event streams open."""
    from tests.servers import ThreadServer

    server = ThreadServer()
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


class Phones:
    """Phones (browser contexts, each with its page) kept between the tests of a worker, one set
    per language and per service-worker setting: a new context costs Chromium a renderer process
    and what a first page sets up in it, a phone made new again much less. Made new again is as
    a new one: no cookie, no storage, no service worker or its caches, an empty HTTP cache,
    online, the phone's screen and the light scheme, no route, no request recorded, on a blank
    page (tests/e2e/test_phones.py). A phone its test closed, or gave a second page, is not kept.

    The app's service worker runs only in the tests marked `service_worker`, which are about it
    (installable, offline, a phone made new): elsewhere it would be installed again, its shell
    fetched and kept, on every phone made new, for nothing the test checks."""

    KEPT = 8  # per set: a test holds at most six phones at once

    def __init__(self, browser, url):
        self.browser, self.url, self.idle = browser, url, {}

    def take(self, locale, *, workers=False):
        idle = self.idle.get((locale, workers)) or []
        context = idle.pop() if idle else self._new(locale, workers)
        context.requests.clear()
        return context

    def _new(self, locale, workers):
        context = self.browser.new_context(base_url=self.url, **PHONE,
                                           service_workers="allow" if workers else "block",
                                           **({"locale": locale} if locale else {}))
        context.workers = workers
        context.set_default_timeout(WAIT)
        context.requests = []
        context.on("request", lambda request: context.requests.append(request.url))
        context.new_page()
        return context

    def give_back(self, context, locale):
        idle = self.idle.setdefault((locale, context.workers), [])
        # A context its test closed has no page left (closing it again does nothing).
        if len(context.pages) != 1 or len(idle) >= self.KEPT:
            context.close()
            return
        try:
            self._renew(context)
        except Exception:  # noqa: BLE001 - a phone that cannot be made new is not kept
            context.close()
            return
        idle.append(context)

    def _renew(self, context):
        page = context.pages[0]
        if page.url.startswith(self.url):  # a tab's session storage outlives its pages
            page.evaluate("sessionStorage.clear()")
        page.goto("about:blank")  # the test's page gone: its streams, timers and workers' clients
        context.unroute_all(behavior="ignoreErrors")
        page.unroute_all(behavior="ignoreErrors")
        context.set_offline(False)
        context.clear_cookies()
        context.clear_permissions()
        page.set_viewport_size(PHONE["viewport"])
        page.emulate_media(color_scheme="light")
        devtools = context.new_cdp_session(page)
        try:
            devtools.send("Storage.clearDataForOrigin", {"origin": self.url, "storageTypes": "all"})
            devtools.send("Network.clearBrowserCache")
        finally:
            devtools.detach()


@pytest.fixture(scope="session")
def phones(browser, live_server):
    return Phones(browser, live_server.url)


@pytest.fixture
def phone(phones, request):
    """A new phone (one of `phones`, as new): its own cookies, a 360 px wide screen; every request
    it makes is recorded. `locale` ("es-ES") is the phone's language, sent as Accept-Language.
    The app's service worker runs on it in a test marked `service_worker` only."""
    taken = []
    workers = request.node.get_closest_marker("service_worker") is not None

    def make(locale=None):
        context = phones.take(locale, workers=workers)
        taken.append((context, locale))
        return context.pages[0]

    yield make
    for context, locale in taken:
        phones.give_back(context, locale)


def screenshot(folder, page, name, *, whole=False):
    """A screenshot to look at, saved in `folder` when it is set (each game's tests read theirs
    from an environment variable, e.g. KN_SHOTS): the screen, or the whole page."""
    if folder:
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=whole)


def no_sideways_scroll(page):
    """The page is no wider than the phone's screen. Measured against the screen's width, not
    window.innerWidth: a phone (is_mobile) zooms a wider page out until it fits, so its
    innerWidth grows with the page and the page always seemed to fit."""
    width = page.evaluate("document.documentElement.scrollWidth")
    return width <= page.viewport_size["width"]


def words_cut_in_two(page, within="body"):
    """Words drawn on two lines (a word cut in two, "Undergroun|d") in the part of the page
    `within` names, as "TAG: word". An address or a code may break where it must: links that
    show their address, code."""
    return page.evaluate("""(within) => {
        const cut = [];
        const walker = document.createTreeWalker(document.querySelector(within),
                                                 NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
            const node = walker.currentNode;
            const el = node.parentElement;
            if (!el || !el.getClientRects().length) continue;
            if (el.closest(".sr-only, [hidden], script, style, title, code, pre, .code")) continue;
            if (el.closest("a") && /^https?:/.test(el.closest("a").textContent.trim())) continue;
            for (const word of node.textContent.matchAll(/[\\p{L}\\p{N}]{2,}/gu)) {
                const range = document.createRange();
                range.setStart(node, word.index);
                range.setEnd(node, word.index + word[0].length);
                const lines = [...range.getClientRects()].filter(rect => rect.width > 0);
                if (lines.length > 1) cut.push(`${el.tagName}: ${word[0]}`);
            }
        }
        return [...new Set(cut)].slice(0, 12);
    }""", within)


@pytest.fixture
def host_phone(phone, alice):
    """A phone signed in as alice, the host."""

    def make(locale=None):
        page = phone(locale)
        page.goto("/login/")
        # By the fields' names: the labels are in the phone's language.
        page.locator("input[name=username]").fill("alice")
        page.locator("input[name=password]").fill("a long table password")
        page.locator("form:has(input[name=password]) button").click()
        page.wait_for_url("**/")
        return page

    return make


def guest_phone_for(phone, session, seat, locale=None):
    """A second phone that joined `session` by its code and took `seat` (by name)."""
    page = phone(locale)
    page.goto(f"/join/{session.code}/")
    page.get_by_role("button", name=seat).click()
    page.wait_for_selector("#scoreboard")
    return page


@pytest.fixture(autouse=True)
def seeded_data(transactional_db):
    """What the migrations seed (the printed cards of Alatriste's catalogue) is wiped by the
    flush that ends each transactional test: put it back, so that no test depends on running
    first on its worker."""
    from importlib import import_module

    from django.apps import apps

    from games.alatriste.models import Card

    if not Card.objects.filter(owner=None).exists():
        import_module("games.alatriste.migrations.0002_seed_cards").seed(apps, None)


class Held:
    """A request that reached the server (its move made, its push sent) and whose answer is
    held back from the page until `release()`."""

    def __init__(self, page, pattern, route):
        self.page, self.pattern, self.route = page, pattern, route
        self.answer = route.fetch()

    def release(self):
        self.route.fulfill(response=self.answer)
        self.page.unroute(self.pattern)
        expect(self.page.locator(".htmx-request")).to_have_count(0)


def sent_and_held(page, path, send):
    """`send()` posts to `path`; the server answers it now, the page only at `release()`."""
    held = []
    pattern = re.compile(rf".*{re.escape(path)}$")
    page.route(pattern, lambda route: held.append(route))
    with page.expect_request(pattern):
        send()
    for _ in range(1000):  # the route's handler runs while the page is asked anything
        if held:
            return Held(page, pattern, held[0])
        page.evaluate("0")
    raise AssertionError(f"no request to {path} was held")
