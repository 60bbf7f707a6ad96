"""Acceptance 2 of issue 13: logging a four-player play after the fact takes one screen of a
360 x 740 phone, and the taps are counted (each fill, choice and click is one); a game played
before is logged again from its last play (issue 53)."""

import pytest
from playwright.sync_api import expect

from companion import services
from companion.models import Result, Session
from tests.e2e.conftest import no_sideways_scroll

pytestmark = pytest.mark.django_db(transaction=True)

SCREEN = {"width": 360, "height": 740}
# Game, four names, four scores, the length, the place, the save button.
TAPS_AT_MOST = 12


class Taps:
    """The page's fills and clicks, counted."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def fill(self, locator, value):
        self.count += 1
        locator.fill(value)

    def click(self, locator):
        self.count += 1
        locator.click()


def test_four_players_on_one_screen_in_a_dozen_taps(host_phone):
    page = host_phone()
    page.set_viewport_size(SCREEN)
    page.get_by_role("link", name="Log a play").click()
    page.wait_for_selector("#play-log")
    # Measured once the page's styles and fonts are in: a click returns when the new page is
    # under way, and a layout without them once measured 1,069 px tall.
    page.wait_for_load_state("load")
    page.evaluate("document.fonts.ready.then(() => true)")
    save = page.locator("#log-save")
    # One screen: the whole form, the save button included, without scrolling.
    assert page.evaluate("document.documentElement.scrollHeight") <= SCREEN["height"]
    assert save.bounding_box()["y"] + save.bounding_box()["height"] <= SCREEN["height"]
    assert no_sideways_scroll(page)
    taps = Taps(page)
    before = taps.count
    taps.fill(page.get_by_label("Game", exact=True), "Carcassonne")
    for number, (name, score) in enumerate([("Ana", "61"), ("Ben", "74"), ("Cid", "58"),
                                            ("Dee", "74")], start=1):
        taps.fill(page.get_by_label(f"Player {number}", exact=True), name)
        taps.fill(page.get_by_label(f"Score of player {number}", exact=True), score)
    taps.fill(page.get_by_label("Minutes"), "45")
    taps.fill(page.get_by_label("Where"), "Ana's kitchen")
    # The date is today's already and the highest score wins by default: no taps for them.
    taps.click(save)
    page.wait_for_selector("#logged")
    assert taps.count - before <= TAPS_AT_MOST
    session = Session.objects.get()
    assert (session.game, session.title, session.logged, session.location) == (
        "pad", "Carcassonne", True, "Ana's kitchen")
    assert sorted(Result.objects.filter(session=session, winner=True)
                  .values_list("name", flat=True)) == ["Ben", "Dee"]
    assert "Carcassonne" in page.locator("h1").inner_text()
    assert no_sideways_scroll(page)


def test_in_spanish_the_form_still_takes_one_screen(host_phone):
    page = host_phone("es-ES")
    page.set_viewport_size(SCREEN)
    page.goto("/plays/new/")
    page.wait_for_selector("#play-log")
    assert page.locator("html").get_attribute("lang") == "es"
    # The header keeps one line with the language switch; the longer Spanish words fit.
    assert page.locator("header.top").bounding_box()["height"] <= 48
    assert page.evaluate("document.documentElement.scrollHeight") <= SCREEN["height"]
    assert no_sideways_scroll(page)


def test_a_game_played_before_is_logged_again_from_its_last_play(host_phone, alice):
    services.play_log(owner=alice, title="Pandemic", win="coop",
                      players=[{"name": "Ana", "winner": False}, {"name": "Ben", "winner": False},
                               {"name": "Cy", "winner": False}])
    page = host_phone()
    page.goto("/plays/new/")
    page.get_by_label("Game", exact=True).fill("Pandemic")
    page.get_by_label("Minutes").focus()  # the game field's change
    offer = page.locator("#log-last button")
    expect(offer).to_have_text("Start from its last play: Ana, Ben, Cy")
    offer.click()
    expect(page.get_by_label("Player 3", exact=True)).to_have_value("Cy")
    expect(page.get_by_label("Won by")).to_have_value("coop")
    expect(page.get_by_label("Game", exact=True)).to_have_value("Pandemic")
