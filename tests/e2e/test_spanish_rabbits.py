"""Lenino's Jack Rabbits in Spanish: Ana's phone speaks Spanish, rolls, reads her log line and a
refusal in Spanish (the edition's words: la Ciudadela, una Jota); Ben's English phone reads the
same session's line in English."""

import pytest
from playwright.sync_api import expect

from companion import services
from tests.e2e.conftest import guest_phone_for
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_move_and_a_refusal_in_spanish_the_same_line_in_english(host_phone, phone, alice):
    session = session_for(alice, game="rabbits", players=("Ana", "Ben"))
    services.session_host_seat(session=session, seat=0)  # Ana's phone is the host's
    ana = host_phone(locale="es-ES")
    ana.goto(f"/s/{session.pk}/")
    expect(ana.locator(".rb-turn")).to_contain_text("Ana empieza con una tirada")

    # The dice typed in: the log line and the "now" line in Spanish.
    own = ana.locator("[data-own]")
    own.get_by_label("primer dado").fill("3")
    own.get_by_label("segundo dado").fill("4")
    own.get_by_role("button", name="Anotar").click()
    expect(ana.locator("#rb-price")).to_have_text("7")
    expect(ana.locator("#log")).to_contain_text("Ana ha sacado 3+4: el precio es 7")
    expect(ana.locator(".now-line")).to_have_text("Turno de Ana: el precio es 7")
    expect(ana.locator(".htmx-request")).to_have_count(0)

    # Home with no royals: the rules refuse, saying what is missing, in Spanish.
    ana.locator("#rb-0-citadel").get_by_role("button", name="De vuelta en la Ciudadela").click()
    expect(ana.locator("#rb-0-citadel .error")).to_have_text(
        "Necesitas una Jota, una Reina y un Rey; tus reales: ninguno.")

    # Ben's phone speaks English: the same move's line reads in English.
    ben = guest_phone_for(phone, session, "Ben")
    expect(ben.locator("#log")).to_contain_text("Ana rolled 3+4: the price is 7")
    expect(ben.locator(".now-line")).to_have_text("Ana's turn: the price is 7")
    expect(ben.locator("#rb-seat-1")).to_contain_text(
        "Needs a Jack, a Queen and a King: holds none.")
