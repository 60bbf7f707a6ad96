"""Two phones at one table: a move on one shows on the other within a second, and a form being
filled in on the other is not wiped."""

import time

import pytest
from playwright.sync_api import expect

from companion.models import Session
from tests.e2e.conftest import guest_phone_for
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_move_on_one_phone_appears_on_the_other_and_a_half_filled_form_survives(
        host_phone, phone, alice):
    game = session_for(alice)
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    guest = guest_phone_for(phone, game, "Peter")
    guest.wait_for_function("document.querySelector('#table').dataset.version === '0'")
    guest.wait_for_selector("#table[data-stream=open]", state="attached")

    # Peter starts typing a move on his phone...
    half_filled = '{"seat": 1, "points": '
    guest.locator("#move-payload").fill(half_filled)

    # ...while the host plays one.
    host.locator("#move-payload").fill('{"seat": 0, "points": 6}')
    started = time.monotonic()
    host.get_by_role("button", name="Play").click()
    expect(guest.locator("#log")).to_contain_text("Vanessa +6", timeout=1000)
    assert time.monotonic() - started < 1.5  # the click, the POST and the push
    expect(guest.locator("#scoreboard")).to_contain_text("6")
    expect(guest.locator("#undo")).to_contain_text("Undo: Vanessa +6")

    # Peter's half-filled form is still there: the move changed nothing it was drawn from, so
    # nothing of his panel was pushed, and no word that it moved on.
    assert guest.locator("#move-payload").input_value() == half_filled
    expect(guest.locator("#moved-on")).to_be_hidden()

    # He finishes and sends it: it applies, and both phones show it.
    guest.locator("#move-payload").fill('{"seat": 1, "points": 3}')
    guest.get_by_role("button", name="Play").click()
    expect(host.locator("#log")).to_contain_text("Peter +3", timeout=1000)
    assert Session.objects.get(pk=game.pk).version == 2


def test_the_board_follows_the_table(host_phone, phone, alice):
    game = session_for(alice)
    board = phone()
    board.goto(f"/board/{game.board_key}/")
    board.wait_for_selector("#table[data-stream=open]", state="attached")
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    host.locator("#move-payload").fill('{"seat": 1, "points": 4}')
    host.get_by_role("button", name="Play").click()
    expect(board.locator("#log")).to_contain_text("Peter +4", timeout=1000)


def test_without_a_stream_the_page_polls_and_still_follows(host_phone, phone, alice):
    game = session_for(alice)
    guest = phone()
    # This phone's event stream never gets through (a proxy that buffers, say).
    guest.route("**/stream/", lambda route: route.abort())
    guest.goto(f"/join/{game.code}/")
    guest.get_by_role("button", name="Peter").click()
    guest.wait_for_selector("#scoreboard")
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    host.locator("#move-payload").fill('{"seat": 0, "points": 5}')
    host.get_by_role("button", name="Play").click()
    expect(guest.locator("#log")).to_contain_text("Vanessa +5", timeout=15000)


# What a phone shows of the log and the game's live part (htmx's swaps leave out comments, which
# a page's first render has, and an event's data its last newline).
SHOWN = """() => ({
    log: [...document.querySelectorAll('#log li')].map(li => li.outerHTML),
    live: document.getElementById('panel_live').innerHTML.replace(/<!--[\\s\\S]*?-->/g, '').trim(),
})"""


def test_a_phone_pushed_only_what_changed_shows_what_a_fresh_page_shows(phone, alice):
    """Move after move, a phone is pushed only the sections that changed (streams.Pusher);
    past the log's 30 lines, what it shows is what the same page loaded afresh shows."""
    from companion import services

    session = session_for(alice, game="knights", players=("Ann", "Bob", "Cid"),
                          options={"deck": "table"})
    guest = guest_phone_for(phone, session, "Bob")
    guest.wait_for_selector("#table[data-stream=open]", state="attached")
    actor = services.Actor(user=alice)
    for _ in range(33):  # eleven rounds of the table's deck: the log passes its 30 lines
        state = session.state
        move = ({"type": "reveal_event", "data": {"event": "Excalibur"}}
                if state["phase"] == "event" else
                {"type": "worship", "data": {}} if state["resolution"] is None else
                {"type": "end_round", "data": {}})
        session = services.move_play(session=session, actor=actor, **move).session
        # Each push in step with the one before it: the next move waits for this one to show.
        guest.wait_for_selector(f'#table[data-version="{session.version}"]', state="attached")
    followed = guest.evaluate(SHOWN)
    guest.reload()
    guest.wait_for_selector("#table[data-stream=open]", state="attached")
    fresh = guest.evaluate(SHOWN)
    assert len(followed["log"]) == 30
    assert followed["log"] == fresh["log"]
    assert followed["live"] == fresh["live"]


SCOREBOARD = """() => [...document.querySelectorAll('#scoreboard tbody tr')].map(
    tr => tr.outerHTML)"""


def test_a_phone_keeps_the_scoreboard_rows_a_move_left_alone(phone, alice):
    """Moves that change the scoreboard push it anew: the phone shows what a fresh page
    shows."""
    from companion import services

    session = session_for(alice, players=("Ann", "Bob", "Cid", "Dee"))
    guest = guest_phone_for(phone, session, "Bob")
    guest.wait_for_selector("#table[data-stream=open]", state="attached")
    actor = services.Actor(user=alice)
    for seat, points in ((2, 5), (0, 3), (2, 1)):
        session = services.move_play(session=session, actor=actor, type="add",
                                     data={"seat": seat, "points": points}).session
        guest.wait_for_selector(f'#table[data-version="{session.version}"]', state="attached")
    followed = guest.evaluate(SCOREBOARD)
    guest.reload()
    guest.wait_for_selector("#table[data-stream=open]", state="attached")
    assert followed == guest.evaluate(SCOREBOARD)
    # Each name after its seat's colour dot.
    names = [row.split('<td class="who">')[1].split("</span>", 1)[1].strip() for row in followed]
    assert [name[:3] for name in names] == ["Cid", "Ann", "Bob", "Dee"]
