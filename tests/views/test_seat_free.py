"""POST /s/<id>/seat-free/: the host frees the seat a phone holds (the phone went flat, or its
player swapped phones), so that another phone can take it; a phone may not; the page offers
the host the seats phones hold."""

import html

import pytest

from companion import services
from companion.models import Guest
from tests.views.helpers import browser_for, guest_browser

pytestmark = pytest.mark.django_db


def free(client, game, seat):
    return client.post(f"/s/{game.pk}/seat-free/", {"seat": str(seat)})


def test_the_host_frees_a_lost_phones_seat_for_another_phone(alice, game):
    lost = guest_browser(game, seat=1)
    host = browser_for(alice)
    page = host.get(f"/s/{game.pk}/").content.decode()
    assert 'id="seat-free"' in page and '<option value="1">Peter</option>' in page
    form = page.split('id="seat-free"')[1].split("</form>")[0]
    assert '<option value="0">Vanessa</option>' not in form
    assert free(host, game, 1).status_code == 302
    assert not Guest.objects.filter(session=game, seat=1).exists()
    assert services.guest_join(code=game.code, seat=1).seat == 1  # the new phone
    # The old phone stays at the table, without a seat: it is asked which seat is its.
    assert "Which seat is yours?" in lost.get(f"/s/{game.pk}/").content.decode()


def test_a_phone_may_not_free_a_seat(game):
    guest_browser(game, seat=1)
    response = free(guest_browser(game, seat=0), game, 1)
    assert response.status_code == 403
    assert html.escape("Only the host may free a phone's seat.") in response.content.decode()
    assert Guest.objects.filter(session=game, seat=1).exists()


@pytest.mark.parametrize("seat, status, sentence", [
    (0, 409, "No phone holds Vanessa's seat."),
    (7, 400, "There is no seat 7: seats run from 0 to 1."),
    ("", 400, "Choose the seat to free."),
    ("first", 400, "The seat"),
])
def test_freeing_a_seat_no_phone_holds_says_why(alice, game, seat, status, sentence):
    guest_browser(game, seat=1)
    response = free(browser_for(alice), game, seat)
    assert response.status_code == status
    assert html.escape(sentence) in response.content.decode()
    assert Guest.objects.filter(session=game, seat=1).exists()


def test_the_form_is_the_hosts_and_only_while_a_phone_holds_a_seat(alice, game):
    host = browser_for(alice)
    assert 'id="seat-free"' not in host.get(f"/s/{game.pk}/").content.decode()
    phone = guest_browser(game, seat=1)
    assert 'id="seat-free"' not in phone.get(f"/s/{game.pk}/").content.decode()
