"""El Capitán Alatriste, seat-first, on three phones of 360 x 740 (the host at Íñigo's seat, two
guests): each first screen holds the scoreboard, the "now" line and the top of the phone's own
controls; after each of its moves the result is in view (the duel's or combat's sums, far from
the button that sent it, are brought there); a double tap on every kind of move button records
one move; a guest's duel between two other players is refused in the page and changes nothing."""

import os
import re

import pytest
from playwright.sync_api import expect

from companion.models import Move, Session
from tests.e2e.conftest import guest_phone_for, no_sideways_scroll, screenshot
from tests.e2e.seat_first import double_tap_records_one, in_view, on_first_screen

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("ALATRISTE_SHOTS")  # a folder: save screenshots of each phone there


def shot(page, name, first_screen=True, whole=False):
    """With ALATRISTE_SHOTS set, a screenshot to look at: the first screen (scrolled to the
    top), where the phone is, or the whole page."""
    if SHOTS and first_screen:
        page.evaluate("window.scrollTo(0, 0)")
    screenshot(SHOTS, page, name, whole=whole)


def fold(page, selector):
    """Open a closed fold (a <details>) by its summary."""
    if page.locator(selector).get_attribute("open") is None:
        page.locator(f"{selector} > summary").click()


def tap_twice(page, session, button, result="#now"):
    """A double tap records one move, and the move's result is in view once the answer is in
    (the page marks the version it has brought into view)."""
    double_tap_records_one(page, session, button)
    page.wait_for_selector(f'#table[data-al-shown="{session.version}"]', state="attached")
    in_view(page, result)
    in_view(page, "#now")


