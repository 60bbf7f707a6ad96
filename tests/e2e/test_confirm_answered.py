"""A question answered goes, even when the stream brings the answer's version before the answer:
the host who said "Yes, go ahead" is not left looking at the question."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import guest_phone_for, sent_and_held
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_question_goes_when_the_push_beats_the_answer(host_phone, phone, alice):
    game = session_for(alice)
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    host.wait_for_selector("#table[data-stream=open]", state="attached")
    peter = guest_phone_for(phone, game, "Peter")
    peter.locator("#move-payload").fill('{"seat": 1, "points": 3}')
    peter.get_by_role("button", name="Play").click()
    host.wait_for_selector('#table[data-version="1"]', state="attached")

    # The host undoes Peter's move: asked first.
    host.locator("#undo").get_by_role("button", name="Undo: Peter +3").click()
    expect(host.locator("#confirm")).to_contain_text("Everyone at the table is told")

    # "Yes": the undo's answer is held back until the stream has brought its version.
    undo = sent_and_held(host, f"/s/{game.pk}/undo/",
                         lambda: host.get_by_role("button", name="Yes, go ahead").click())
    host.wait_for_selector('#table[data-version="2"]', state="attached")
    expect(host.locator("#log")).to_contain_text("undone")
    undo.release()

    expect(host.locator("#confirm")).to_have_count(0)
    expect(host.locator("#now")).to_be_in_viewport()


def hosts_undo_far_below(host_phone, phone, alice):
    """The host's table on a short screen, with the Undo of Peter's move far below its top:
    (the host's page, that button)."""
    game = session_for(alice, players=("Vanessa", "Peter", "Carmen", "Dora"))
    host = host_phone()
    peter = guest_phone_for(phone, game, "Peter")
    peter.locator("#move-payload").fill('{"seat": 1, "points": 3}')
    peter.get_by_role("button", name="Play").click()
    # The host's page drawn with Peter's move and its stream open: no push of it comes after
    # to replace the button the test is about to use.
    peter.wait_for_selector('#table[data-version="1"]', state="attached")
    host.goto(f"/s/{game.pk}/")
    host.wait_for_selector('#table[data-stream=open][data-version="1"]', state="attached")
    host.set_viewport_size({"width": 360, "height": 400})
    return host, host.locator("#undo").get_by_role("button", name="Undo: Peter +3")


def test_a_question_asked_low_on_the_page_comes_into_view_with_the_focus(host_phone, phone,
                                                                         alice):
    """It is drawn at the top of the table: the host who tapped Undo at the bottom saw nothing
    change (it was 2,000 px above the screen on a Knights table)."""
    host, undo = hosts_undo_far_below(host_phone, phone, alice)
    undo.scroll_into_view_if_needed()
    assert host.evaluate("window.scrollY") > 200
    undo.click()
    host.wait_for_selector("#live[data-asks]", state="attached")
    expect(host.locator("#confirm")).to_be_in_viewport()
    assert host.evaluate("document.activeElement.id") == "confirm"


def test_no_to_a_question_gives_the_focus_back_to_the_button_that_asked(host_phone, phone,
                                                                        alice):
    """It fell to the top of the page, which jumped; the next Tab went to the table's settings."""
    host, undo = hosts_undo_far_below(host_phone, phone, alice)
    undo.focus()
    host.keyboard.press("Enter")
    host.wait_for_selector("#live[data-asks]", state="attached")
    host.get_by_role("link", name="No, keep playing").focus()
    host.keyboard.press("Enter")
    host.wait_for_selector("#confirm", state="detached")
    expect(undo).to_be_focused()
    expect(undo).to_be_in_viewport()
