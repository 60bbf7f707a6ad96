"""Installable and offline (issue 14, acceptance 3): the manifest and the service worker meet
Chromium's install criteria (nothing is installed); offline, the table says so and keeps showing
its last state; a move tapped offline is kept and recorded once when back. (The worker's copy of
a page reloaded offline is not tried here: Playwright's offline mode does not reach service
workers, microsoft/playwright#2311.)"""

import json

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import WAIT
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.service_worker,
              pytest.mark.django_db(transaction=True)]


def play(page, payload):
    page.locator("#move-payload").fill(json.dumps(payload))
    page.get_by_role("button", name="Play").click()


def test_offline_the_table_keeps_its_last_state_and_a_move_tapped_is_sent_once_when_back(
        host_phone, alice):
    session = session_for(alice)
    page = host_phone()
    page.goto(f"/s/{session.pk}/")

    # The worker registered from pwa.js controls the page; Chromium finds nothing missing to
    # install the app (manifest, icons, worker, a secure context: 127.0.0.1 is one).
    page.wait_for_selector("html[data-worker=ready]")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    script = page.evaluate("navigator.serviceWorker.controller.scriptURL")
    assert script.endswith("/sw.js")
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest") and not manifest["errors"]
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # A Playwright context is an incognito profile, where Chromium installs nothing: that is
    # the only reason it may give.
    assert [error["errorId"] for error in errors if error["errorId"] != "in-incognito"] == []

    play(page, {"seat": 0, "points": 3})
    expect(page.locator("#scoreboard tr[data-seat='0']")).to_contain_text("3")
    expect(page.locator("#table")).to_have_attribute("data-stream", "open")

    page.context.set_offline(True)
    notice = page.locator("#offline")
    expect(notice).to_have_text("Offline: this is the table as it was when the connection "
                                "dropped.")
    expect(page.locator("#table")).to_have_attribute("data-saved", "1")
    # One sentence about the connection: the stream's "Connection lost" toast gives way to it.
    # (A phone's stream drops with its network; Chromium's offline mode keeps the one open.)
    page.evaluate("document.body.dispatchEvent(new CustomEvent('htmx:sseError'))")
    expect(page.locator("#connection")).to_have_text("Connection lost: trying again…")
    expect(page.locator("#connection")).to_be_hidden()

    play(page, {"seat": 1, "points": 4})
    expect(notice).to_contain_text("your move is kept on this phone")
    expect(page.locator("#table")).to_have_attribute("data-outbox", "1")
    # A second tap on the same form is the same move.
    page.get_by_role("button", name="Play").click()
    expect(page.locator("#table")).to_have_attribute("data-outbox", "1")
    expect(page.locator("#scoreboard tr[data-seat='1']")).to_contain_text("0")
    assert session.moves.count() == 1

    page.context.set_offline(False)
    expect(page.locator("#table")).to_have_attribute("data-outbox", "0", timeout=WAIT)
    expect(page.locator("#scoreboard tr[data-seat='1']")).to_contain_text("4")
    expect(notice).to_have_text("Your move kept offline was sent.")
    moves = list(session.moves.order_by("seq").values_list("data", flat=True))
    assert moves == [{"seat": 0, "points": 3}, {"seat": 1, "points": 4}]


def test_a_server_that_does_not_answer_is_not_called_the_phone_being_offline(host_phone, alice):
    """The phone online, the server not answering its move (restarting, say): the move is kept
    and sent when the server answers; the notice said "Offline", sending the player to check a
    phone that was fine."""
    import re

    session = session_for(alice)
    page = host_phone()
    page.goto(f"/s/{session.pk}/")
    expect(page.locator("#table")).to_have_attribute("data-stream", "open")
    moves = re.compile(rf".*/s/{session.pk}/move/$")
    page.route(moves, lambda route: route.abort())
    play(page, {"seat": 1, "points": 4})
    expect(page.locator("#offline")).to_have_text(
        "The table cannot be reached: your move is kept on this phone and will be sent when it "
        "answers again.")
    expect(page.locator("#table")).to_have_attribute("data-outbox", "1")
    page.unroute(moves)
    expect(page.locator("#table")).to_have_attribute("data-outbox", "0", timeout=WAIT)
    expect(page.locator("#scoreboard tr[data-seat='1']")).to_contain_text("4")
    assert list(session.moves.values_list("data", flat=True)) == [{"seat": 1, "points": 4}]
