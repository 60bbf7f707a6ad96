"""What a phone says without being looked at, and what became of a move it kept offline (issue 52,
points 10 and 12), on two phones of a score pad: Ana's (the host's, sitting at her seat) and
Ben's. Ben's phone is told when the table waits for his points (the tab's title, one vibration),
until he turns that off; a score he saved offline that the host entered for him meanwhile is
said not played, with what it was; one that nobody overtook is said sent."""

import re

import pytest
from playwright.sync_api import expect

from companion import services
from tests.e2e.conftest import no_sideways_scroll

pytestmark = [pytest.mark.e2e, pytest.mark.service_worker,
              pytest.mark.django_db(transaction=True)]

# navigator.vibrate recorded, on the pages of a phone that asks for it (a flag in its storage,
# which a phone made new again has no more): the stub does not outlive the test.
RECORD_VIBRATIONS = """
try {
  if (window.localStorage.getItem("test:vibrations") !== null) {
    navigator.vibrate = function (pattern) {
      const calls = JSON.parse(window.localStorage.getItem("test:vibrations"));
      calls.push(pattern);
      window.localStorage.setItem("test:vibrations", JSON.stringify(calls));
      return true;
    };
  }
} catch (e) {}
"""


def vibrations(page):
    return page.evaluate("JSON.parse(localStorage.getItem('test:vibrations'))")


def offline(page):
    """The phone's network gone, and its stream with it (Chromium's offline mode keeps an open
    stream open: tests/e2e/test_connection.py)."""
    page.context.set_offline(True)
    page.evaluate("""() => {
        const source = document.getElementById("table")["htmx-internal-data"].sseEventSource;
        source.close();
        source.onerror(new Event("error"));
    }""")
    expect(page.locator("#table")).to_have_attribute("data-stream", "down")


def save_own(page, label, points):
    own = page.locator("[data-own]")
    own.get_by_label(label).fill(str(points))
    own.get_by_role("button", name="Save").click()


def test_a_phone_is_told_its_turn_and_what_became_of_a_move_kept_offline(host_phone, phone,
                                                                         alice):
    table = services.session_create(owner=alice, game="pad", players=["Ana", "Ben"],
                                    options={"game": "Hearts", "win": "high"}, host_seat=0)
    ana = host_phone()
    ana.goto(f"/s/{table.pk}/")
    ben = phone()
    ben.add_init_script(RECORD_VIBRATIONS)
    ben.goto(f"/join/{table.code}/")
    ben.evaluate("localStorage.setItem('test:vibrations', '[]')")
    ben.get_by_role("button", name="Ben").click()
    expect(ben.locator("#table")).to_have_attribute("data-stream", "open")
    title = ben.title()
    assert not title.startswith("Your turn")  # a round nobody has scored waits on no one

    # Point 10. Ana's points for round 1: the table waits for Ben's. His phone says so.
    save_own(ana, "Your points, Ana: round 1", 5)
    expect(ben).to_have_title(f"Your turn · {title}")
    assert vibrations(ben) == [200]
    save_own(ben, "Your points, Ben: round 1", 7)
    expect(ben).to_have_title(title)
    assert vibrations(ben) == [200]  # once, as the seat came to be awaited

    # The switch, in the table's settings (folded): a row to tap at the phone's width.
    ben.locator("#table-settings > summary").click()
    switch = ben.get_by_label("Tell me when the table waits for me")
    switch.scroll_into_view_if_needed()
    row = ben.locator("#turn-alert label").bounding_box()
    assert row["height"] >= 44 and row["x"] >= 0 and row["x"] + row["width"] <= 360, row
    assert no_sideways_scroll(ben)
    switch.uncheck()
    save_own(ana, "Your points, Ana: round 2", 3)
    ben.wait_for_selector('#now [data-awaited="1"]', state="attached")
    expect(ben).to_have_title(title)
    assert vibrations(ben) == [200]

    # Point 12. Ben saves round 2 offline: kept on his phone, its form waiting.
    offline(ben)
    save_own(ben, "Your points, Ben: round 2", 12)
    expect(ben.locator("#table")).to_have_attribute("data-outbox", "1")
    expect(ben.locator("#offline")).to_have_text(
        "Offline: your move is kept on this phone and will be sent when the connection is back.")
    expect(ben.locator("[data-own] [data-kept-waiting]")).to_have_text(
        "Waiting to be sent: kept on this phone.")
    # Meanwhile the host enters Ben's round 2 for him.
    ana.locator("#pad-round-fold summary").click()
    ana.locator("#pad-score-1").fill("9")
    ana.get_by_role("button", name="Save round 2").click()
    expect(ana.locator("#scoreboard-seat-1")).to_contain_text("16")
    # Back online, Ben's phone says his move was not played, and what it was.
    ben.context.set_offline(False)
    expect(ben.locator("#offline")).to_have_text(
        "Your move kept offline was not played: Ben has scored round 2 already: correct it "
        "instead. It was: Ben scores +12 in round 2 (total 19)")
    expect(ben.locator("#table")).to_have_attribute("data-outbox", "0")
    expect(ben.locator("#scoreboard-seat-1")).to_contain_text("16")
    expect(ben.locator("[data-kept-waiting]")).to_have_count(0)

    # Round 3 saved offline, nobody overtaking it: sent when back, and said so.
    expect(ben.locator("#table")).to_have_attribute("data-stream", "open")
    offline(ben)
    save_own(ben, "Your points, Ben: round 3", 4)
    expect(ben.locator("#table")).to_have_attribute("data-outbox", "1")
    ben.context.set_offline(False)
    expect(ben.locator("#offline")).to_have_text("Your move kept offline was sent.")
    expect(ana.locator("#pad-waiting")).to_have_text("This round still needs Ana.")
    assert list(table.moves.values_list("data", flat=True).order_by("seq"))[-1] == {
        "seat": 1, "round": 3, "points": 4}
    assert not re.match("Your turn", ben.title())
