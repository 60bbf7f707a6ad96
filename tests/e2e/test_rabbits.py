"""Lenino's Jack Rabbits on two phones: Ana's host phone and Ben's guest phone play a game to a
diverse-monarchy win, with the card picker's running total and a refusal on the way."""

import os

import pytest
from playwright.sync_api import expect

from companion import services
from tests.e2e.conftest import guest_phone_for, no_sideways_scroll
from tests.e2e.seat_first import answered
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("RABBITS_SHOTS")


def shot(page, name):
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)
        page.locator("#panel").screenshot(path=f"{SHOTS}/{name}-panel.png")


def type_dice(page, first, second):
    own = page.locator("[data-own]")
    own.get_by_label("first die").fill(str(first))
    own.get_by_label("second die").fill(str(second))
    own.get_by_role("button", name="Enter").click()
    expect(page.locator("#rb-price")).to_have_text(str(first + second))
    # The live push can show the new price before the roll's own answer lands and is swapped in;
    # wait for that answer too, or a section opened right now would be closed under the finger.
    answered(page)


def pick(page, form, *cards):
    """Tap rank then suit for each card in the picker of `form` (#rb-<seat>-<form>)."""
    box = page.locator(f"#rb-{form}")
    symbols = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    for card in cards:
        box.locator(f'[data-rank="{card[:-1]}"]').click()
        box.get_by_role("button", name=symbols[card[-1]], exact=True).click()


def audience(page, royal, *cards):
    page.locator("#rb-0-audience > summary").click()
    page.locator("#rb-0-audience").get_by_label(royal_label(royal)).check()
    pick(page, "0-audience", *cards)
    button = page.locator("#rb-0-audience").get_by_role("button", name="Hold the audience")
    expect(button).to_be_enabled()
    button.click()
    expect(page.locator(f"#rb-royal-{royal}")).to_contain_text("Ana")


