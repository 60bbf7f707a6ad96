"""A table's "Keep this in my history" card, at game over on a phone that played a seat: signed
in, one button; else a name and a password, to sign in or to make an account, in the same card.
Without JavaScript (a plain form, back to the table) and with htmx."""

from django.contrib.auth import get_user_model

from companion.models import Player
from tests.links import table
from tests.views.helpers import browser_for

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "keep-slot"}


def phone_of(session, guest, user=None):
    """The phone `guest` as its browser: its guest cookie, and signed in to `user` if given."""
    client = browser_for(user)
    client.cookies[f"guest{session.pk}"] = guest.token
    return client


def account_of(session, seat):
    return Player.objects.get(seats__session=session, seats__index=seat).account


def test_a_phone_not_signed_in_makes_an_account_and_keeps_its_seat(alice):
    session, guest = table(alice)
    phone = phone_of(session, guest)
    page = phone.get(f"/s/{session.pk}/").content.decode()
    assert "Keep this in my history" in page and 'name="password"' in page
    response = phone.post(f"/s/{session.pk}/keep/", {
        "username": "dora", "password": "a long table password", "account": "new"})
    assert response.status_code == 302 and response["Location"] == f"/s/{session.pk}/"
    assert account_of(session, 0) == get_user_model().objects.get(username="dora")
    # Signed in now, the phone still holds its seat: the card says it is kept.
    page = phone.get(f"/s/{session.pk}/").content.decode()
    assert "Dora's plays at this table are in your history." in page
    assert 'href="/me/"' in page


def test_a_phone_signs_in_to_an_account_it_has(alice, dora):
    session, guest = table(alice)
    response = phone_of(session, guest).post(f"/s/{session.pk}/keep/", {
        "username": "dora", "password": "a long table password", "account": "existing"})
    assert response.status_code == 302
    assert account_of(session, 0) == dora


def test_a_wrong_password_is_said_in_the_card_and_keeps_nothing(alice, dora):
    session, guest = table(alice)
    response = phone_of(session, guest).post(f"/s/{session.pk}/keep/", {
        "username": "dora", "password": "not it", "account": "existing"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "That user name and password do not match." in html
    assert 'value="dora"' in html  # what was typed stays
    assert account_of(session, 0) is None


def test_a_signed_in_phone_keeps_it_with_one_button(alice, dora):
    session, guest = table(alice)
    phone = phone_of(session, guest, dora)
    page = phone.get(f"/s/{session.pk}/")
    assert 'name="password"' not in page.content.decode()
    assert page.content.decode().count("Keep this in my history") == 3  # the link, title, button
    response = phone.post(f"/s/{session.pk}/keep/", **HTMX)
    assert response.status_code == 200
    assert "Dora's plays at this table are in your history." in response.content.decode()
    assert "<html" not in response.content.decode()
    assert account_of(session, 0) == dora
    # The page's validator changes with the card: a reload is not answered with the old one.
    assert phone.get(f"/s/{session.pk}/", HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 200


def test_signing_in_by_htmx_draws_the_page_again(alice, dora):
    session, guest = table(alice)
    response = phone_of(session, guest).post(f"/s/{session.pk}/keep/", {
        "username": "dora", "password": "a long table password", "account": "existing"},
        **HTMX)
    # Not a 302: the browser would follow it inside htmx's request, and the page land in the card.
    assert response.status_code == 200 and response["HX-Redirect"] == f"/s/{session.pk}/"
    assert account_of(session, 0) == dora


def test_a_seat_kept_by_another_account_is_refused_with_a_sentence(alice, dora, charlie):
    session, guest = table(alice)
    Player.objects.filter(seats__session=session, seats__index=0).update(account=charlie)
    phone = phone_of(session, guest, dora)
    assert 'id="keep"' not in phone.get(f"/s/{session.pk}/").content.decode()
    response = phone.post(f"/s/{session.pk}/keep/")
    assert response.status_code == 409
    assert "Dora&#x27;s seat is already kept in another account&#x27;s history." in \
        response.content.decode()
    assert account_of(session, 0) == charlie


def test_no_card_while_playing_nor_without_a_seat(alice, dora):
    playing, guest = table(alice, points=((0, 5),))
    assert 'id="keep"' not in \
        phone_of(playing, guest, dora).get(f"/s/{playing.pk}/").content.decode()
    finished, _guest = table(alice)
    assert 'id="keep"' not in \
        browser_for(alice).get(f"/s/{finished.pk}/").content.decode()  # the host keeps no seat
    refused = browser_for(dora).post(f"/s/{finished.pk}/keep/")
    assert refused.status_code == 404  # not at this table at all
    assert account_of(finished, 0) is None
