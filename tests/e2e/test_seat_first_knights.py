"""Knights & Damosels, seat-first, on three phones at 360 x 740: Ann's (the host's, at her seat:
Merlin), Bob's (Arthur) and Cid's. Each first screen shows the scoreboard, the now line and the
phone's own part; Arthur draws and discards on his phone, Merlin reveals and grants on hers, each
knight offers, jousts and seals on his own; each move's result is in view; a double tap on every
kind of move button records one move; a guest's offer for another seat is refused in the page
with its sentence and changes nothing."""

import os

import pytest
from playwright.sync_api import expect

from companion import services
from games.knights import panel, rules
from tests.e2e.conftest import guest_phone_for, no_sideways_scroll, screenshot
from tests.e2e.seat_first import (
    in_view,
    on_first_screen,
    settled,
    tap_twice,
)
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("KN_SHOTS")


def shot(page, name):
    screenshot(SHOTS, page, f"kn-seat-first-{name}")



def legal_grant(state, seat, chivalries):
    """A card of one of `chivalries` that Merlin may grant to `seat` now."""
    for chivalry in chivalries:
        for damosel in rules.DAMOSELS:
            if not panel._reason(rules.check_grant, state, seat, damosel, chivalry):
                return damosel, chivalry
    raise AssertionError(f"no card of {chivalries} for seat {seat}")


