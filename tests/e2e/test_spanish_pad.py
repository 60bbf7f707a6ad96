"""The score pad in Spanish: a host's phone in Spanish plays a round and reads its log line in
Spanish, tries a correction the rules refuse and reads the refusal in Spanish; a guest's phone in
English reads the same session's log line in English. The name the host gave the game (Hearts)
is the same in both."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import guest_phone_for
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Ana", "Ben", "Cy", "Di"]
SCORES = [5, -3, 8, 2]


def test_a_round_and_a_refusal_in_spanish_and_the_same_log_in_english(host_phone, phone, alice):
    session = session_for(alice, game="pad", players=NAMES,
                          options={"game": "Hearts", "win": "low", "rounds": 5})
    ana = host_phone(locale="es-ES")
    ana.goto(f"/s/{session.pk}/")
    expect(ana.locator("#pad-game")).to_have_text("Hearts")
    expect(ana.locator(".pad-head")).to_contain_text("Gana la puntuación más baja")
    expect(ana.locator("#now")).to_contain_text("Ronda 1 de 5")

    form = ana.locator("#pad-round")
    expect(form.locator("h3")).to_have_text("Ronda 1")
    # The ± button the script adds is named in the page's language too.
    expect(form.get_by_role("button", name="Más o menos")).to_have_count(len(NAMES))
    for seat, points in enumerate(SCORES):
        form.locator(f"#pad-score-{seat}").fill(str(points))
    form.get_by_role("button", name="Guardar ronda 1").click()
    expect(ana.locator(".htmx-request")).to_have_count(0)
    expect(ana.locator("#log")).to_contain_text("Ronda 1: Ana +5, Ben -3, Cy +8, Di +2")
    expect(ana.locator("#now")).to_contain_text("Ronda 2 de 5")
    expect(ana.locator("#pad-leader")).to_have_text("En cabeza: Ben")

    # A correction to what the entry is already: the rules refuse it, in Spanish.
    ana.locator("#pad-correct summary").click()
    correct = ana.locator("#pad-correct form")
    correct.get_by_label("Persona").select_option(label="Ana")
    correct.get_by_label("Ronda").select_option("1")
    correct.get_by_label("Puntos").fill("5")
    correct.get_by_role("button", name="Corregir").click()
    expect(ana.locator("#pad-correct .error")).to_have_text("La ronda 1 de Ana ya es 5.")
    expect(ana.locator("#log")).not_to_contain_text("corregida")

    # The same session on Ben's phone, in English: the same line in English.
    ben = guest_phone_for(phone, session, "Ben", locale="en-US")
    expect(ben.locator("#log")).to_contain_text("Round 1: Ana +5, Ben -3, Cy +8, Di +2")
    expect(ben.locator("#now")).to_contain_text("Round 2 of 5")
    expect(ben.locator("#pad-leader")).to_have_text("Leading: Ben")
    expect(ben.locator("#log")).not_to_contain_text("Ronda")
