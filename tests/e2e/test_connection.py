"""A quiet banner while the table's stream is down (giving way to the offline notice while
that one speaks), and a word when it is back."""

import pytest
from playwright.sync_api import expect

from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.service_worker,
              pytest.mark.django_db(transaction=True)]


def test_the_table_says_when_the_connection_is_lost_and_when_it_is_back(host_phone, alice):
    game = session_for(alice)
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    host.wait_for_selector("#table[data-stream=open]", state="attached")
    banner = host.locator("#connection")
    expect(banner).to_be_hidden()
    # The network goes and the open stream breaks: its reconnections fail until it is back.
    host.context.set_offline(True)
    host.evaluate("""() => {
        const table = document.getElementById("table");
        const source = table["htmx-internal-data"].sseEventSource;
        source.close();
        source.onerror(new Event("error"));
    }""")
    host.wait_for_selector("#table[data-stream=down]", state="attached")
    expect(banner).to_contain_text("Connection lost")
    # Offline, one sentence says so: the offline notice's (offline.js), which says more; the
    # banner gives way to it.
    expect(host.locator("#offline")).to_contain_text("Offline: this is the table as it was")
    expect(banner).to_be_hidden()
    host.context.set_offline(False)
    host.wait_for_selector("#table[data-stream=open]", state="attached", timeout=15_000)
    expect(banner).to_contain_text("Connected again.")
    expect(banner).to_be_hidden()
    # Online, a stream that errors is said by the banner alone.
    host.evaluate("document.body.dispatchEvent(new CustomEvent('htmx:sseError'))")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Connection lost")
    expect(host.locator("#offline")).to_be_hidden()
