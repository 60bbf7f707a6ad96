"""Knights & Damosels on phones: Merlin's grid grants by tap (a greyed card says why), then three
phones seal their placements; nobody sees a choice before the last is in, and the last applies
the worship."""

import os
import re

import pytest
from playwright.sync_api import expect

from companion.models import Session
from tests.e2e.conftest import guest_phone_for, no_sideways_scroll, screenshot
from tests.e2e.seat_first import settled
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("KN_SHOTS")  # a folder: save screenshots of the grid and the worship there


def shot(page, name):
    screenshot(SHOTS, page, f"kn-{name}", whole=True)


def test_three_phones_seal_and_the_last_one_applies_the_worship(phone, host_phone, alice):
    session = session_for(alice, game="knights", players=["Ann", "Bob", "Cid"],
                          options={"deck": "table"})
    host = host_phone()
    host.goto(f"/s/{session.pk}/")
    expect(host.locator("#kn-ask")).to_contain_text("reveals the event drawn at the table")
    host.get_by_label("The event revealed at the table").select_option("Holy Grail")
    host.get_by_role("button", name="Reveal", exact=True).click()
    expect(host.locator("#kn-event")).to_contain_text("honor +1")
    assert no_sideways_scroll(host)

    # Merlin's grid: choose the knight, tap the card. Ann's own damosel is Elaine: greyed, and a
    # tap says why without posting anything.
    host.locator("label.kn-seat", has_text="Bors").click()
    elaine_honor = host.locator('.kn-grant button[value="Elaine:honor"]')
    expect(elaine_honor).to_have_css("opacity", re.compile(r"0\.3"))
    elaine_honor.click()
    expect(host.locator("#kn-why")).to_contain_text("own damosel")
    assert Session.objects.get(pk=session.pk).version == 1
    shot(host, "grid")
    grants = [("Bors", "Guinevere:honor"), ("Gawain", "Isolde:loyalty"),
              ("Launcelot", "Elaine:valor")]
    for knight, card in grants:
        host.locator("label.kn-seat", has_text=knight).click()
        host.locator(f'.kn-grant button[value="{card}"]').click()
        # The host is not Merlin: the grant shows by knight and chivalry, its damosel hidden.
        expect(host.locator("#kn-hidden-grants")).to_contain_text(
            f"{knight} {card.split(':')[1]}")
    expect(host.locator("#kn-phase")).to_have_text("knight")
    for name, chivalry in [("Ann", "honor"), ("Bob", "loyalty"), ("Cid", "valor")]:
        # The host has no seat: the seats' offers are in its fold (closed again by each answer).
        # Settled first: the late answer to its last move, or its controls fetched again for a new
        # phase, would close a fold opened before they land.
        settled(host, session)
        host.locator("#kn-others > summary").click()
        host.get_by_role("button", name=f"{name} offers {chivalry}").click()
        expect(host.locator("#kn-offers")).to_contain_text(f"offered: {chivalry}")
    expect(host.locator("#kn-sealed")).to_contain_text("Ann: honor — waiting")

    phones = [guest_phone_for(phone, session, name) for name in ("Ann", "Bob", "Cid")]
    choices = {0: ("honor", "down"), 1: ("loyalty", "up"), 2: ("valor", "down")}
    for seat in (0, 1):
        page = phones[seat]
        chivalry, face = choices[seat]
        settled(page, session)  # the seat before sealed: its controls may be fetched again
        form = page.locator("#kn-seal-form")
        form.locator(f'input[name="p.{chivalry}"][value="{face}"]').check()
        form.get_by_role("button", name="Seal my placement").click()
        expect(page.locator("#kn-sealed")).to_contain_text(
            f"{['Ann', 'Bob', 'Cid'][seat]}: {chivalry} — sealed")
    # Ann's phone still shows her own face down; nobody else sees either choice.
    phones[0].reload()
    expect(phones[0].locator("#kn-seal-form")).to_contain_text("honor face down")
    phones[2].reload()
    host.reload()
    for page in (phones[1], phones[2], host):
        page.reload()
        expect(page.locator("#kn-sealed")).to_contain_text("Ann: honor — sealed")
        assert "down" not in page.locator("#log").inner_text()
    expect(phones[1].locator("#kn-seal-form")).to_contain_text("loyalty face up")
    expect(host.locator("#kn-ask")).to_contain_text("waiting for Cid")
    assert no_sideways_scroll(phones[2])
    shot(phones[2], "seal")

    # The last seal applies the worship for the whole table at once.
    last = phones[2].locator("#kn-seal-form")
    last.locator('input[name="p.valor"][value="down"]').check()
    last.get_by_role("button", name="Seal my placement").click()
    expect(phones[2].locator("#kn-resolution")).to_be_visible()
    state = Session.objects.get(pk=session.pk).state
    assert state["resolution"]["placements"] == {"0": {"honor": "down"}, "1": {"loyalty": "up"},
                                                 "2": {"valor": "down"}}
    # honor and valor down, loyalty up: the one up card takes 1 from each down card.
    assert [row["worship"] for row in state["seats"]] == [1 + 2 - 1 + 1, 1 + 2 + 2, 1 + 2 - 1]
    for page in (phones[0], phones[1], host):
        page.reload()
        expect(page.locator("#kn-resolution")).to_contain_text("honor down: 2")
        expect(page.locator("#kn-progress-1")).to_contain_text("5/30")
    shot(host, "resolved")
    host.get_by_role("button", name="End round 1").click()
    expect(host.locator("#kn-ask")).to_contain_text("Merlin (Bob)")
