"""Each seat's colour on every phone (issue 52, point 7): a seat's phone chooses its colour, and
the host's phone shows it with the seat's initial on the scoreboard and on the log's lines;
the seat's own controls carry it as a band."""

import pytest
from playwright.sync_api import expect

from companion import services
from tests.e2e.conftest import guest_phone_for
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RED = "rgb(213, 94, 0)"  # the palette's sixth, #d55e00


def test_a_seats_colour_chosen_on_its_phone_shows_on_the_hosts(host_phone, phone, alice):
    session = session_for(alice, game="pad", players=("Ana", "Ben"),
                          options={"game": "Hearts", "rounds": 3})
    services.session_host_seat(session=session, seat=0)
    host = host_phone()
    host.goto(f"/s/{session.pk}/")
    # Distinct colours by default, each with its seat's initial.
    dots = host.locator("#scoreboard .seat-dot")
    assert [dots.nth(n).get_attribute("data-initial") for n in (0, 1)] == ["A", "B"]
    assert host.locator("#scoreboard-seat-0 .seat-dot").get_attribute("class") \
        != host.locator("#scoreboard-seat-1 .seat-dot").get_attribute("class")

    ben = guest_phone_for(phone, session, "Ben")
    ben.wait_for_selector("#table[data-stream=open]", state="attached")
    ben.locator("#table-settings > summary").click()
    ben.get_by_label("Red").check()
    ben.get_by_role("button", name="Set the colour").click()
    expect(ben.locator("#scoreboard-seat-1 .seat-dot")).to_have_class("seat-dot seat-colour-5")
    own = ben.locator("#pad-own")
    expect(own).to_have_css("border-left-color", RED)

    # Pushed to the host's phone; then Ben's score, in the log with his colour.
    expect(host.locator("#scoreboard-seat-1 .seat-dot")).to_have_class("seat-dot seat-colour-5")
    own.locator("#pad-own-points").fill("4")
    own.get_by_role("button", name="Save").click()
    line = host.locator("#log ol.log li").first
    expect(line).to_contain_text("Ben")
    expect(line.locator(".seat-dot")).to_have_css("background-color", RED)
    expect(line.locator(".seat-dot")).to_have_attribute("data-initial", "B")
