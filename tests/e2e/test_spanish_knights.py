"""Knights & Damosels in Spanish: the host's phone speaks Spanish, reveals the event and grants a
card (the log lines, the "now" line and the phase in Spanish, the events and chivalries in
Spanish, the knights' and damosels' names as printed), reads why a greyed card cannot go to a
knight, and enters a joust the rules refuse (a knight challenging himself) and reads the refusal
in Spanish; Bob's English phone reads the same session's lines in English."""

import re

import pytest
from playwright.sync_api import expect

from games.knights import rules
from tests.e2e.conftest import guest_phone_for, no_sideways_scroll
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The English names of the chivalries and events that Spanish names otherwise.
SAME_IN_SPANISH = {"honor", "valor", "Excalibur"}
ENGLISH_NAMES = re.compile(
    r"\b(" + "|".join(re.escape(name) for name in (*rules.CHIVALRIES, *rules.EVENTS)
                      if name not in SAME_IN_SPANISH) + r")\b", re.IGNORECASE)


def english_names_shown(page):
    """The English chivalry and event names a reader meets on the page: in its text (a select's
    options too) and in the labels and titles read aloud or shown on a long press."""
    shown = page.evaluate("""() => [document.body.innerText,
        ...[...document.querySelectorAll("option")].map(option => option.textContent),
        ...[...document.querySelectorAll("[aria-label], [title]")].map(
            el => `${el.getAttribute("aria-label") || ""} ${el.getAttribute("title") || ""}`),
    ].join("\\n")""")
    return sorted({match.group(0) for match in ENGLISH_NAMES.finditer(shown)})


def test_a_move_and_a_refusal_in_spanish_the_same_lines_in_english(host_phone, phone, alice):
    session = session_for(alice, game="knights", players=["Ann", "Bob", "Cid"],
                          options={"deck": "table"})
    host = host_phone(locale="es-ES")
    host.goto(f"/s/{session.pk}/")
    expect(host.locator(".now-line")).to_have_text(
        "Ronda 1, fase de evento: Bob es Arthur y Ann, Merlin")
    expect(host.locator("#kn-ask")).to_have_text(
        "Merlin (Ann) revela el evento robado en la mesa.")

    # Every event is offered by its Spanish name (the value sent is the state's own name), and
    # the select fits the phone's screen.
    events = host.get_by_label("El evento revelado en la mesa")
    expect(events.locator('option[value="The Treason of Mordred"]')).to_have_text(
        "La traición de Mordred")
    assert english_names_shown(host) == []
    box = events.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box

    # The event: its log line, its name and the chivalries it lists in Spanish.
    events.select_option("Holy Grail")
    host.get_by_role("button", name="Revelar", exact=True).click()
    expect(host.locator("#log")).to_contain_text(
        "Ann (Merlin) reveló Santo Grial (Búsqueda: honor, lealtad, valor, labranza, pesca, "
        "bosque)")
    expect(host.locator("#kn-phase")).to_have_text("caballeros")
    expect(host.locator(".now-line")).to_have_text(
        "Ronda 1, fase de caballeros: Bob es Arthur y Ann, Merlin; evento: Santo Grial")
    expect(host.locator("#kn-event h3")).to_have_text("Santo Grial (Búsqueda)")
    expect(host.locator("#kn-event .kn-chip")).to_have_text(
        ["honor +1", "lealtad", "valor", "labranza", "pesca", "bosque"])
    # The card grid's rows (Merlin's grid, the host's here): the chivalries in Spanish.
    expect(host.locator("#kn-grant .kn-rowhead")).to_have_text(
        ["armadura", "caballo", "espada", "honor", "lealtad", "valor", "labranza", "pesca",
         "bosque"])
    # The Spanish names fit: no row head cut off, the grid and the event within the screen.
    assert host.locator("#kn-grant .kn-rowhead").evaluate_all(
        "heads => heads.filter(head => head.scrollWidth > head.clientWidth + 1)"
        ".map(head => head.textContent)") == []
    for part in ("#kn-grant .kn-grid", "#kn-table-event"):
        box = host.locator(part).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, (part, box)

    # A greyed card says why in Spanish (Ann's own damosel is Elaine); then a grant by tap.
    host.locator("label.kn-seat", has_text="Bors").click()
    host.locator('.kn-grant button[value="Elaine:loyalty"]').click()
    expect(host.locator("#kn-why")).to_have_text(
        "El caballero de Ann no puede tomar una carta de Elaine, la propia damisela de Ann.")
    host.locator('.kn-grant button[value="Guinevere:loyalty"]').click()
    expect(host.locator("#log")).to_contain_text(
        "A Bors de Ann se le otorgó una carta de lealtad")
    expect(host.locator("#kn-hidden-grants")).to_contain_text("Bors de Ann: lealtad")
    assert english_names_shown(host) == []
    assert no_sideways_scroll(host)

    # A joust the rules refuse: Ann's knight challenging himself.
    joust = host.locator("#kn-joust form")
    expect(joust.get_by_label("La carta desafiada")).to_have_text("Ann: lealtad")
    host.locator("#kn-joust > summary").click()  # folded: the exception in a round
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
    expect(bob.locator("#log")).to_contain_text("Ann's Bors was granted a card of loyalty")
    expect(bob.locator(".now-line")).to_have_text(
        "Round 1, knight phase: Bob is Arthur, Ann Merlin; event: Holy Grail")
    expect(bob.locator("#kn-phase")).to_have_text("knight")
