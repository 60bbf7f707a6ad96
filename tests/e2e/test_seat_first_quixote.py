"""Don Quixote, seat-first, on three phones at 360 x 740: Ana's (the host's, at her seat), Ben's
and Cy's. Each first screen shows the scoreboard, the now line and the phone's own part; turning
a card is any seated phone's move, a round's score the seat's own; once a round is over, each
phone's own score form is at the top of its screen; each move's result is in view (after saving
a round, the next step: "Turn card 1 of 7"); a double tap on every kind of move button records
one move; a guest's score for another seat is refused in the page and changes nothing; the final
screen shows no controls and no giant field."""

import os

import pytest
from playwright.sync_api import expect

from companion import services
from tests.e2e import seat_first
from tests.e2e.conftest import guest_phone_for, no_sideways_scroll, screenshot
from tests.e2e.seat_first import in_view, on_first_screen, settled, starts_the_screen
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("QX_SHOTS")
SCORE = {"castle6_knights": 1, "castle4_knights": 1, "church_groups": [2],
         "windmill_groups": [], "defense_shields": 4}


def shot(page, name):
    screenshot(SHOTS, page, f"seat-first-{name}")


def tap_twice(page, session, button, shows="#qx-now"):
    """seat_first.tap_twice, with the table's own "now" as the result shown."""
    seat_first.tap_twice(page, session, button, shows)

