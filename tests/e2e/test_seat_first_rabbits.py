"""Lenino's Jack Rabbits, seat-first, on three phones at 360 x 740: Ana's (the host's, at her
seat), Ben's and Cy's. Each first screen shows the scoreboard, the now line and the phone's own
moves; each move's result is in view; a double tap on every kind of move button records one
move; a guest's move for another seat is refused in the page and changes nothing."""

import os

import pytest
from playwright.sync_api import expect

from companion import services
from tests.e2e.conftest import guest_phone_for, no_sideways_scroll
from tests.e2e.seat_first import (
    in_view,
    on_first_screen,
    settled,
    tap_twice,
)
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("RABBITS_SHOTS")


def shot(page, name):
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/seat-first-{name}.png")



def pick(page, box, *cards):
    symbols = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    for card in cards:
        box.locator(f'[data-rank="{card[:-1]}"]').click()
        box.get_by_role("button", name=symbols[card[-1]], exact=True).click()


def test_three_phones_seat_first(host_phone, phone, alice):
    session = session_for(alice, game="rabbits", players=("Ana", "Ben", "Cy"))
    services.session_host_seat(session=session, seat=0)
    ben = guest_phone_for(phone, session, "Ben")
    cy = guest_phone_for(phone, session, "Cy")
    ana = host_phone()
    ana.goto(f"/s/{session.pk}/")

    # (a) The first screen: scoreboard, now line and the phone's own moves, on every phone.
    for name, page in (("ana", ana), ("ben", ben), ("cy", cy)):
        on_first_screen(page, "#scoreboard", "#now", "[data-own]")
        assert no_sideways_scroll(page)
        shot(page, f"1-{name}")
    expect(ana.locator("[data-own]").get_by_role("button", name="Roll the dice for Ana")) \
        .to_be_visible()
    expect(ben.get_by_role("button", name="Roll the dice for Ben")).to_be_hidden()
    # A guest's phone carries its own seat's moves only.
    expect(ben.locator(".rb-controls")).to_have_count(1)
    expect(ana.locator("#rb-others")).not_to_have_attribute("open", "")

    own = ana.locator("[data-own]")
    # Typed dice, the lottery, a payment and an audience, each tapped twice.
    own.get_by_label("first die").fill("3")
    own.get_by_label("second die").fill("4")
    tap_twice(ana, session, own.get_by_role("button", name="Enter"))
    expect(ana.locator("#now")).to_contain_text("the price is 7")
    shot(ana, "2-rolled")

    own.locator(".rb-lottery > summary").click()
    pick(ana, own.locator(".rb-lottery"), "3H")
    tap_twice(ana, session, own.get_by_role("button", name="Show the card"))
    expect(ana.locator("#now")).to_contain_text("3H")

    own.locator(".rb-pay > summary").click()
    own.locator(".rb-pay").get_by_role("checkbox", name="hearts").check()
    pick(ana, own.locator(".rb-pay"), "7H")
    tap_twice(ana, session, own.locator(".rb-pay").get_by_role("button", name="Pay"))
    expect(ana.locator("#now")).to_contain_text("Ana paid 7H")

    own.locator(".rb-audience > summary").click()
    own.locator(".rb-audience").get_by_label("J♥").check()
    pick(ana, own.locator(".rb-audience"), "10H")
    tap_twice(ana, session, own.locator(".rb-audience")
              .get_by_role("button", name="Hold the audience"))
    expect(ana.locator("#rb-royal-JH")).to_contain_text("Ana")
    shot(ana, "3-audience")

    # Ben's phone is told it rolls now (only the live part was pushed to it), and steals.
    roll = ben.get_by_role("button", name="Roll the dice for Ben")
    expect(roll).to_be_visible()
    tap_twice(ben, session, roll)
    expect(ben.locator("#now")).to_contain_text("Ben's turn")
    ben.locator("[data-own] .rb-steal > summary").click()
    tap_twice(ben, session, ben.get_by_role("button", name="Steal JH from Ana"))
    expect(ben.locator("#rb-royal-JH")).to_contain_text("Ben")
    shot(ben, "4-stole")

    # Ana, thrown off, is back on the board: her own "where" buttons.
    settled(ana, session)
    tap_twice(ana, session, own.get_by_role("button", name="On the board"))
    expect(ana.locator("#now")).to_contain_text("Ana is now on the board")

    # Cy rolls; then Ben's own phone says Cy won a spades attack against him.
    roll = cy.get_by_role("button", name="Roll the dice for Cy")
    expect(roll).to_be_visible()
    tap_twice(cy, session, roll)
    settled(ben, session)
    stolen = ben.locator("[data-own] .rb-stolen")
    stolen.locator("summary").click()
    stolen.get_by_label("Who won the attack").select_option(label="Cy")
    tap_twice(ben, session, stolen.get_by_role("button", name="JH taken from Ben"))
    expect(ben.locator("#rb-royal-JH")).to_contain_text("Cy")

    # (d) Cy's phone sends a move for Ana's seat: refused in the page, nothing changes.
    settled(cy, session)
    before = session.version
    cy.locator("[data-own] .rb-where input[name=seat]").evaluate("input => input.value = '0'")
    cy.locator("[data-own] .rb-where").get_by_role("button", name="Off").click()
    # The platform says a refusal of whose move it is in the now line, in view.
    refusal = cy.get_by_text("This is Ana's move: it comes from Ana's phone or the host's.")
    expect(refusal.first).to_be_visible()
    in_view(cy, "#now")
    session.refresh_from_db()
    assert session.version == before
    shot(cy, "5-refused")

    # Back at the Citadel: Ana's royals are entered at the table's pace through the services,
    # then her phone's Citadel button, tapped twice, ends the game once.
    host = services.Actor.host(session)
    for royal, cards in (("JD", "10D"), ("QS", "10S"), ("KC", "10C")):
        session.refresh_from_db()
        roller = session.state["turn"]["seat"] if session.state["turn"]["dice"] is None \
            else (session.state["turn"]["seat"] + 1) % 3
        while roller != 0:
            services.move_play(session=session, type="roll", data={"seat": roller, "dice": [1, 1]},
                               actor=host)
            session.refresh_from_db()
            roller = (roller + 1) % 3
        services.move_play(session=session, type="roll", data={"seat": 0, "dice": [1, 3]},
                           actor=host)
        services.move_play(session=session, type="audience",
                           data={"seat": 0, "royal": royal, "cards": [cards]}, actor=host)
    for seat in (1, 2, 0):
        services.move_play(session=session, type="roll", data={"seat": seat, "dice": [1, 1]},
                           actor=host)
    ana.reload()
    on_first_screen(ana, "#scoreboard", "#now", "[data-own]")
    citadel = own.locator(".rb-citadel").get_by_role("button", name="Back at the Citadel")
    tap_twice(ana, session, citadel, shows="#scoreboard")
    expect(ana.locator(".rb-winner")).to_have_text("Ana is back at the Citadel and wins!")
    # The final screen: no controls on any phone.
    for page in (ana, ben, cy):
        expect(page.locator(".rb-winner")).to_be_visible()
        expect(page.locator(".rb-controls:visible")).to_have_count(0)
    shot(ana, "6-won")
    shot(ben, "6-won-ben")
