"""Jack Rabbits: a seat's own controls follow what another phone changed about it (its game's
live part names what they must be drawn for; table.js fetches them again), and where a rabbit is
shows on every phone's scoreboard."""

import pytest
from playwright.sync_api import expect

from companion import services
from tests.e2e.conftest import guest_phone_for
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_where_a_rabbit_is_follows_on_its_own_phone_and_shows_on_every_other(phone, alice):
    game = session_for(alice, game="rabbits", players=("Ana", "Ben"))
    ben = guest_phone_for(phone, game, "Ben")
    ana = guest_phone_for(phone, game, "Ana")
    for page in (ben, ana):
        page.wait_for_selector("#table[data-stream=open]", state="attached")
    # The buttons say what they set: where this phone's rabbit is.
    where = ben.locator("#rb-own").get_by_role("group", name="Where is your rabbit?")
    expect(where.get_by_role("button", name="On the board")).to_have_attribute(
        "aria-pressed", "true")
    bens_row = ana.locator("#scoreboard-seat-1")
    expect(bens_row.locator(".note")).to_have_text("on the board")

    services.move_play(session=game, type="where", data={"seat": 1, "place": "underground"},
                       actor=services.Actor(user=alice))

    expect(where.get_by_role("button", name="Underground")).to_have_attribute(
        "aria-pressed", "true")
    expect(where.get_by_role("button", name="On the board")).not_to_have_attribute(
        "aria-pressed", "true")
    expect(bens_row.locator(".note")).to_have_text("underground")

    # Ben's own tap: Ana's phone shows it without a reload, on its first screen.
    where.get_by_role("button", name="Off").click()
    expect(bens_row.locator(".note")).to_have_text("off the board")
    expect(ana.locator("#scoreboard-seat-0 .note")).to_have_text("on the board")
    note = bens_row.locator(".note").bounding_box()
    assert ana.evaluate("scrollY") == 0 and note["y"] + note["height"] <= 740, note


def test_a_payment_half_entered_when_the_next_rabbit_rolls_is_said_not_sent(phone, alice):
    game = session_for(alice, game="rabbits", players=("Ana", "Ben"))
    host = services.Actor(user=alice)
    game = services.move_play(session=game, type="roll", data={"seat": 0, "dice": [3, 4]},
                              actor=host).session
    ana = guest_phone_for(phone, game, "Ana")
    ana.wait_for_selector("#table[data-stream=open]", state="attached")
    own = ana.locator("#rb-own")
    own.locator("#rb-0-pay > summary").click()
    own.locator("#rb-0-pay").get_by_label("The cards").fill("5H")
    notice = ana.locator("#not-sent")
    expect(notice).to_be_hidden()

    # Ben's roll ends Ana's turn: her moves hide with it, and her phone says what was lost.
    services.move_play(session=game, type="roll", data={"seat": 1, "dice": [2, 2]}, actor=host)

    expect(own.locator(".rb-turn-moves")).to_be_hidden()
    expect(notice).to_be_visible()
    expect(notice).to_have_text(
        "Your turn ended before what you were entering was sent: it was not played.")
    # Nothing holds her controls back now: they are drawn again for the table as it is.
    ana.wait_for_selector("#panel:not(:has([data-dirty]))", state="attached")