def test_three_phones_seat_first(host_phone, phone, alice):
    session = session_for(alice, game="knights", players=("Ann", "Bob", "Cid"),
                          options={"deck": "app"}, seed="s")
    services.session_host_seat(session=session, seat=0)
    bob = guest_phone_for(phone, session, "Bob")
    cid = guest_phone_for(phone, session, "Cid")
    ann = host_phone()
    ann.goto(f"/s/{session.pk}/")
    phones = (("ann", ann), ("bob", bob), ("cid", cid))

    # (a) Every first screen: the scoreboard, the now line and the phone's own part. Arthur's
    # draw is on his phone; the others' own part says whose step it is.
    for name, page in phones:
        on_first_screen(page, "#scoreboard", "#now", "[data-own]")
        assert no_sideways_scroll(page)
        shot(page, f"1-{name}")
    expect(bob.locator("[data-own]").get_by_role(
        "button", name="Arthur (Bob) draws 3 events")).to_be_visible()
    expect(cid.locator("[data-own]")).to_contain_text("Nothing for you to do now")
    expect(cid.locator("#kn-events")).to_have_count(0)

    # (c) Arthur draws and discards, Merlin reveals: each twice tapped, one move each.
    tap_twice(bob, session, bob.get_by_role("button", name="Arthur (Bob) draws 3 events"))
    session.refresh_from_db()
    drawn = session.state["event_choices"]
    discard = bob.locator("[data-own]").get_by_role("button", name=f"Discard {drawn[0]}")
    tap_twice(bob, session, discard)
    event = next(e for e in drawn[1:] if rules.event_kind(e) in ("war", "quest"))
    reveal = ann.locator("[data-own]").get_by_role("button", name=f"Reveal {event}")
    expect(reveal).to_be_visible()  # the pushed part moved on: Merlin's controls came again
    on_first_screen(ann, "#scoreboard", "#now", "[data-own]")
    shot(ann, "2-reveal")
    tap_twice(ann, session, reveal, shows="#kn-own-event")
    session.refresh_from_db()
    assert session.state["event"] == event and session.state["phase"] == "knight"

    # Merlin's grants: the knight, then a card, twice tapped; the card granted stays in view.
    # Bob and Cid get a card of one chivalry (Cid jousts for Bob's), Ann one of another.
    shared = [c for c in rules.event_list(session.state, event) if c in rules.SHARED]
    for seat, knight, chivalries in ((1, "Gawain", shared[:1]), (2, "Launcelot", shared[:1]),
                                     (0, "Bors", shared[1:])):
        session.refresh_from_db()
        damosel, chivalry = legal_grant(session.state, seat, chivalries)
        ann.locator("label.kn-seat", has_text=knight).click()
        card = ann.locator(f'.kn-grant button[value="{damosel}:{chivalry}"]')
        tap_twice(ann, session, card)
        in_view(ann, f'.kn-grant button[value="{damosel}:{chivalry}"].granted')
    on_first_screen(ann, "#scoreboard", "#now", "[data-own]")
    assert no_sideways_scroll(ann)
    shot(ann, "3-granted")
    session.refresh_from_db()
    held = {g["seat"]: g["chivalry"] for g in session.state["granted"]}

    # (d) Cid's phone sends an offer for Bob's seat: refused in the page, nothing changes.
    settled(cid, session)
    offer = cid.locator("[data-own]").get_by_role("button", name=f"Cid offers {held[2]}")
    expect(offer).to_be_visible()
    on_first_screen(cid, "#scoreboard", "#now", "[data-own]")
    shot(cid, "4-offer")
    before = session.version
    offer.locator("xpath=ancestor::form").locator("input[name=seat]").evaluate(
        "input => input.value = '1'")
    offer.click()
    expect(cid.locator("#now .error")).to_have_text(
        "This is Bob's move: it comes from Bob's phone or the host's.")
    in_view(cid, "#now .error")
    session.refresh_from_db()
    assert session.version == before and session.state["seats"][1]["offered"] == []
    shot(cid, "5-refused")

    # Offers and a joust, twice tapped, each from its own knight's phone.
    settled(bob, session)
    tap_twice(bob, session, bob.locator("[data-own]").get_by_role(
        "button", name=f"Bob offers {held[1]}"), shows="[data-own] .kn-offer")
    joust = cid.locator("[data-own] #kn-joust")
    expect(joust.locator("#kn-target option")).to_have_count(1)  # Bob's offer, pushed
    expect(joust.locator("#kn-challenger")).to_have_value("2")
    settled(cid, session)  # an answer landing after the tap would fold the joust again
    joust.locator("summary").click()  # the joust is folded: the exception in a round
    tap_twice(cid, session, joust.get_by_role("button", name="Enter the joust"))
    settled(ann, session)
    tap_twice(ann, session, ann.locator("[data-own]").get_by_role(
        "button", name=f"Ann offers {held[0]}"), shows="[data-own] .kn-offer")
    session.refresh_from_db()
    assert [row["offered"] for row in session.state["seats"]] == [[held[0]], [held[1]], []]
    assert len(session.state["joust"]["challenged"]) == 1

    # Seals from the two knights' own phones (the host's seat too); the last one applies the
    # worship, in view.
    for page, last in ((bob, False), (ann, True)):
        # The other phones' offers and the joust moved the table on: this phone's controls come
        # again, and a measure taken meanwhile finds its own part replaced.
        settled(page, session)
        seal = page.locator("[data-own] #kn-seal-form")
        expect(seal).to_be_visible()
        on_first_screen(page, "#scoreboard", "#now", "[data-own]")
        seal.locator('input[value="down"]').first.check()
        tap_twice(page, session, seal.get_by_role("button", name="Seal my placement"),
                  shows="#kn-resolution" if last else "#kn-seal-form")
    expect(bob.locator("#kn-resolution")).to_be_visible()  # pushed to the other phones
    shot(ann, "6-worship")
    session.refresh_from_db()
    assert session.state["resolution"] is not None

    # The end of the round is the table's: twice tapped on a guest's phone, one move.
    end = bob.get_by_role("button", name="End round 1")
    expect(end).to_be_visible()
    tap_twice(bob, session, end)
    session.refresh_from_db()
    assert session.state["round"] == 2 and session.state["phase"] == "event"
    # Round 2: Bob is Merlin now, Cid Arthur: the draw is on Cid's phone, first.
    draw = cid.locator("[data-own]").get_by_role("button", name="Arthur (Cid) draws 3 events")
    expect(draw).to_be_visible()
    for name, page in phones:
        on_first_screen(page, "#scoreboard", "#now", "[data-own]")
        assert no_sideways_scroll(page)
        shot(page, f"7-round2-{name}")
