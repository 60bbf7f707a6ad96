"""Don Quixote in Spanish: Vanessa's phone speaks Spanish, places the castles the rules refuse
(touching) and reads the refusal in Spanish, then places them apart, turns a card and reads the
log lines and the "now" line in Spanish; Peter's English phone reads the same session's lines in
English."""

import pytest
from playwright.sync_api import expect

from companion import services
from tests.e2e.conftest import guest_phone_for
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_move_and_a_refusal_in_spanish_the_same_line_in_english(host_phone, phone, alice):
    session = session_for(alice, game="quixote", players=("Vanessa", "Peter"),
                          options={"deck": "table"})
    services.session_host_seat(session=session, seat=0)  # Vanessa's phone is the host's
    vanessa = host_phone(locale="es-ES")
    vanessa.goto(f"/s/{session.pk}/")
    expect(vanessa.locator(".now-line")).to_have_text("Ronda 1: coloca los castillos")
    castles = vanessa.locator("#qx-now form")

    # Castles that touch: the rules refuse, in Spanish.
    castles.get_by_label("Castillo de 6").select_option("F1")
    castles.get_by_label("Castillo de 4").select_option("G2")
    castles.locator("#qx-castles").click()
    expect(vanessa.locator("#qx-now .error")).to_have_text(
        "Los castillos no pueden tocarse, ni siquiera en diagonal: F1 y G2")

    # Apart: the log line in Spanish; a card turned, its line and the "now" line too.
    castles = vanessa.locator("#qx-now form")
    castles.get_by_label("Castillo de 4").select_option("C2")
    castles.locator("#qx-castles").click()
    expect(vanessa.locator("#log")).to_contain_text("Castillos: el de 6 en F1, el de 4 en C2")
    expect(vanessa.locator("#qx-now")).to_contain_text("¿Qué carta ha salido? (carta 1 de 9)")
    vanessa.locator("#qx-now .qx-picker").get_by_role("button", name="G3", exact=True).click()
    expect(vanessa.locator("#log")).to_contain_text("Ronda 1 · carta 1 de 9: G3")
    expect(vanessa.locator(".now-line")).to_have_text("Ronda 1: gira la carta 2 de 9")
    expect(vanessa.locator(".htmx-request")).to_have_count(0)

    # Peter's phone speaks English: the same moves' lines read in English.
    peter = guest_phone_for(phone, session, "Peter")
    expect(peter.locator("#log")).to_contain_text("Castles: 6 at F1, 4 at C2")
    expect(peter.locator("#log")).to_contain_text("Round 1 · card 1 of 9: G3")
    expect(peter.locator(".now-line")).to_have_text("Round 1: turn card 2 of 9")
    expect(peter.locator("#qx-where")).to_have_text("Round 1 · card 1 of 9 · G3")
