"""This phone's own answer and the stream's pushes, in either order (static/js/table.js): the
page ends showing the latest table, with one #live, whatever came first. Each test holds the
answer back (Playwright's route) until the stream has brought what it must overtake."""

import re

import pytest
from playwright.sync_api import expect

from companion import services
from tests.e2e.conftest import guest_phone_for, sent_and_held
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def play(page, payload):
    page.locator("#move-payload").fill(payload)
    page.get_by_role("button", name="Play").click()


def hearts(alice):
    """A score pad game whose own controls are not pushed (only its live part is)."""
    return session_for(alice, game="pad", players=("Ana", "Ben", "Cy"),
                       options={"game": "Hearts", "win": "low"})


def own_points_held(page, game, label, points):
    """This phone's own points saved, its answer held back from the page (sent_and_held)."""
    own = page.locator("[data-own]")
    own.get_by_label(label).fill(points)
    return sent_and_held(page, f"/s/{game.pk}/move/", own.get_by_role("button", name="Save").click)


def test_an_undo_whose_section_is_pushed_first_lands_as_one_live(host_phone, phone, alice):
    game = session_for(alice)
    peter = guest_phone_for(phone, game, "Peter")
    peter.wait_for_selector("#table[data-stream=open]", state="attached")
    play(peter, '{"seat": 1, "points": 3}')
    peter.wait_for_selector('#live[data-version="1"]', state="attached")
    undo = peter.locator("#undo").get_by_role("button", name="Undo: Peter +3")
    answer = sent_and_held(peter, f"/s/{game.pk}/undo/", undo.click)
    # The undo's push (its #undo section among them) reaches the phone before its answer.
    peter.wait_for_selector('#table[data-version="2"]', state="attached")
    answer.release()
    expect(peter.locator("[id=live]")).to_have_count(1)
    expect(peter.locator("#live")).to_have_attribute("data-version", "2")
    expect(peter.locator("#log")).to_contain_text("undone")
    expect(peter.locator("#undo")).not_to_contain_text("Undo: Peter +3")


def test_an_answer_older_than_a_push_does_not_take_the_table_back(host_phone, alice):
    game = hearts(alice)
    services.session_host_seat(session=game, seat=0)
    game.refresh_from_db()
    seated = game.version
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    host.wait_for_selector("#table[data-stream=open]", state="attached")
    # Ana's, answered now by the server, held back from the page.
    answer = own_points_held(host, game, "Your points, Ana: round 1", "5")
    # Meanwhile Ben's phone saves his: the version after reaches the host's page first.
    game.refresh_from_db()
    services.move_play(session=game, type="score", data={"seat": 1, "points": 3},
                       actor=services.Actor(user=alice))
    host.wait_for_selector(f'#table[data-version="{seated + 2}"]', state="attached")
    expect(host.locator("#log")).to_contain_text("Ben")
    answer.release()
    expect(host.locator("#live")).not_to_have_attribute("data-version", str(seated + 1))
    expect(host.locator("#log li")).to_have_count(2)
    expect(host.locator("#undo")).to_contain_text("Ben")
    # Round 1 still needs Cy: Ben's 3 is in the pad's totals (the scoreboard counts finished
    # rounds only).
    expect(host.locator('#pad-table .pad-totals td[data-seat="1"]')).to_have_text("3")


def test_a_refusal_older_than_a_push_shows_its_sentence_and_the_latest_table(
        host_phone, alice):
    game = session_for(alice)
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    host.wait_for_selector("#table[data-stream=open]", state="attached")
    # Refused at version 0, held back from the page.
    refusal = sent_and_held(host, f"/s/{game.pk}/move/",
                            lambda: play(host, '{"seat": 0, "points": "lots"}'))
    services.move_play(session=game, type="add", data={"seat": 1, "points": 3},
                       actor=services.Actor(user=alice))
    host.wait_for_selector('#table[data-version="1"]', state="attached")
    refusal.release()
    expect(host.locator("#panel [role=alert]")).to_contain_text("A valid integer is required")
    # The table catches up at once: the refusal's #live was drawn before Peter's move.
    expect(host.locator("#live")).to_have_attribute("data-version", "0")
    expect(host.locator("#log")).to_contain_text("Peter +3")
    expect(host.locator("#panel [role=alert]")).to_contain_text("A valid integer is required")
    # The catch-up fetched #live alone: a reload is the whole page all the same.
    host.reload()
    expect(host.locator("#table")).to_be_attached()
    expect(host.locator("header")).to_be_visible()


def test_a_game_over_pushed_before_the_answer_offers_a_rematch_that_works(host_phone, alice):
    game = session_for(alice)
    services.move_play(session=game, type="add", data={"seat": 0, "points": 10},
                       actor=services.Actor(user=alice))
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    host.wait_for_selector("#table[data-stream=open]", state="attached")
    # Vanessa reaches 20: the game is over.
    answer = sent_and_held(host, f"/s/{game.pk}/move/",
                           lambda: play(host, '{"seat": 0, "points": 10}'))
    host.wait_for_selector('#table[data-version="2"]', state="attached")
    expect(host.locator("#scoreboard")).to_contain_text("Rematch")
    expect(host.locator("h1 + .badge")).to_have_text("finished")  # the page's heading too
    answer.release()
    host.get_by_role("button", name="Rematch").click()
    host.wait_for_url(lambda url: re.search(r"/s/(\d+)/$", url) is not None
                      and not url.endswith(f"/s/{game.pk}/"))
    expect(host.locator("#scoreboard")).to_be_visible()


def test_an_own_answer_left_out_as_older_still_brings_the_phone_s_own_form(phone, alice):
    # The score pad: Ben's own form is drawn for his next round, which only his own answer
    # changes (the controls' key, the rounds begun and completed, stays as it was).
    game = hearts(alice)
    host = services.Actor(user=alice)
    services.move_play(session=game, type="round", data={"scores": [1, 2, 3]}, actor=host)
    game.refresh_from_db()
    services.move_play(session=game, type="score", data={"seat": 0, "points": 5}, actor=host)
    ben = guest_phone_for(phone, game, "Ben")
    ben.wait_for_selector("#table[data-stream=open]", state="attached")
    answer = own_points_held(ben, game, "Your points, Ben: round 2", "4")
    game.refresh_from_db()
    services.move_play(session=game, type="correct", data={"seat": 0, "round": 1, "points": 0},
                       actor=host)
    game.refresh_from_db()
    ben.wait_for_selector(f'#table[data-version="{game.version}"]', state="attached")
    answer.release()
    expect(ben.locator("[data-own]")).to_contain_text("round 3")
    expect(ben.locator("#log")).to_contain_text("Ben scores +4")

