"""The rabbits panel through Django's test client: host and guest, forms with and without htmx,
refusals next to their form, and the card picker's running total."""

import html
import re

import pytest
from django.test import Client

from companion import services
from tests.factories import session_for
from tests.views.helpers import browser_for, guest_browser

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(alice):
    return session_for(alice, game="rabbits", players=("Ana", "Ben"))


@pytest.fixture
def host(alice):
    return browser_for(alice)


@pytest.fixture
def ben(session):
    return guest_browser(session, seat=1)


def post(client, session, htmx=False, **fields):
    extra = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live"} if htmx else {}
    return client.post(f"/s/{session.pk}/move/", fields, **extra)


def page(client, session):
    response = client.get(f"/s/{session.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def refusal_of(html, form):
    """The refusal shown inside the <form> whose hidden `form` field is `form`."""
    for chunk in html.split("<form")[1:]:
        body = chunk.split("</form>")[0]
        if f'name="form" value="{form}"' in body:
            found = re.search(r'<p class="error" role="alert">(.*?)</p>', body, re.S)
            return found and found.group(1)
    raise AssertionError(f"no form {form}")


def test_the_host_sees_the_line_the_rabbits_and_the_roll(host, session):
    html = page(host, session)
    assert "The royal line" in html and html.count('class="rb-royal ') == 12
    assert "Ana's turn" in html and "Roll the dice for Ana" in html
    assert 'name="form" value="where-0"' in html and 'name="form" value="where-1"' in html
    # Each seat's sheet (every phone and the board show it) says it of the seat, not "You".
    assert "Needs a Jack, a Queen and a King" in html and "You need" not in html
    assert "games/rabbits/panel.js" in html and "games/rabbits/panel.css" in html


def test_a_guest_acts_only_for_its_own_seat(ben, session):
    html = page(ben, session)
    # Ben's own controls come first, marked, his roll among them but not shown: Ana rolls first.
    assert html.index("data-own") < html.index('id="panel_live"')
    own = re.search(r'<section class="rb-controls" data-own[^>]*>', html).group(0)
    assert 'data-controls="1"' in own and "data-rolls" not in own and "data-acts" not in own
    assert 'value="where-1"' in html and 'value="where-0"' not in html
    assert "Roll the dice for Ana" not in html and "Play for" not in html
    assert "(you)" in html


def test_a_seated_host_sees_its_own_seat_first_and_the_others_folded(host, session, alice):
    services.session_host_seat(session=session, seat=0)
    html = page(host, session)
    own = re.search(r'<section class="rb-controls" data-own[^>]*>', html).group(0)
    assert 'data-controls="0"' in own and "data-rolls" in own
    fold = html.index('<details class="rb-others" id="rb-others">')
    assert html.index("data-own") < html.index('id="panel_live"') < fold
    assert html.index("Play for another seat") > fold and html.index('value="where-1"') > fold


def test_each_phone_is_asked_where_its_rabbit_is_and_every_scoreboard_says(host, ben, session):
    assert "<legend>Where is your rabbit?</legend>" in page(ben, session)
    html = page(host, session)
    assert "<legend>Where is Ana's rabbit?</legend>" in html
    assert "<legend>Where is Ben's rabbit?</legend>" in html
    post(ben, session, type="where", form="where-1", seat="1", place="underground")
    for html in (page(host, session), page(ben, session)):
        scoreboard = html.split('id="scoreboard"')[1].split("</table>")[0]
        ana = re.search(r'<tr id="scoreboard-seat-0".*?</tr>', scoreboard, re.S).group(0)
        ben_row = re.search(r'<tr id="scoreboard-seat-1".*?</tr>', scoreboard, re.S).group(0)
        assert '<span class="note">on the board</span>' in ana
        assert '<span class="note">underground</span>' in ben_row


def test_the_live_part_says_whose_roll_and_turn_it_is(host, session):
    html = page(host, session)
    assert '<div class="rb-live" data-turn="0" data-roller="0" data-acting=""' in html
    post(host, session, type="roll", form="dice-0", seat="0", dice=["3", "4"])
    html = page(host, session)
    assert '<div class="rb-live" data-turn="0" data-roller="1" data-acting="0"' in html


def test_the_lottery_s_form_goes_once_the_journey_has_paid(host, session):
    post(host, session, type="roll", form="dice-0", seat="0", dice=["5", "2"])
    assert "data-lottery" not in page(host, session)
    post(host, session, type="pay", form="pay-0", seat="0", cards="5S 2S", suits=["S"])
    shown = page(host, session)
    assert re.search(r'<div class="rb-live"[^>]* data-lottery', shown)
    assert "The lottery was played this turn." not in shown
    response = post(host, session, htmx=True, type="lottery", form="lottery-0", seat="0",
                    card="5S")
    assert response.status_code == 400
    assert refusal_of(response.content.decode(), "lottery-0") == html.escape(
        "The lottery comes right after the roll: Ana has paid on the journey already this turn.")


def test_a_roll_through_the_form_without_js_redirects(host, session):
    response = post(host, session, type="roll", form="dice", seat="0", dice=["3", "4"])
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.state["turn"]["price"] == 7
    html = page(host, session)
    assert 'id="rb-price"' in html and ">7<" in html
    assert "Pay the price" in html and "Roll the dice for Ben" in html


def test_a_server_roll_through_htmx_returns_the_live_partial(host, session):
    response = post(host, session, htmx=True, type="roll", form="roll", seat="0")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="live"') and "<html" not in html
    session.refresh_from_db()
    assert session.state["turn"]["dice"] is not None


def test_a_payment_typed_as_text(host, session):
    post(host, session, type="roll", form="dice", seat="0", dice=["2", "3"])
    response = post(host, session, htmx=True, type="pay", form="pay", seat="0",
                    cards="3h 2H", suits=["H", "S"])
    assert response.status_code == 200
    session.refresh_from_db()
    assert session.state["last"]["total"] == 5


def test_a_short_payment_is_refused_next_to_its_form_and_refilled(host, session):
    post(host, session, type="roll", form="dice", seat="0", dice=["6", "6"])
    response = post(host, session, htmx=True, type="pay", form="pay-0", seat="0",
                    cards="3H 2H", suits=["H"])
    assert response.status_code == 400
    html = response.content.decode()
    assert refusal_of(html, "pay-0") == "3H and 2H add up to 5: the price is 12."
    assert refusal_of(html, "lottery-0") is None and refusal_of(html, "pay-1") is None
    assert 'value="3H 2H"' in html and '<details class="rb-move rb-pay" id="rb-0-pay" open>' in html
    assert '<details class="rb-others" id="rb-others" open>' in html
    assert re.search(r'value="H" checked', html)
    session.refresh_from_db()
    assert session.version == 1


def test_a_bad_card_text_is_refused_without_js(host, session):
    post(host, session, type="roll", form="dice", seat="0", dice=["1", "3"])
    response = post(host, session, type="lottery", form="lottery-0", seat="0", card="7X")
    assert response.status_code == 400
    assert "is not a card" in refusal_of(response.content.decode(), "lottery-0")


def test_an_audience_and_the_citadel_say_what_is_missing(host, session):
    post(host, session, type="roll", form="dice", seat="0", dice=["1", "3"])
    response = post(host, session, htmx=True, type="audience", form="audience", seat="0",
                    royal="JH", cards="10H")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ana's carrot" in html and "Ana's turn has ended" in html
    post(host, session, type="roll", form="dice", seat="1", dice=["1", "3"])
    post(host, session, type="roll", form="dice", seat="0", dice=["1", "3"])
    html = page(host, session)
    assert "Needs a Queen and a King: holds JH." in html
    response = post(host, session, htmx=True, type="arrive", form="arrive-0", seat="0")
    assert response.status_code == 400
    assert refusal_of(response.content.decode(), "arrive-0") == \
        "You need a Queen and a King: you hold JH."


def test_steal_and_where_forms(host, session):
    post(host, session, type="roll", form="dice", seat="0", dice=["1", "3"])
    post(host, session, type="audience", form="audience", seat="0", royal="KS", cards="10S")
    post(host, session, type="roll", form="dice", seat="1", dice=["2", "3"])
    html = page(host, session)
    # The thief's form (Ben takes from Ana) and the victim's (Ana says who took what).
    assert 'name="form" value="steal-1-0"' in html and 'name="royal" value="KS"' in html
    assert 'name="form" value="stolen-0"' in html
    response = post(host, session, htmx=True, type="steal", form="steal-1-0", thief="1",
                    victim="0", royal="KS", returns="")
    assert response.status_code == 200
    session.refresh_from_db()
    assert session.state["tiles"] == {"KS": 1} and session.state["seats"][0]["place"] == "off"
    response = post(host, session, htmx=True, type="where", form="where-0", seat="0",
                    place="off")
    assert refusal_of(response.content.decode(), "where-0") == "Ana is off the board already."
    response = post(host, session, type="where", form="where-0", seat="0", place="board")
    assert response.status_code == 302


def test_the_winner_is_shown_and_the_forms_go(host, session):
    for royal, cards in (("JH", "10H"), ("QS", "10S"), ("KD", "10D")):
        post(host, session, type="roll", form="dice", seat="0", dice=["1", "3"])
        post(host, session, type="audience", form="audience", seat="0", royal=royal,
             cards=cards)
        post(host, session, type="roll", form="dice", seat="1", dice=["1", "3"])
    post(host, session, type="roll", form="dice", seat="0", dice=["1", "3"])
    html = page(host, session)
    assert "Ana's royals satisfy the ending." in html
    assert post(host, session, type="arrive", form="arrive", seat="0").status_code == 302
    html = page(host, session)
    assert "Ana is back at the Citadel and wins!" in html
    assert 'value="where-0"' not in html and "Roll the dice" not in html
    assert 'class="note"' not in html  # where the rabbits were is no longer the table's news


# The picker's running total -------------------------------------------------------------------

def total(client, session, **params):
    response = client.get(f"/g/rabbits/{session.pk}/total/", params)
    assert response.status_code == 200
    return response.content.decode()


def test_the_running_total_counts_the_first_ace_and_holds_back_a_short_payment(host, session):
    post(host, session, type="roll", form="dice", seat="0", dice=["6", "6"])
    html = total(host, session, type="pay", seat="0", cards="AH", suits="H")
    assert 'class="rb-sum-total">11<' in html and "1 point short." in html
    assert 'data-ready="0"' in html and "<button" not in html  # the button stays on the page
    html = total(host, session, type="pay", seat="0", cards="AH 2H", suits="H")
    assert 'class="rb-sum-total">13<' in html and 'data-ready="1"' in html
    html = total(host, session, type="pay", seat="0", cards="AH 2D", suits="H")
    assert "2D: not hearts." in html and 'data-ready="0"' in html
    html = total(host, session, type="pay", seat="0", cards="QH ZZ", suits="H")
    assert "ZZ is not a card" in html and "QH: not held by Ana." in html


def test_the_running_total_of_an_audience_is_against_10_of_the_royals_suit(host, session):
    post(host, session, type="roll", form="dice", seat="0", dice=["1", "1"])
    html = total(host, session, type="audience", seat="0", royal="QD", cards="4D 5D")
    assert "/ 10 points of diamonds" in html and "1 point short." in html
    html = total(host, session, type="audience", seat="0", royal="QD", cards="4D 6D")
    assert 'data-ready="1"' in html and "10 points of diamonds" in html
    html = total(host, session, type="audience", seat="0", cards="10D")
    assert "Choose the royal." in html


def test_the_running_total_is_private_to_the_table(session, charlie):
    stranger = Client()
    stranger.force_login(charlie)
    assert stranger.get(f"/g/rabbits/{session.pk}/total/").status_code == 404
    assert Client().get(f"/g/rabbits/{session.pk}/total/").status_code == 404


def test_the_guest_may_ask_for_the_running_total(ben, session):
    assert "rb-summary" in total(ben, session, type="pay", seat="0", cards="2H", suits="H")


def test_the_live_stream_renders_the_panel_without_a_request(session):
    from companion.fragments import render_panel

    for viewer, is_host in ((None, True), (1, False)):
        html = render_panel(session, viewer, is_host)
        assert "The royal line" in html and "rb-seat-1" in html
    assert "Roll the dice for Ana" in render_panel(session, None, True)
    assert "Roll the dice for Ana" not in render_panel(session, 1, False)


def test_a_guests_move_for_another_seat_is_refused_with_a_sentence(ben, session):
    response = post(ben, session, htmx=True, type="where", form="where-1", seat="0",
                    place="off")
    assert response.status_code == 403
    assert "This is Ana's move: it comes from Ana's phone or the host's." in \
        html.unescape(response.content.decode())
    session.refresh_from_db()
    assert session.version == 0