def royal_label(royal):
    return royal[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[royal[-1]]


def ben_passes(ben, first=2, second=2):
    # No reload: the live stream brings Ben's roll form once Ana's turn has ended.
    expect(ben.get_by_role("button", name="Roll the dice for Ben")).to_be_visible()
    type_dice(ben, first, second)


def ana_rolls(ana, first, second):
    expect(ana.get_by_role("button", name="Roll the dice for Ana")).to_be_visible()
    type_dice(ana, first, second)


def test_two_phones_play_to_a_diverse_monarchy(host_phone, phone, alice):
    session = session_for(alice, game="rabbits", players=("Ana", "Ben"))
    services.session_host_seat(session=session, seat=0)  # Ana's phone is the host's
    ana = host_phone()
    ana.goto(f"/s/{session.pk}/")
    ben = guest_phone_for(phone, session, "Ben")
    expect(ben.locator(".rb-turn")).to_contain_text("Ana starts with a roll")

    # Ana's first turn: typed dice, the lottery, an audience whose total is watched as it grows.
    expect(ana.get_by_role("button", name="Roll the dice for Ana")).to_be_visible()
    type_dice(ana, 3, 4)
    shot(ana, "1-rolled")
    ana.locator("#rb-0-lottery > summary").click()
    pick(ana, "0-lottery", "3H")
    expect(ana.locator("#rb-lottery-0-card")).to_have_value("3H")
    ana.get_by_role("button", name="Show the card").click()
    expect(ana.locator(".rb-turn")).to_contain_text("The lottery was played this turn")
    answered(ana)  # the push comes first (rendered ahead); the card's own answer redraws the panel

    ana.locator("#rb-0-audience > summary").click()
    ana.locator("#rb-0-audience").get_by_label("J♥").check()
    pick(ana, "0-audience", "9H")
    total = ana.locator("#rb-audience-0-total")
    expect(total).to_contain_text("1 point short")
    hold = total.get_by_role("button", name="Hold the audience")
    expect(hold).to_be_disabled()
    # Unavailable, not out of the tab order: the keyboard reaches it, and it sends nothing.
    hold.focus()
    expect(hold).to_be_focused()
    posted = []
    ana.on("request", lambda request: posted.append(request.url)
           if request.method == "POST" else None)
    ana.keyboard.press("Enter")
    ana.evaluate("0")  # htmx would have sent it on the press itself
    assert posted == []
    expect(total).to_contain_text("1 point short")
    shot(ana, "2-short")
    pick(ana, "0-audience", "9H", "10H")  # 9H again takes it out
    expect(ana.locator("#rb-audience-0-cards")).to_have_value("10H")
    expect(total.get_by_role("button", name="Hold the audience")).to_be_enabled()
    total.get_by_role("button", name="Hold the audience").click()
    expect(ana.locator("#rb-royal-JH")).to_contain_text("Ana")
    expect(ana.locator(".rb-turn")).to_contain_text("turn has ended")
    assert no_sideways_scroll(ana)

    # Ben's turn on his own phone: the server rolls; then he pays, typing the cards as text.
    ben.get_by_role("button", name="Roll the dice for Ben").click()
    expect(ben.locator(".rb-turn h2")).to_have_text("Ben's turn")
    answered(ben)
    price = int(ben.locator("#rb-price").inner_text())
    ben.locator("#rb-1-pay > summary").click()
    ben.locator("#rb-1-pay").get_by_role("checkbox", name="spades").check()
    ben.locator("#rb-pay-1-cards").fill("10S 2S" if price > 10 else "10S")
    expect(ben.locator("#rb-pay-1-total")).to_contain_text(f"/ {price}")
    # A press held 300 ms, as a mouse does: leaving the field asks for the total again, and the
    # answer must not replace the button between press and release (the click was lost so).
    ben.locator("#rb-pay-1-total").get_by_role("button", name="Pay").click(delay=300)
    expect(ben.locator("#log")).to_contain_text("Ben paid 10S")
    assert no_sideways_scroll(ben)
    shot(ben, "3-ben")

    # Ana: the Queen of spades, then a Citadel too early says what is missing.
    ana_rolls(ana, 1, 2)
    ana.locator("#rb-0-citadel").get_by_role("button", name="Back at the Citadel").click()
    expect(ana.locator("#rb-0-citadel .error")).to_have_text(
        "You need a Queen and a King: you hold JH.")
    audience(ana, "QS", "4S", "6S")
    ben_passes(ben)

    # The King of diamonds paid with the first ace, worth 11.
    ana_rolls(ana, 5, 6)
    ana.locator("#rb-0-audience > summary").click()
    ana.locator("#rb-0-audience").get_by_label("K♦").check()
    pick(ana, "0-audience", "AD")
    expect(ana.locator("#rb-audience-0-total")).to_contain_text("first ace")
    ana.locator("#rb-audience-0-total").get_by_role("button", name="Hold the audience").click()
    expect(ana.locator("#rb-seat-0")).to_contain_text("first ace spent")
    expect(ana.locator("#rb-seat-0")).to_contain_text("Carrots left: 0")
    ben_passes(ben, 6, 1)

    # Back at the Citadel with J♥ Q♠ K♦: Ana wins, on both phones.
    ana_rolls(ana, 2, 2)
    expect(ana.locator("#rb-0-citadel .rb-missing")).to_have_text(
        "Ana's royals satisfy the ending.")
    shot(ana, "4-ready")
    ana.locator("#rb-0-citadel").get_by_role("button", name="Back at the Citadel").click()
    expect(ana.locator(".rb-winner")).to_have_text("Ana is back at the Citadel and wins!")
    expect(ben.locator(".rb-winner")).to_have_text("Ana is back at the Citadel and wins!")
    expect(ben.locator("#scoreboard tbody tr").first).to_contain_text("Ana")
    shot(ben, "5-won")
    for page in (ana, ben):
        assert no_sideways_scroll(page)
