"""A refusal stays on the phone that was refused when another phone's move is pushed just after,
until that phone sends a move again."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import guest_phone_for
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NOT_YOURS = "This is Vanessa's move: it comes from Vanessa's phone or the host's."
NOT_A_NUMBER = "points: A valid integer is required."


def play(page, payload):
    page.locator("#move-payload").fill(payload)
    page.get_by_role("button", name="Play").click()


def at_version(page, version):
    page.wait_for_selector(f'#table[data-version="{version}"]', state="attached")


def test_a_refusal_outlives_the_next_push_and_goes_with_the_phone_s_next_move(
        host_phone, phone, alice):
    game = session_for(alice)
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    host.wait_for_selector("#table[data-stream=open]", state="attached")
    peter = guest_phone_for(phone, game, "Peter")
    peter.wait_for_selector("#table[data-stream=open]", state="attached")
    play(host, '{"seat": 0, "points": 6}')
    at_version(peter, "1")

    # Peter enters a score for Vanessa: refused, in the now line (a 403 is said there). The
    # host's next move reaches his phone just after: the now line and the undo button are pushed
    # anew, and the sentence he has not read yet stays.
    play(peter, '{"seat": 0, "points": 4}')
    expect(peter.locator("#now [role=alert]")).to_have_text(NOT_YOURS)
    play(host, '{"seat": 0, "points": 1}')
    at_version(peter, "2")
    expect(peter.locator("#log")).to_contain_text("Vanessa +1")
    expect(peter.locator("#now")).to_contain_text("Vanessa +1")
    expect(peter.locator("#now [role=alert]")).to_have_text(NOT_YOURS)

    # A move with a wrong field from Peter's phone: refused under its form, and the first
    # sentence goes (he has moved on). The host's next move would push his whole panel anew: it
    # waits, as for a half-filled form, and the sentence stays under the form it refused.
    play(peter, '{"seat": 1, "points": "lots"}')
    expect(peter.locator("#panel form [role=alert]")).to_contain_text(NOT_A_NUMBER)
    expect(peter.locator("#now [role=alert]")).to_have_count(0)
    play(host, '{"seat": 0, "points": 2}')
    at_version(peter, "3")
    expect(peter.locator("#log")).to_contain_text("Vanessa +2")
    expect(peter.locator("#panel form [role=alert]")).to_contain_text(NOT_A_NUMBER)

    # Peter's next move is his own and goes through: the refusal goes with it.
    play(peter, '{"seat": 1, "points": 3}')
    at_version(peter, "4")
    expect(peter.locator("#log")).to_contain_text("Peter +3")
    expect(peter.locator("[role=alert]")).to_have_count(0)
