"""Sign up, open a session, join it from a second phone by its code."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import no_sideways_scroll

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_sign_up_open_a_game_and_join_it_from_another_phone(phone, live_server):
    host = phone()
    host.goto("/")
    host.get_by_role("link", name="Create a host account").click()
    host.get_by_label("User name").fill("vanessa")
    host.get_by_label("Password").fill("tilted windmills 42")
    host.get_by_role("button", name="Create account").click()
    expect(host.get_by_role("link", name="New game")).to_be_visible()

    host.get_by_role("link", name="New game").click()
    host.get_by_role("link", name=re.compile("Tiny")).click()
    host.get_by_label("Player 1").fill("Vanessa")
    host.get_by_label("Player 2").fill("Peter")
    host.get_by_role("button", name="Open the game").click()
    expect(host.get_by_role("heading", name="Scoreboard")).to_be_visible()
    code = host.locator("#join-code").inner_text().strip()
    assert re.fullmatch(r"[A-Z2-9]{6}", code)
    assert no_sideways_scroll(host)

    guest = phone()
    guest.goto("/")
    guest.get_by_label("Join with a code").fill(code.lower())
    guest.get_by_role("button", name="Join").click()
    guest.get_by_role("button", name="Peter").click()
    expect(guest.get_by_role("heading", name="Scoreboard")).to_be_visible()
    expect(guest.locator("#scoreboard")).to_contain_text("Peter")
    assert no_sideways_scroll(guest)

    # Nothing came from another host: every request went to the live server.
    for page in (host, guest):
        assert all(url.startswith(live_server.url) or url.startswith("data:")
                   for url in page.context.requests), page.context.requests
