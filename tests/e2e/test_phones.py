"""A phone handed to a test is as new, though the browser tests keep their phones between tests
(conftest.Phones): whatever the test before did to it is gone."""

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_phone_given_back_comes_back_as_new(phones, live_server):
    context = phones.take(None, workers=True)
    page = context.pages[0]
    page.goto("/join/")
    page.evaluate("navigator.serviceWorker.ready")
    page.evaluate("localStorage.setItem('companion-theme', 'dark'); sessionStorage.setItem('a', 1)")
    context.add_cookies([{"name": "left", "value": "behind", "url": live_server.url}])
    page.route("**/join/", lambda route: route.abort())
    page.set_viewport_size({"width": 800, "height": 600})
    page.emulate_media(color_scheme="dark")
    context.set_offline(True)
    phones.give_back(context, None)

    again = phones.take(None, workers=True)
    assert again is context  # kept, not a new one
    page = again.pages[0]
    assert page.url == "about:blank"
    assert again.requests == []
    assert page.viewport_size == {"width": 360, "height": 740}
    # A page that registers no service worker: one left from before would control it.
    assert page.goto("/api/health/").status == 200  # online, and no route left
    assert page.evaluate("""async () => [navigator.serviceWorker.controller,
        (await navigator.serviceWorker.getRegistrations()).length, (await caches.keys()).length,
        localStorage.length, sessionStorage.getItem('a')]""") == [None, 0, 0, 0, None]
    assert "left" not in {cookie["name"] for cookie in again.cookies()}
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") is False
    assert page.goto("/join/").status == 200  # the route on /join/ gone too
    phones.give_back(again, None)


def test_a_phone_its_test_closed_is_not_kept(phones):
    context = phones.take(None)
    context.close()
    phones.give_back(context, None)
    assert phones.take(None) is not context


def test_a_phone_runs_the_apps_service_worker_only_where_the_test_asks(phones, live_server):
    """The phones of a test marked `service_worker` run it; on the others pwa.js registers it and
    nothing is installed, so that no test leans on a worker it did not ask for."""
    context = phones.take(None, workers=True)
    context.pages[0].goto("/join/")
    context.pages[0].wait_for_selector("html[data-worker=ready]", state="attached")
    phones.give_back(context, None)

    context = phones.take(None)
    page = context.pages[0]
    page.goto("/join/")
    registrations = """async () => {
        await navigator.serviceWorker.register(document.querySelector("script[data-worker]")
                                               .dataset.worker, {scope: "/"});
        return (await navigator.serviceWorker.getRegistrations()).length;
    }"""
    assert page.evaluate(registrations) == 0
    assert page.locator("html").get_attribute("data-worker") is None
    phones.give_back(context, None)
