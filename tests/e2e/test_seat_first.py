"""The seat-first table, for every installed game, on 360 x 740 phones: a phone that opens the
join link sees its own controls after at most two taps; Rematch from a finished game takes all
three phones to the new table, each at its own seat."""

import pytest
from playwright.sync_api import expect

import games
from companion import services
from companion.access import guest_cookie_name
from companion.models import Session
from tests.factories import play_to_the_end, session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

GAMES = [app.rpartition(".")[2] for app in games.INSTALLED_APPS]  # the product games
NAMES = ("Ana", "Ben", "Cy")


def seated_phone(phone, live_server, session, seat):
    """A phone that joined `session` earlier and holds `seat` (its cookie set)."""
    guest = services.guest_join(code=session.code, seat=seat)
    page = phone()
    page.context.add_cookies([{"name": guest_cookie_name(session.pk), "value": guest.token,
                               "url": live_server.url}])
    return page


@pytest.mark.parametrize("slug", GAMES)
def test_from_the_join_link_to_ones_own_controls_in_two_taps(slug, phone, alice):
    session = session_for(alice, game=slug, players=NAMES)
    services.session_host_seat(session=session, seat=0)
    page = phone()
    page.goto(f"/join/{session.code}/")
    expect(page.get_by_role("heading", name=f"Join {session.game_name}")).to_be_visible()
    expect(page.get_by_role("button", name="Ana · host")).to_be_disabled()
    taps = 0
    page.get_by_role("button", name="Ben · free").click()
    taps += 1
    expect(page.locator("#panel [data-own]").first).to_be_visible()
    assert page.locator("#table").get_attribute("data-viewer") == "1"
    assert taps <= 2


@pytest.mark.parametrize("slug", GAMES)
def test_rematch_takes_all_three_phones_to_the_new_table(slug, phone, host_phone, alice,
                                                         live_server):
    session = None
    for seed in range(12):
        session = session_for(alice, game=slug, players=NAMES, seed=f"rematch{seed}")
        ben = seated_phone(phone, live_server, session, 1)
        cy = seated_phone(phone, live_server, session, 2)
        if play_to_the_end(session, seed=seed):
            break
    session.refresh_from_db()
    assert session.is_finished
    for page in (ben, cy):
        page.goto(f"/s/{session.pk}/")
        expect(page.locator("#game-over")).to_be_visible()
        page.wait_for_selector("#table[data-stream=open]", state="attached")
    host = host_phone()
    host.goto(f"/s/{session.pk}/")
    host.locator("#game-over").get_by_role("button", name="Rematch").click()
    new = Session.objects.get(rematch_of=session)
    for page in (host, ben, cy):
        page.wait_for_url(f"**/s/{new.pk}/")
        expect(page.locator("#scoreboard")).to_be_visible()
    assert ben.locator("#table").get_attribute("data-viewer") == "1"
    assert cy.locator("#table").get_attribute("data-viewer") == "2"
    assert list(new.seats.values_list("name", flat=True)) == list(NAMES)
