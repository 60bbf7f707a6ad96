"""This phone's own move, for a player with a keyboard or a screen reader (static/js/own_move.js):
the focus stays on the control used, the result is said, a refused form keeps what was entered,
and what is reached by Tab stops below the sticky now line."""

import re

import pytest
from playwright.sync_api import expect

from companion import services
from tests.e2e.conftest import guest_phone_for
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FOCUSED = "() => document.activeElement && document.activeElement !== document.body"
FOCUSED_TEXT = "() => document.activeElement.textContent.trim()"


def test_a_move_by_keyboard_keeps_the_focus_and_is_said(host_phone, alice):
    game = session_for(alice)
    host = host_phone()
    # No stream: the answer comes first, whose #live is new (a push would have the now line say
    # the move itself: tests/e2e/test_accessibility.py).
    host.route(re.compile(r".*/stream/.*"), lambda route: route.abort())
    host.goto(f"/s/{game.pk}/")
    host.locator("#move-payload").fill('{"seat": 0, "points": 6}')
    host.get_by_role("button", name="Play").focus()
    host.keyboard.press("Enter")
    host.wait_for_selector('#live[data-version="1"]', state="attached")
    expect(host.locator("#announce")).to_contain_text("Vanessa +6")
    assert host.evaluate(FOCUSED) and host.evaluate(FOCUSED_TEXT) == "Play"
    # Refused: the sentence is there to be said (role=alert), the focus on the same button.
    host.locator("#move-payload").fill('{"seat": 0, "points": "lots"}')
    host.get_by_role("button", name="Play").focus()
    host.keyboard.press("Enter")
    expect(host.locator("#panel [role=alert]")).to_contain_text("A valid integer is required")
    assert host.evaluate(FOCUSED) and host.evaluate(FOCUSED_TEXT) == "Play"


def test_a_push_gives_the_focus_back_to_the_same_button(host_phone, phone, alice):
    game = session_for(alice)
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    peter = guest_phone_for(phone, game, "Peter")
    peter.wait_for_selector("#table[data-stream=open]", state="attached")
    # (htmx itself gives the focus back to a field with an id; a button has none.)
    peter.get_by_role("button", name="Play").focus()
    host.locator("#move-payload").fill('{"seat": 0, "points": 6}')
    host.get_by_role("button", name="Play").click()
    peter.wait_for_selector('#table[data-version="1"]', state="attached")
    expect(peter.locator("#log")).to_contain_text("Vanessa +6")  # his panel was pushed anew
    assert peter.evaluate(FOCUSED) and peter.evaluate(FOCUSED_TEXT) == "Play"


DICE = (("die_player_1", 3), ("die_player_2", 1), ("die_bank_1", 2), ("die_bank_2", 4),
        ("die_2_1", 6), ("die_2_2", 5))


def test_a_refused_dice_game_keeps_the_bet_the_joiner_the_dice_and_the_open_folds(
        host_phone, alice):
    game = session_for(alice, game="alatriste", players=("Íñigo", "Quevedo", "Malatesta"))
    for seat in range(3):
        game.refresh_from_db()
        services.move_play(session=game, type="setup", actor=services.Actor(user=alice),
                           data={"seat": seat, "fencing": 4, "ducats": 6})
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    host.locator("#al-dice-game > summary").click()
    fold = host.locator("#al-dice-game")
    fold.get_by_label("Bet (at least 5)").fill("7")  # Íñigo has 6 ducats: refused
    fold.locator("label.check", has_text="Malatesta").locator("input").check()
    fold.locator("details.al-joiner-dice > summary").click()
    for name, face in DICE:
        fold.locator(f"fieldset:has(input[name='{name}']) label.al-face").nth(face - 1).click()
    fold.get_by_role("button", name="Submit").click()
    expect(host.locator("#al-dice-game [role=alert]")).to_contain_text("Íñigo has only 6 ducats")

    fold = host.locator("#al-dice-game")
    expect(fold.get_by_label("Bet (at least 5)")).to_have_value("7")
    expect(fold.locator("label.check", has_text="Malatesta").locator("input")).to_be_checked()
    expect(fold.locator("details.al-joiner-dice")).to_have_attribute("open", "")
    for name, face in DICE:
        expect(fold.locator(f"input[name='{name}'][value='{face}']")).to_be_checked()
    expect(fold.locator("input[name='die_1_1']:checked")).to_have_count(0)



def test_what_tab_reaches_stops_below_the_now_line(host_phone, alice):
    game = session_for(alice)
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    host.wait_for_selector("#table[data-stream=open]", state="attached")
    padding = host.evaluate("() => parseFloat(document.documentElement.style.scrollPaddingTop)")
    height = host.evaluate("() => document.getElementById('now').offsetHeight")
    assert padding == height + 16


def test_a_button_gone_after_its_move_leaves_the_focus_on_the_now_line(host_phone, alice):
    # Jack Rabbits: once Ana has rolled, her roll button is hidden (her turn's moves show).
    game = session_for(alice, game="rabbits", players=("Ana", "Ben"))
    services.session_host_seat(session=game, seat=0)
    host = host_phone()
    host.route(re.compile(r".*/stream/.*"), lambda route: route.abort())  # the answer first
    host.goto(f"/s/{game.pk}/")
    host.locator("#rb-own").get_by_role("button", name="Roll the dice for Ana").focus()
    host.keyboard.press("Enter")
    expect(host.locator("#log")).to_contain_text("Ana")
    expect(host.locator("#now")).to_be_focused()
