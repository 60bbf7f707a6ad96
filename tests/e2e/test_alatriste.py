"""El Capitán Alatriste at a table of three phones: set-up, a duel with the players' own dice
(counted taps) seen at once on another phone, a combat the app rolls, a chip paid with the big
buttons, an early end."""

import re

import pytest
from playwright.sync_api import expect

from companion.models import Session
from tests.e2e.conftest import guest_phone_for, no_sideways_scroll
from tests.e2e.seat_first import answered

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MAX_DUEL_TAPS = 6


class Taps:
    """Counts the taps a player makes on the phone."""

    def __init__(self):
        self.count = 0

    def __call__(self, locator):
        self.count += 1
        locator.click()


def die(page, name, face):
    return page.locator(f"fieldset:has(input[name='{name}']) label.al-face").nth(face - 1)


def test_three_players_duel_combat_and_an_early_end(host_phone, phone):
    host = host_phone()
    host.goto("/new/?game=alatriste")
    for n, name in enumerate(["Íñigo", "Quevedo", "Malatesta"], start=1):
        host.get_by_label(f"Player {n}", exact=True).fill(name)
    host.get_by_role("button", name="Open the game").click()
    expect(host.get_by_role("heading", name="Scoreboard")).to_be_visible()
    session = Session.objects.get()
    quevedo = guest_phone_for(phone, session, "Quevedo")

    # Everyone sets up: one tap each on a share of the 10 chips. The host sits at Íñigo's seat
    # and plays the others' from the fold of the other seats.
    for seat in range(3):
        if seat:
            host.locator("#al-others > summary").click()
        version = Session.objects.get().version
        host.locator(f"#al-seat-{seat}").get_by_role("button", name="Fencing 4 · 6 ducats").click()
        host.wait_for_selector(f'#live[data-version="{version + 1}"]', state="attached")
        expect(host.locator(f"#al-seat-{seat}")).to_contain_text("Start turn: take the income")
        expect(host.locator(f"#al-sheet-{seat} [data-stat=ducats]")).to_have_text("6")
    assert no_sideways_scroll(host)

    # Quevedo's own phone: the start of his turn and a payment with the big − button.
    quevedo.reload()
    seat = quevedo.locator("#al-seat-1")
    seat.get_by_role("button", name="Start turn: take the income").click()
    expect(quevedo.locator("#log")).to_contain_text("Quevedo's turn: +1 ducat")
    answered(quevedo)
    seat = quevedo.locator("#al-seat-1")
    seat.get_by_label("Reason").select_option("payment")
    seat.get_by_role("button", name="Ducats minus").click()
    expect(quevedo.locator("#log")).to_contain_text("Quevedo -1 ducat (payment)")
    expect(quevedo.locator("#al-sheet-1 [data-stat=ducats]")).to_have_text("6")
    expect(quevedo.locator("#al-sheet-1 [data-stat=income]")).to_have_text("1")
    quevedo.wait_for_selector("#table[data-stream=open]", state="attached")

    # The duel with the players' own dice: choose the two players, then count the taps.
    duel = host.locator("#al-duel")
    duel.locator("summary").first.click()
    duel.get_by_label("Challenger").select_option(label="Íñigo")
    duel.get_by_label("Challenged").select_option(label="Quevedo")
    tap = Taps()
    tap(die(host, "die_challenger_1", 6))
    tap(die(host, "die_challenger_2", 4))
    tap(die(host, "die_challenged_1", 3))
    tap(die(host, "die_challenged_2", 4))
    tap(host.locator("#al-duel").get_by_role("button", name="Submit"))
    arithmetic = ("Íñigo 4 + 0 + (6+4) = 14 [+1 Fencing] vs Quevedo 4 + 0 + (3+4) = 11; "
                  "Íñigo wins")
    expect(host.locator("#log")).to_contain_text(arithmetic)
    assert tap.count <= MAX_DUEL_TAPS, tap.count
    print(f"duel with typed dice: {tap.count} taps after choosing the two players")
    result = host.locator("#al-result")
    expect(result).to_contain_text("Last duel")
    expect(result).to_contain_text("Íñigo: Fame +2, Fencing +1")
    expect(host.locator("#al-sheet-0 [data-stat=fencing]")).to_have_text("5")
    # The stream may show the duel before the move's own answer lands: wait for the answer.
    host.wait_for_selector(f'#live[data-version="{Session.objects.get().version}"]',
                           state="attached")
    # Every seat's sheet is folded on a phone (its own stats are in its seat's part).
    for part in ("panel", "al-result", "al-seat-0", "al-duel"):
        expect(host.locator(f"#{part}")).to_be_visible()
    assert no_sideways_scroll(host)

    # Quevedo's phone sees it too, without a reload: the stream pushes the sheets and the sums.
    expect(quevedo.locator("#al-result")).to_contain_text("Íñigo: Fame +2, Fencing +1",
                                                          timeout=2000)
    expect(quevedo.locator("#al-sheet-0 [data-stat=fencing]")).to_have_text("5")
    expect(quevedo.locator("#al-sheet-0 [data-stat=fame]")).to_have_text("2")
    expect(quevedo.locator("#log")).to_contain_text(arithmetic)
    assert no_sideways_scroll(quevedo)

    # A combat the app rolls: Malatesta attacks Íñigo. Neither is Quevedo: the host enters it,
    # and Quevedo's phone sees it pushed.
    combat = host.locator("#al-combat")
    combat.locator("summary").first.click()
    combat.get_by_label("Attacker").select_option(label="Malatesta")
    combat.get_by_label("Defender").select_option(label="Íñigo")
    combat.get_by_role("button", name="Roll for us").click()
    expect(quevedo.locator("#log")).to_contain_text(
        re.compile(r"Malatesta attacked Íñigo: Malatesta 4 \+ 0 \+ \(\d\+\d\) = \d+"))
    expect(quevedo.locator("#al-result")).to_contain_text("Last combat")
    sides = quevedo.locator("#al-result .al-sums li strong:first-child")
    expect(sides).to_have_text(["Malatesta", "Íñigo"])

    # The players stop early.
    host.reload()
    host.get_by_role("button", name="End the game now").click()
    expect(host.locator("#confirm")).to_contain_text("This ends the game for everyone")
    host.get_by_role("button", name="Yes, go ahead").click()
    expect(host.locator("#log")).to_contain_text("The players stopped: Íñigo leads")
    expect(host.locator("#scoreboard .winner")).to_contain_text("Íñigo")
    assert Session.objects.get().is_finished