def test_three_phones_seat_first(host_phone, phone):
    host = host_phone()
    host.goto("/new/?game=alatriste")
    for n, name in enumerate(["Íñigo", "Quevedo", "Malatesta"], start=1):
        host.get_by_label(f"Player {n}", exact=True).fill(name)
    host.get_by_role("button", name="Open the game").click()
    expect(host.get_by_role("heading", name="Scoreboard")).to_be_visible()
    session = Session.objects.get()
    quevedo = guest_phone_for(phone, session, "Quevedo")
    malatesta = guest_phone_for(phone, session, "Malatesta")
    phones = {"host": host, "quevedo": quevedo, "malatesta": malatesta}

    # (a) Before any scrolling: the scoreboard, the now line and this phone's own set-up. (The
    # host's first screen is measured once every seat is claimed and the invite has gone: a
    # reload at the same version is answered 304 with the invite still on it.)
    for name, page in phones.items():
        page.wait_for_selector("#table[data-stream=open]", state="attached")
        shot(page, f"{name}-setup")
        if page is not host:
            on_first_screen(page, "#scoreboard", "#now", "[data-own]")
        assert no_sideways_scroll(page)
    # A guest's phone carries its own seat's controls and no other seat's.
    assert quevedo.locator("[data-own]").get_attribute("id") == "al-seat-1"
    assert quevedo.locator("#al-seat-0, #al-seat-2, #al-others").count() == 0
    expect(host.locator("#al-others")).not_to_have_attribute("open", "")

    # Set-up: a double tap on a share of the chips, on each phone; its sheet is in view.
    for seat, page in enumerate(phones.values()):
        tap_twice(page, session, page.locator("[data-own]").get_by_role(
            "button", name="Fencing 4 · 6 ducats"), f"#al-seat-{seat}")
    for name, page in phones.items():
        page.reload()
        page.wait_for_selector("#table[data-stream=open]", state="attached")
        shot(page, f"{name}-playing")
        shot(page, f"{name}-whole", whole=True)
        on_first_screen(page, "#scoreboard", "#now", "[data-own]")
        assert no_sideways_scroll(page)

    # (b) and (c): every kind of move button, tapped twice; each records one move, and its
    # result is in view. Quevedo's own turn, chips and cards.
    own = quevedo.locator("[data-own]")
    tap_twice(quevedo, session, own.get_by_role("button", name="Start turn: take the income"))
    expect(quevedo.locator("#now")).to_contain_text("Quevedo's turn: +1 ducat")
    tap_twice(quevedo, session, own.get_by_role("button", name="Fame plus"))
    own.get_by_placeholder("Card to add").fill("Carroza")
    tap_twice(quevedo, session, own.get_by_role("button", name="Add", exact=True))
    tap_twice(quevedo, session, own.get_by_role("button", name="Discard Carroza"))
    own.locator("details.al-more").first.locator("summary").click()
    own.get_by_label("Name", exact=True).fill("Espada toledana")
    tap_twice(quevedo, session, own.get_by_role("button", name="Put on the board"))
    expect(quevedo.locator("#al-sheet-1")).to_contain_text("Espada toledana")

    # Malatesta's own fold: where he is, an attack card on Íñigo; Íñigo resolves it.
    mine = malatesta.locator("[data-own]")
    mine.locator("details.al-more").nth(1).locator("summary").click()
    mine.get_by_label("Where").select_option("free")
    tap_twice(malatesta, session, mine.get_by_role("button", name="Set", exact=True))
    mine.locator("details.al-more").nth(1).locator("summary").click()
    mine.get_by_label("Play an attack card on").select_option(label="Íñigo")
    tap_twice(malatesta, session, mine.get_by_role("button", name="Play the attack card"))
    host.reload()
    host.locator("[data-own] details.al-more").nth(1).locator("summary").click()
    tap_twice(host, session, host.locator("[data-own]").get_by_role(
        "button", name="Resolve the oldest attack card waiting"))

    # The table's forms: the result of each is brought into view, far from its button.
    fold(host, "#al-duel")
    tap_twice(host, session, host.locator("#al-duel").get_by_role("button", name="Roll for us"),
              "#al-result")
    expect(host.locator("#al-result")).to_contain_text("Last duel")
    shot(host, "host-after-duel", first_screen=False)
    quevedo.reload()
    fold(quevedo, "#al-duel")
    duel = quevedo.locator("#al-duel")
    for name, face in (("die_challenger_1", 6), ("die_challenger_2", 5),
                       ("die_challenged_1", 3), ("die_challenged_2", 4)):
        duel.locator(f"fieldset:has(input[name='{name}']) label.al-face").nth(face - 1).click()
    tap_twice(quevedo, session, duel.get_by_role("button", name="Submit"), "#al-result")
    expect(quevedo.locator("#al-result")).to_contain_text("Quevedo")
    # (Quevedo's Fencing depends on the duel the app rolled before.)
    expect(quevedo.locator("#log")).to_contain_text(re.compile(r"Quevedo \d+ \+ 0 \+ \(6\+5\)"))
    shot(quevedo, "quevedo-after-duel", first_screen=False)
    fold(quevedo, "#al-combat")
    tap_twice(quevedo, session, quevedo.locator("#al-combat").get_by_role(
        "button", name="Roll for us"), "#al-result")
    expect(quevedo.locator("#al-result")).to_contain_text("Last combat")
    malatesta.reload()
    fold(malatesta, "#al-dice-game")
    tap_twice(malatesta, session, malatesta.locator("#al-dice-game").get_by_role(
        "button", name="Roll for us"), "#al-result")
    expect(malatesta.locator("#al-result")).to_contain_text("Last game of dice")
    shot(malatesta, "malatesta-after-dice", first_screen=False)
    host.reload()
    fold(host, "#al-plaza")
    tap_twice(host, session, host.locator("#al-plaza").get_by_role("button", name="Roll for us"),
              "#al-result")
    expect(host.locator("#al-result")).to_contain_text("Last bullfight")

    # El Valido, not taken, once Íñigo has 30 Fame.
    host.locator("[data-own]").get_by_label("By").fill("30")
    tap_twice(host, session, host.locator("[data-own]").get_by_role("button", name="Fame plus"))
    fold(host, "#al-valido")
    host.locator("#al-valido").get_by_text("Not taken").click()
    tap_twice(host, session, host.locator("#al-valido").get_by_role("button", name="El Valido"))
    assert not Session.objects.get().is_finished

    # (d) Quevedo's phone offers a duel between two others: refused with the sentence, and
    # nothing changes.
    quevedo.reload()
    fold(quevedo, "#al-duel")
    duel = quevedo.locator("#al-duel")
    duel.get_by_label("Challenger").select_option(label="Íñigo")
    duel.get_by_label("Challenged").select_option(label="Malatesta")
    before = (Move.objects.count(), Session.objects.get().version, Session.objects.get().state)
    duel.get_by_role("button", name="Roll for us").click()
    expect(quevedo.locator("#now .error")).to_have_text(
        "This is a move of Íñigo or Malatesta: it comes from one of their phones or the "
        "host's.")
    in_view(quevedo, "#now .error")
    after = (Move.objects.count(), Session.objects.get().version, Session.objects.get().state)
    assert after == before

    # A death, from Malatesta's own fold.
    malatesta.reload()
    malatesta.locator("[data-own] details.al-more").nth(1).locator("summary").click()
    tap_twice(malatesta, session, malatesta.locator("[data-own]").get_by_role(
        "button", name="All Vigour lost: death"))

    # The host ends the game, asked first; a double tap on the answer ends it once.
    host.reload()
    host.get_by_role("button", name="End the game now").click()
    expect(host.locator("#confirm")).to_contain_text("This ends the game for everyone")
    double_tap_records_one(host, session, host.get_by_role("button", name="Yes, go ahead"))
    in_view(host, "#now")
    assert Session.objects.get().is_finished
    # The final screen: the standings and the sheets, no controls.
    host.reload()
    expect(host.locator("#panel form")).to_have_count(0)
    expect(host.locator("#panel [data-own]")).to_have_count(0)
    shot(host, "host-finished")