def test_three_phones_seat_first(host_phone, phone, alice):
    session = session_for(alice, game="quixote", players=("Ana", "Ben", "Cy"),
                          options={"deck": "app"}, seed="seat-first")
    services.session_host_seat(session=session, seat=0)
    ben = guest_phone_for(phone, session, "Ben")
    cy = guest_phone_for(phone, session, "Cy")
    ana = host_phone()
    ana.goto(f"/s/{session.pk}/")
    phones = (("ana", ana), ("ben", ben), ("cy", cy))

    # (a) The castles: the table's step is every seated phone's own part, on its first screen.
    for name, page in phones:
        on_first_screen(page, "#scoreboard", "#now", "[data-own]")
        expect(page.locator("[data-own]").get_by_role(
            "button", name="Turn the castle cards")).to_be_visible()
        assert no_sideways_scroll(page)
        shot(page, f"1-{name}")

    # (c) Turning the castle cards and a position card, twice tapped, on guests' phones.
    tap_twice(ben, session, ben.get_by_role("button", name="Turn the castle cards"))
    expect(ben.locator("#qx-grid .qx-castle6")).to_have_count(1)
    settled(cy, session)  # pushed: Cy's phone shows the first card's button
    tap_twice(cy, session, cy.locator("#qx-turn"), shows="#qx-current")
    session.refresh_from_db()
    assert len(session.state["turned"]) == 1
    expect(cy.locator("#qx-current")).to_have_text(session.state["current"])
    for _ in range(7):
        tap_twice(ana, session, ana.locator("#qx-turn"), shows="#qx-current")
    on_first_screen(ana, "#scoreboard", "#now", "[data-own]")
    shot(ana, "2-placing")
    # The round's last card: its result is the now line's (the field, and whose round to
    # score), and this phone's own round to score comes first below it.
    tap_twice(ben, session, ben.locator("#qx-turn"), shows="#now")
    expect(ben.locator("#now")).to_contain_text("score the round")
    session.refresh_from_db()
    assert session.state["phase"] == "scoring" and len(session.state["turned"]) == 9

    # Round 1 is over: each phone's own form comes first, although only the table's part was
    # pushed to the phones that did not turn the last card. Wherever each phone was on its page
    # (Ana's and Cy's were pushed the round's end, Ben's turned the last card), and on a page
    # loaded afresh, the page brings the form to the top of its screen, under the now line,
    # where it fills the rest of the 740 px. A guest carries no other seat's form.
    height = ana.viewport_size["height"]
    for index, (name, page) in enumerate(phones):
        own = page.locator(f"[data-own] #qx-score-{index}")
        expect(own).to_have_attribute("open", "")
        box = starts_the_screen(page, f"#qx-score-{index}")
        assert 0 <= box["y"] < height / 2 and box["y"] + box["height"] >= height, (name, box)
        shot(page, f"3-scoring-{name}")
    cy.goto(f"/s/{session.pk}/")
    box = starts_the_screen(cy, "#qx-score-2")
    assert 0 <= box["y"] < height / 2 and box["y"] + box["height"] >= height, box
    for page in (ana, ben, cy):
        on_first_screen(page, "#scoreboard", "#now", "[data-own]")
        assert no_sideways_scroll(page)
    for page in (ben, cy):
        expect(page.locator(".qx-score")).to_have_count(1)
    expect(ana.locator("#qx-others")).not_to_have_attribute("open", "")
    expect(ana.locator("#qx-others .qx-score")).to_have_count(2)

    # (d) Cy's phone sends a score for Ana's seat: refused in the now line, which stays in view
    # wherever the phone is on the page; nothing changes.
    settled(cy, session)
    before = session.version
    form = cy.locator("#qx-score-2")
    form.locator("input[name=seat]").evaluate("input => input.value = '0'")
    form.get_by_role("button", name="Save Cy's round 1").click()
    expect(cy.locator("#now .error")).to_have_text(
        "This is Ana's move: it comes from Ana's phone or the host's.")
    in_view(cy, "#now .error")
    session.refresh_from_db()
    assert session.version == before and session.state["seats"][0]["rounds"] == []
    shot(cy, "4-refused")

    # (c) Saving a round, twice tapped: one score; the next step is in view.
    for index, (name, page) in enumerate(phones):
        settled(page, session)
        save = page.locator(f"#qx-score-{index}").get_by_role("button", name="Save")
        tap_twice(page, session, save, shows="#now")  # the now line says what was scored
        expect(page.locator("#now")).to_contain_text("scored round 1")
        session.refresh_from_db()
        assert [entry["round"] for entry in session.state["seats"][index]["rounds"]] == [1]
        shot(page, f"5-saved-{name}")
    # Cy's save ended round 1: "Turn card 1 of 7" is on his screen without scrolling.
    turn = cy.locator("#qx-turn")
    expect(turn).to_have_text("Turn card 1 of 7")
    session.refresh_from_db()
    cy.wait_for_selector(f'#table[data-qx-shown="{session.version}"]', state="attached")
    in_view(cy, "#qx-turn")
    for _name, page in phones:
        expect(page.locator("#qx-where")).to_have_text("Round 2 · no card turned yet (0 of 7)")

    # The rest of the game at the table's pace, through the services; then the final screen:
    # the standings, the scores, no controls and no giant field on any phone.
    host = services.Actor.host(session)
    for round_ in (2, 3):
        session.refresh_from_db()
        while session.state["phase"] == "placing":
            services.move_play(session=session, type="turn", data={}, actor=host)
            session.refresh_from_db()
        for seat in range(3):
            services.move_play(session=session, type="score", actor=host,
                               data={"seat": seat, "round": round_, **SCORE})
    session.refresh_from_db()
    assert session.state["phase"] == "finished"
    for name, page in phones:
        page.reload()
        expect(page.locator("#game-over")).to_be_visible()
        expect(page.locator("#qx-final")).to_be_visible()
        expect(page.locator("#qx-current")).to_have_count(0)
        expect(page.locator("#panel form")).to_have_count(0)
        assert no_sideways_scroll(page)
        shot(page, f"6-final-{name}")


def test_the_table_deck_buttons_record_one_move_for_a_double_tap(host_phone, phone, alice):
    """The real deck: the castles' button and a field's button, each tapped twice."""
    session = session_for(alice, game="quixote", players=("Ana", "Ben"),
                          options={"deck": "table"}, seed="seat-first-table")
    services.session_host_seat(session=session, seat=0)
    ben = guest_phone_for(phone, session, "Ben")
    on_first_screen(ben, "#scoreboard", "#now", "[data-own]")
    settled(ben, session)
    ben.get_by_label("6-castle").select_option("F1")
    ben.get_by_label("4-castle").select_option("C2")
    tap_twice(ben, session, ben.get_by_role("button", name="Place the castles"))
    tap_twice(ben, session, ben.locator(".qx-picker").get_by_role("button", name="G3"),
              shows="#qx-current")
    expect(ben.locator("#qx-current")).to_have_text("G3")
    session.refresh_from_db()
    assert session.state["castles"] == {"6": "F1", "4": "C2"}
    assert session.state["turned"] == ["G3"]
    shot(ben, "7-table-deck")
