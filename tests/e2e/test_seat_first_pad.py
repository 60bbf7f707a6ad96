"""The score pad, seat-first, on three phones at 360 x 740: Ana's (the host's, at her seat), Ben's
and Cy's. Each first screen shows the scoreboard, the now line and the phone's own points; ±
makes points negative without a minus key; a double tap on Save records one move; a guest's
move for another seat is refused in the page and changes nothing."""

import pytest
from playwright.sync_api import expect

from companion import services
from tests.e2e.conftest import guest_phone_for, no_sideways_scroll
from tests.e2e.seat_first import double_tap_records_one, in_view, on_first_screen, settled
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def save_twice(page, session, button, shows="#pad-table"):
    # The page shows the session's current version first (a join or another phone's move
    # may have moved it on), so that the double tap is measured against the right one.
    settled(page, session)
    expect(button).to_be_enabled()
    double_tap_records_one(page, session, button)
    expect(page.locator(".htmx-request")).to_have_count(0)
    page.wait_for_selector(shows)
    in_view(page, "#now")


def test_three_phones_seat_first(host_phone, phone, alice):
    session = session_for(alice, game="pad", players=("Ana", "Ben", "Cy"),
                          options={"game": "Hearts", "win": "low"})
    services.session_host_seat(session=session, seat=0)
    ben = guest_phone_for(phone, session, "Ben")
    cy = guest_phone_for(phone, session, "Cy")
    ana = host_phone()
    ana.goto(f"/s/{session.pk}/")
    for page in (ana, ben, cy):
        on_first_screen(page, "#scoreboard", "#now", "[data-own]")
        assert no_sideways_scroll(page)
    expect(ben.locator("#pad-round")).to_have_count(0)
    expect(ana.locator("#pad-round-fold")).not_to_have_attribute("open", "")

    # Ben: ± first, then 5, is -5; Save tapped twice records one score. Each phone is settled
    # before its form is filled: a form half filled is never redrawn, so one filled before the
    # controls fetched again after another phone's move stays drawn for the older table.
    settled(ben, session)
    own = ben.locator("[data-own]")
    own.get_by_role("button", name="Plus or minus").click()
    own.locator("#pad-own-points").press_sequentially("5")
    expect(own.locator("#pad-own-points")).to_have_value("-5")
    save_twice(ben, session, own.get_by_role("button", name="Save"))
    session.refresh_from_db()
    assert session.state["seats"][1]["scores"] == [-5]

    # Cy: 7, then ± makes it -7 (Ben's score began round 1: Cy's controls are fetched again).
    settled(cy, session)
    own = cy.locator("[data-own]")
    own.locator("#pad-own-points").fill("7")
    own.get_by_role("button", name="Plus or minus").click()
    expect(own.locator("#pad-own-points")).to_have_value("-7")
    save_twice(cy, session, own.get_by_role("button", name="Save"))

    # Ana's own score, then the host's round for every seat, each tapped twice.
    settled(ana, session)
    own = ana.locator("[data-own]")
    own.locator("#pad-own-points").fill("3")
    save_twice(ana, session, own.get_by_role("button", name="Save"))
    ana.locator("#pad-round-fold > summary").click()
    for seat, points in enumerate((1, 2, 3)):
        ana.locator(f"#pad-score-{seat}").fill(str(points))
    save_twice(ana, session, ana.get_by_role("button", name="Save round 2"))
    session.refresh_from_db()
    assert [seat["scores"] for seat in session.state["seats"]] == [[3, 1], [-5, 2], [-7, 3]]

    # Cy's phone sends a score for Ben's seat: refused in the page, nothing changes.
    settled(cy, session)
    before = session.version
    cy.locator("[data-own] input[name=seat]").evaluate("input => input.value = '1'")
    cy.locator("#pad-own-points").fill("4")
    cy.locator("[data-own]").get_by_role("button", name="Save").click()
    expect(cy.get_by_text("This is Ben's move: it comes from Ben's phone or the host's.")
           .first).to_be_visible()
    session.refresh_from_db()
    assert session.version == before
