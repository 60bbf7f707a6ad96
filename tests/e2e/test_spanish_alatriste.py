"""El Capitán Alatriste in Spanish: the host's phone in Spanish sets up two players and starts a
turn, reading the log lines in Spanish (Esgrima, ducados), tries a turn out of order and reads
the refusal in Spanish; Quevedo's phone in English reads the same session's lines in English.
The players' names are the same in both."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import guest_phone_for
from tests.e2e.seat_first import answered
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Íñigo", "Quevedo"]


def seat_controls(page, seat):
    """A seat's controls on the host's phone: its own first, the others' in the fold."""
    others = page.locator("#al-others")
    if others.count() and others.get_attribute("open") is None:
        others.locator("> summary").click()
    return page.locator(f"#al-seat-{seat}")


def test_a_turn_and_a_refusal_in_spanish_and_the_same_log_in_english(host_phone, phone, alice):
    session = session_for(alice, game="alatriste", players=NAMES)
    host = host_phone(locale="es-ES")
    host.goto(f"/s/{session.pk}/")
    expect(host.locator("#now")).to_contain_text("Empieza quien saque más con el dado")

    for seat in range(2):
        seat_controls(host, seat).get_by_role("button", name="Esgrima 4 · 6 ducados").click()
        answered(host)
        expect(host.locator(f"#al-sheet-{seat} [data-stat=ducats]")).to_have_text("6")
    expect(host.locator("#log")).to_contain_text("Íñigo se prepara: Esgrima 4, 6 ducados")

    seat_controls(host, 0).get_by_role("button", name="Empieza el turno: cobra la renta").click()
    expect(host.locator("#log")).to_contain_text("Turno de Íñigo: +1 ducado")
    expect(host.locator("#now")).to_contain_text("Siguiente: turno de Quevedo")
    answered(host)

    # Íñigo again, out of order: the rules refuse it, in Spanish.
    seat_controls(host, 0).get_by_role("button", name="Empieza el turno: cobra la renta").click()
    expect(host.locator("#al-seat-0 .error")).to_have_text(
        "Ahora le toca a Quevedo, no a Íñigo: los turnos dan la vuelta a la mesa por orden de "
        "asiento.")
    expect(host.locator("#log")).not_to_contain_text("Next")

    # The same session on Quevedo's phone, in English: the same lines in English.
    quevedo = guest_phone_for(phone, session, "Quevedo", locale="en-US")
    expect(quevedo.locator("#log")).to_contain_text("Íñigo's turn: +1 ducat")
    expect(quevedo.locator("#log")).to_contain_text("Íñigo set up: Fencing 4, 6 ducats")
    expect(quevedo.locator("#now")).to_contain_text("Next: Quevedo's turn")
    expect(quevedo.locator("#al-sheet-0")).to_contain_text("Fencing")
    expect(quevedo.locator("#log")).not_to_contain_text("Turno")
