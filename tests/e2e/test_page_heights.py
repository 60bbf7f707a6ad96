"""In the middle of every game, a host's table page is at most two screens of a 360 x 740 phone
and a guest's at most one and a half (issue 52, point 4): once every seat has its phone the
invite is a code chip beside the title, the log shows its last lines with the rest folded, the
table's settings fold, and each game folds its reference part (the grid, every seat's sheet)."""

import pytest
from playwright.sync_api import expect

import games
from companion import services
from companion.access import guest_cookie_name
from tests.factories import first_sample_options, play_to_the_end

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

GAMES = [app.rpartition(".")[2] for app in games.INSTALLED_APPS]  # the product games
SCREEN = 740
HOST_MOST, GUEST_MOST = 2 * SCREEN, 1.5 * SCREEN
# Moves into each game: its middle (the score pad's five rounds would end at 14).
MIDDLE_MOVES = {"pad": 6}


def height(page):
    return page.evaluate("document.documentElement.scrollHeight")


def test_every_game_in_its_middle_fits_two_screens_for_the_host_and_one_and_a_half_for_a_guest(
        host_phone, phone, alice, live_server):
    host = host_phone()
    guest = phone()
    heights = {}
    for slug in GAMES:
        session = services.session_create(owner=alice, game=slug, players=["Ana", "Ben", "Cy"],
                                          options=first_sample_options(slug), host_seat=0,
                                          seed=f"{slug}mid")
        token = services.guest_join(code=session.code, seat=1).token
        services.guest_join(code=session.code, seat=2)
        play_to_the_end(session, seed=0, max_moves=MIDDLE_MOVES.get(slug, 14))
        session.refresh_from_db()
        assert not session.is_finished, slug
        host.goto(f"/s/{session.pk}/")
        expect(host.locator("#scoreboard")).to_be_visible()
        guest.context.add_cookies([{"name": guest_cookie_name(session.pk), "value": token,
                                    "url": live_server.url}])
        guest.goto(f"/s/{session.pk}/")
        expect(guest.locator("#scoreboard")).to_be_visible()
        heights[slug] = (height(host), height(guest))
        # Every seat has its phone: the invite is the code beside the title, and still opens
        # the QR (a phone swapped).
        chip = host.locator("#invite-chip")
        expect(chip).to_contain_text(session.code)
        assert chip.bounding_box()["y"] < host.locator("#scoreboard").bounding_box()["y"]
        # The log's last two lines; the earlier ones a tap away. The settings folded.
        for page in (host, guest):
            expect(page.locator("#log > ol.log > li")).to_have_count(2)
            expect(page.locator("#log-all")).not_to_have_attribute("open", "")
            expect(page.locator("#table-settings")).not_to_have_attribute("open", "")
    host.locator("#log-all > summary").click()
    expect(host.locator("#log-all li").first).to_be_visible()
    host.locator("#invite-chip").click()
    expect(host.locator("#qr-full img")).to_be_visible()

    over = {slug: (hosted, guested) for slug, (hosted, guested) in heights.items()
            if hosted > HOST_MOST or guested > GUEST_MOST}
    assert over == {}, over
