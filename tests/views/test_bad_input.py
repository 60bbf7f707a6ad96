"""The pages' forms and addresses refuse bad input with a 4xx and a sentence, and change nothing:
Unicode digits where a number goes, a NUL in a field, JSON nested too deeply, a code that cannot
be one."""

import pytest
from django.contrib.auth import get_user_model

from companion.models import Guest, Move, Session
from tests.views.helpers import assert_phone_ready, browser_for, guest_browser, off_the_loop


def world():
    return (get_user_model().objects.count(), Session.objects.count(), Move.objects.count(),
            Guest.objects.count(), list(Guest.objects.values_list("seat", flat=True)))


def refused(response, status, *words):
    assert response.status_code == status, response.status_code
    text = response.content.decode()
    for word in words:
        assert word in text, text[:500]
    return text


@pytest.mark.parametrize("raw", ["²", "-1", "1.0", "x"])
def test_a_version_that_is_not_a_whole_number_is_refused(alice, game, raw):
    before = world()
    response = browser_for(alice).post(f"/s/{game.pk}/move/", {
        "type": "add", "seat": "0", "points": "2", "expected_version": raw})
    refused(response, 400, "The version is a whole number")
    assert world() == before


@pytest.mark.parametrize("raw", ["²", "1e3"])
def test_a_seat_that_is_not_a_whole_number_is_refused_on_the_join_and_seat_forms(game, raw):
    before = world()
    refused(browser_for().post(f"/join/{game.code}/", {"seat": raw}), 400,
            "The seat is a whole number")
    assert world() == before
    phone = guest_browser(game)
    before = world()
    refused(phone.post(f"/s/{game.pk}/seat/", {"seat": raw}), 400, "The seat is a whole number")
    assert world() == before


def test_a_step_that_is_not_a_whole_number_is_refused(alice, game):
    refused(browser_for(alice).get(f"/history/sessions/{game.pk}/?upto=²"), 400,
            "The move is a whole number")


@pytest.mark.django_db(transaction=True)  # the stream reads on threads of its own
def test_a_last_event_id_that_is_not_a_whole_number_is_refused(alice, game):
    client = browser_for(alice)
    response = off_the_loop(lambda: client.get(f"/s/{game.pk}/stream/", HTTP_LAST_EVENT_ID="²"))
    refused(response, 400, "Last-Event-ID is a whole number")


@pytest.mark.parametrize("levels", [30, 5000])
def test_a_payload_nested_too_deeply_is_refused(alice, game, levels):
    before = world()
    payload = '{"seat": 0, "points": ' + "[" * levels + "]" * levels + "}"
    response = browser_for(alice).post(f"/s/{game.pk}/move/", {"type": "add",
                                                                "payload": payload})
    refused(response, 400, "nested too deeply")
    assert world() == before


@pytest.mark.parametrize("path, fields", [
    ("/signup/", {"username": "do\x00ra", "password": "windmills at dusk"}),
    ("/players/", {"name": "Pe\x00ter"}),
    ("/new/?game=tiny", {"name": ["Ana", "B\x00o"]}),
])
def test_a_nul_in_a_form_field_is_refused(alice, path, fields):
    before = world()
    refused(browser_for(alice).post(path, fields), 400, "control characters")
    assert world() == before


@pytest.mark.parametrize("code, status, words", [
    ("a/b", 404, "No game is open with the code A/B."),
    ("ABC\x00", 400, "control characters"),
    ("ÄÖÜ", 404, "No game is open with the code ÄÖÜ."),
    ("X" * 40, 404, "No game is open with the code " + "X" * 20 + "."),
])
def test_a_code_that_cannot_be_one_is_a_page_in_words(game, code, status, words):
    before = world()
    refused(browser_for().get("/join/", {"code": code}), status, words)
    assert world() == before


def test_a_refused_field_is_a_page_that_fits_a_phone_with_the_way_back(alice):
    """It was a bare text answer, 980 px wide on a phone, with no way back to the form."""
    page = browser_for(alice).post("/plays/new/", {"location": "Ma\x00drid"},
                                   HTTP_REFERER="http://testserver/plays/new/")
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")
    assert_phone_ready(page)
    html = page.content.decode()
    assert "location: text may not contain control characters." in html
    assert 'href="/plays/new/"' in html and ">Back<" in html
    # A way back only to this site's own pages.
    elsewhere = browser_for(alice).post("/plays/new/", {"location": "Ma\x00drid"},
                                        HTTP_REFERER="https://example.com/plays/new/")
    assert 'href="/"' in elsewhere.content.decode()


def test_a_step_out_of_bounds_in_a_games_history_is_a_page(alice):
    from tests.factories import played

    done = played(alice)
    page = browser_for(alice).get(f"/history/sessions/{done.pk}/?upto=-1")
    assert page.status_code == 400
    assert_phone_ready(page)
    assert "The move is a whole number from 0 up, not -1." in page.content.decode()
