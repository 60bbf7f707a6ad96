"""The history's charts on a phone (360 x 740) and a laptop (1280 x 800), on a player's page and a
game's (issue 53): their text is the page's body text (within 2 px), they are the card's width,
and the plays of three months are placed by their dates. A cooperative loss reads "lost".
HISTORY_SHOTS=docs/screens makes the pictures of docs/screens/history-*.png."""

import datetime
import os

import pytest
from playwright.sync_api import expect

from companion import services
from companion.models import Player
from tests.e2e.conftest import no_sideways_scroll, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("HISTORY_SHOTS")
SCREENS = {"phone": {"width": 360, "height": 740}, "laptop": {"width": 1280, "height": 800}}
# Plays of Azul in August, September (two) and November: October is a gap.
AZUL = ["2026-08-05", "2026-09-12", "2026-09-26", "2026-11-20"]


def log_plays(alice):
    for number, day in enumerate(AZUL):
        services.play_log(owner=alice, title="Azul", minutes=40,
                          played_at=datetime.date.fromisoformat(day),
                          players=[{"name": "Ana", "score": 60 + number},
                                   {"name": "Ben", "score": 55 + 3 * number}])
    services.play_log(owner=alice, title="Pandemic", win="coop", minutes=50,
                      played_at=datetime.date(2026, 11, 28),
                      players=[{"name": "Ana", "winner": False}, {"name": "Ben", "winner": False}])


def text_sizes(page):
    """The body text's size, and every chart text's size as drawn (its font size times the
    scale its svg draws it at), in px."""
    return page.evaluate("""() => {
        const body = parseFloat(getComputedStyle(document.querySelector("main p")).fontSize);
        const charts = [...document.querySelectorAll("svg.chart text")].map(text =>
            parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a);
        return {body, charts};
    }""")


def month_bars(page):
    """The month chart's bars: (their month's title, where they start, their width) in px."""
    return page.evaluate("""() => {
        const chart = [...document.querySelectorAll("svg.chart")].find(svg =>
            svg.querySelector("title").textContent.startsWith("Plays by month"));
        return [...chart.querySelectorAll("rect")].map(bar => {
            const box = bar.getBoundingClientRect();
            return [bar.querySelector("title").textContent, box.left, box.width];
        });
    }""")


@pytest.mark.parametrize("screen", ["phone", "laptop"])
def test_charts_read_as_time_at_the_pages_text_size(host_phone, alice, screen):
    log_plays(alice)
    page = host_phone()
    page.set_viewport_size(SCREENS[screen])
    ana = Player.objects.get(owner=alice, name="Ana")
    for address, name in ((f"/history/players/{ana.pk}/", "player"),
                          ("/history/games/pad/?title=Azul", "game")):
        page.goto(address)
        expect(page.locator("svg.chart").first).to_be_visible()
        sizes = text_sizes(page)
        assert sizes["charts"], address
        assert all(abs(size - sizes["body"]) <= 2 for size in sizes["charts"]), sizes
        card = page.locator("#when").bounding_box()
        chart = page.locator("#when svg.chart").bounding_box()
        assert chart["width"] >= card["width"] - 100, (card, chart)  # the card's width
        bars = month_bars(page)
        assert [title.split(":")[0] for title, _left, _width in bars] == [
            "Aug 2026", "Sep 2026", "Oct 2026", "Nov 2026"]
        # Placed by their months' first days: 31, 61 and 92 days after August's, of 122.
        left, span = bars[0][1] - 0.1 * bars[0][2] / 0.8, bars[0][2] / 0.8 * 122 / 31
        for (_title, start, width), (day, days) in zip(bars, ((0, 31), (31, 30), (61, 31),
                                                              (92, 30)), strict=True):
            assert abs(start - (left + span * (day + 0.1 * days) / 122)) < 1.5, bars
            assert abs(width - span * 0.8 * days / 122) < 1.5, bars
        assert no_sideways_scroll(page), address
        screenshot(SHOTS, page, f"history-{name}-{screen}", whole=True)


def test_a_cooperative_loss_reads_lost_on_every_page(host_phone, alice):
    log_plays(alice)
    page = host_phone()
    page.goto("/history/")
    expect(page.locator(".sessions li", has_text="Pandemic")).to_contain_text("lost together")
    page.locator(".sessions a", has_text="Pandemic").first.click()
    expect(page.locator("#outcome")).to_have_text("The table lost together.")
    page.goto("/history/games/pad/?title=Pandemic")
    expect(page.locator("#coop")).to_contain_text("won 0 and lost 1 of 1 cooperative play")
    ana = Player.objects.get(owner=alice, name="Ana")
    page.goto(f"/history/players/{ana.pk}/")
    expect(page.locator("#coop")).to_contain_text("won 0 and lost 1")
    expect(page.locator(".sessions li", has_text="Pandemic")).to_contain_text("lost together")
