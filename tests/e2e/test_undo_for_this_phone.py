"""A guest's phone is not offered an undo or a Redo it would only be refused: the undo button is
drawn once for every phone, saying which phones it is for (authority.undo_phones, redo_phones),
and the page hides it from the others. The host sees every one; what the host undid, only the
host redoes, and every phone is told who redid what."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import guest_phone_for
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def play(page, seat, points):
    page.locator("#move-payload").fill(f'{{"seat": {seat}, "points": {points}}}')
    page.get_by_role("button", name="Play").click()


def test_each_phone_is_offered_the_undos_it_may_make(host_phone, phone, alice):
    game = session_for(alice, players=("Vanessa", "Peter", "Carmen"))
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    peter = guest_phone_for(phone, game, "Peter")
    carmen = guest_phone_for(phone, game, "Carmen")
    for page in (peter, carmen):
        page.wait_for_selector("#table[data-stream=open]", state="attached")

    play(peter, 1, 3)  # Peter's move: his phone and the host's may undo it
    undo = "Undo: Peter +3"
    expect(peter.locator("#undo").get_by_role("button", name=undo)).to_be_visible()
    expect(host.locator("#undo").get_by_role("button", name=undo)).to_be_visible()
    carmen.wait_for_selector('#table[data-version="1"]', state="attached")
    expect(carmen.locator("#undo").get_by_role("button", name=undo)).to_be_hidden()
    expect(carmen.locator("#undo")).to_be_hidden()  # nothing in it for her: the card goes

    # Peter undoes it himself: his phone is offered the Redo (his move), Carmen's is not.
    peter.locator("#undo").get_by_role("button", name=undo).click()
    expect(carmen.locator("#undo")).to_contain_text("Peter undid: Peter +3")
    expect(peter.locator("#undo").get_by_role("button", name="Redo")).to_be_visible()
    expect(carmen.locator("#undo").get_by_role("button", name="Redo")).to_be_hidden()
    peter.locator("#undo").get_by_role("button", name="Redo").click()
    expect(carmen.locator("#undo")).to_contain_text("Peter redid: Peter +3")

    # The host undoes it: the host's decision, which only the host's Redo overturns (issue 52,
    # point 13); every phone is told who redid what, in the news and in the log.
    undo = "Undo: Peter +3"
    host.locator("#undo").get_by_role("button", name=undo).click()
    host.get_by_role("button", name="Yes, go ahead").click()
    expect(peter.locator("#undo")).to_contain_text("The host undid: Peter +3")
    expect(carmen.locator("#undo")).to_contain_text("The host undid: Peter +3")
    expect(peter.locator("#undo").get_by_role("button", name="Redo")).to_be_hidden()
    expect(carmen.locator("#undo").get_by_role("button", name="Redo")).to_be_hidden()
    host.locator("#undo").get_by_role("button", name="Redo").click()
    for page in (peter, carmen):
        expect(page.locator("#undo")).to_contain_text("The host redid: Peter +3")
        expect(page.locator("#log li").first).to_have_text("3. Peter +3 (redone by the host)")
