"""Knights & Damosels in Spanish: the host's phone speaks Spanish, reveals the event and grants a
card (the log lines, the "now" line and the phase in Spanish, the edition's names kept), reads
why a greyed card cannot go to a knight, and enters a joust the rules refuse (a knight challenging
himself) and reads the refusal in Spanish; Bob's English phone reads the same session's lines in
English."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import guest_phone_for
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_move_and_a_refusal_in_spanish_the_same_lines_in_english(host_phone, phone, alice):
    session = session_for(alice, game="knights", players=["Ann", "Bob", "Cid"],
                          options={"deck": "table"})
    host = host_phone(locale="es-ES")
    host.goto(f"/s/{session.pk}/")
    expect(host.locator(".now-line")).to_have_text(
        "Ronda 1, fase de evento: Bob es Arthur y Ann, Merlin")
    expect(host.locator("#kn-ask")).to_have_text(
        "Merlin (Ann) revela el evento robado en la mesa.")

    # The event: its log line in Spanish, the event's and the cards' names as printed.
    host.get_by_label("El evento revelado en la mesa").select_option("Holy Grail")
    host.get_by_role("button", name="Revelar", exact=True).click()
    expect(host.locator("#log")).to_contain_text(
        "Ann (Merlin) reveló Holy Grail (Búsqueda: honor, loyalty, valor, farmer, fisher, "
        "forester)")
    expect(host.locator("#kn-phase")).to_have_text("caballeros")
    expect(host.locator(".now-line")).to_have_text(
        "Ronda 1, fase de caballeros: Bob es Arthur y Ann, Merlin; evento: Holy Grail")

    # A greyed card says why in Spanish (Ann's own damosel is Elaine); then a grant by tap.
    host.locator("label.kn-seat", has_text="Bors").click()
    host.locator('.kn-grant button[value="Elaine:honor"]').click()
    expect(host.locator("#kn-why")).to_have_text(
        "El caballero de Ann no puede tomar una carta de Elaine, la propia damisela de Ann.")
    host.locator('.kn-grant button[value="Guinevere:honor"]').click()
    expect(host.locator("#log")).to_contain_text(
        "A Bors de Ann se le otorgó una carta de honor")

    # A joust the rules refuse: Ann's knight challenging himself.
    joust = host.locator("#kn-joust form")
    joust.get_by_label("Retador").select_option(label="Ann (Bors)")
    joust.get_by_role("button", name="Anotar la justa").click()
    expect(host.locator("#kn-joust .error")).to_have_text(
        "Un caballero no puede desafiarse a sí mismo.")
    expect(host.locator(".htmx-request")).to_have_count(0)

    # Bob's phone speaks English: the same moves' lines read in English.
    bob = guest_phone_for(phone, session, "Bob")
    expect(bob.locator("#log")).to_contain_text(
        "Ann (Merlin) revealed Holy Grail (Quest: honor, loyalty, valor, farmer, fisher, "
        "forester)")
    expect(bob.locator("#log")).to_contain_text("Ann's Bors was granted a card of honor")
    expect(bob.locator(".now-line")).to_have_text(
        "Round 1, knight phase: Bob is Arthur, Ann Merlin; event: Holy Grail")
    expect(bob.locator("#kn-phase")).to_have_text("knight")
