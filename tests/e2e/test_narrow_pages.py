"""The pages with the widest tables and fields, with heavy data, on a 360 px phone: a player of
eight plays of four games (long titles) against five opponents (long names), a score pad of six
seats, the form that logs a play and the history's filters. Nothing scrolls sideways, not the
page and not a table inside its box; no label, heading, cell or field is cut off, no word is cut
in two, no cell is narrower than its longest word."""

import datetime
import os

import pytest

from companion import services
from companion.models import Player
from tests.e2e.conftest import no_sideways_scroll, words_cut_in_two
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("NARROW_SHOTS")  # a folder: each page's screenshot is saved there

NAMES = ["Íñigo Montoya", "Marta Fernández", "Vanessa Redgrave", "Peter Schlemihl",
         "Alejandro Villanueva", "Leonor Castellanos"]
TITLES = ["Through the Ages: A New Story of Civilization", "Twilight Imperium Fourth Edition",
          "Terraforming Mars", "Carcassonne"]


def heavy_data(owner):
    """Íñigo's eight plays of the four titles with three to six players, two games with several
    winners (cooperative, no points), and a score pad of six seats four rounds in."""
    today = datetime.date.today()
    for number, title in enumerate(TITLES * 2):
        services.play_log(owner=owner, title=title, location="Casa de Marta Fernández",
                          played_at=today - datetime.timedelta(days=number + 1),
                          players=[{"name": name, "score": 10 + (7 * number + 5 * seat) % 23}
                                   for seat, name in enumerate(NAMES[:3 + number % 4])])
    for win in ("coop", "none"):
        services.play_log(owner=owner, title="Hanabi", win=win,
                          players=[{"name": name, "winner": True} for name in NAMES[:4]])
    pad = session_for(owner, game="pad", players=NAMES,
                      options={"game": "Through the Ages", "win": "high", "target": 1000})
    for number in range(4):
        services.move_play(session=pad, type="round",
                           data={"scores": [12 + 37 * number + 11 * seat for seat in range(6)]},
                           actor=services.Actor(user=owner))
    return pad, Player.objects.get(owner=owner, name=NAMES[0])


def cut_off(page):
    """Headings, cells, labels, buttons and figures whose words do not fit their box."""
    return page.evaluate("""() => [...document.querySelectorAll(
            "main th, main td, main label, main button, main .button, main dd")]
        .filter(el => el.getClientRects().length && el.clientWidth > 1)  // not the sr-only
        .filter(el => el.scrollWidth > el.clientWidth + 1)
        .map(el => `${el.tagName}${el.className ? "." + el.className : ""} `
                   + `${el.clientWidth}<${el.scrollWidth} `
                   + el.textContent.trim().slice(0, 30))""")


def narrower_than_a_word(page):
    """Table cells narrower (inside their padding) than their longest word, measured along the
    line the word is set on (a name set on end, along its height)."""
    return page.evaluate("""() => {
        const found = [];
        for (const cell of document.querySelectorAll("main th, main td")) {
            if (!cell.getClientRects().length) continue;
            const style = getComputedStyle(cell);
            const wide = cell.clientWidth - parseFloat(style.paddingLeft)
                - parseFloat(style.paddingRight);
            const tall = cell.clientHeight - parseFloat(style.paddingTop)
                - parseFloat(style.paddingBottom);
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            while (walker.nextNode()) {
                const node = walker.currentNode;
                const upright = getComputedStyle(node.parentElement).writingMode
                    .startsWith("horizontal");
                for (const word of node.textContent.matchAll(/\\S+/gu)) {
                    const range = document.createRange();
                    range.setStart(node, word.index);
                    range.setEnd(node, word.index + word[0].length);
                    const length = [...range.getClientRects()]
                        .reduce((sum, r) => sum + (upright ? r.width : r.height), 0);
                    const room = upright ? wide : tall;
                    if (length > room + 1) {
                        found.push(`${cell.tagName} ${Math.round(room)}<${Math.round(length)} `
                                   + word[0]);
                    }
                }
            }
        }
        return found;
    }""")


def fields_cut_off(page):
    """Choices and dates drawn narrower than what they show (the chosen option, "mm/dd/yyyy"):
    each is measured against a copy of itself as wide as its content."""
    return page.evaluate("""() => [...document.querySelectorAll(
            "main select, main input[type=date]")]
        .filter(el => el.getClientRects().length)
        .map(el => {
            const copy = el.cloneNode(false);
            copy.removeAttribute("id");
            copy.removeAttribute("name");
            if (el.tagName === "SELECT" && el.selectedOptions.length) {
                copy.append(el.selectedOptions[0].cloneNode(true));
            }
            copy.style.position = "absolute";
            copy.style.width = "max-content";
            el.after(copy);
            const needs = copy.getBoundingClientRect().width;
            copy.remove();
            return [el, el.getBoundingClientRect().width, needs];
        })
        .filter(([el, width, needs]) => needs > width + 1)
        .map(([el, width, needs]) => `${el.id} ${Math.round(width)}<${Math.round(needs)}`)""")


def boxes_scrolled_sideways(page):
    """Cards and tables' boxes whose content is wider than they are (scrolled inside)."""
    return page.evaluate("""() => [...document.querySelectorAll(
            "main .card, main .scroll-x, main .pad-scroll")]
        .filter(box => box.getClientRects().length && box.scrollWidth > box.clientWidth + 1)
        .map(box => `${box.id || box.className} ${box.clientWidth}<${box.scrollWidth}`)""")


def test_the_widest_pages_fit_a_phone_with_heavy_data(host_phone, alice):
    pad, inigo = heavy_data(alice)
    host = host_phone()
    failures = []
    pages = {f"/history/players/{inigo.pk}/": "section:has(#head-to-head) tbody tr",
             f"/s/{pad.pk}/": "#pad-round-4", "/plays/new/": "#log-save",
             "/history/": "#f-until"}
    for path, shown in pages.items():
        host.goto(path)
        host.wait_for_selector(shown)
        host.evaluate("document.fonts.ready.then(() => true)")
        if SHOTS:
            host.screenshot(path=f"{SHOTS}/{path.strip('/').replace('/', '-') or 'home'}.png",
                            full_page=True)
        found = [f"cut off {c}" for c in cut_off(host)]
        found += [f"narrower than its word {c}" for c in narrower_than_a_word(host)]
        found += [f"word cut in two {w}" for w in words_cut_in_two(host, within="main")]
        found += [f"field cut off {f}" for f in fields_cut_off(host)]
        found += [f"scrolls inside its box {b}" for b in boxes_scrolled_sideways(host)]
        if not no_sideways_scroll(host):
            found.append("page wider than the phone: "
                         f"{host.evaluate('document.documentElement.scrollWidth')} px")
        if found:
            failures.append(f"{path}:\n    " + "\n    ".join(found))
    assert not failures, "\n".join(failures)


def test_every_way_a_play_is_won_fits_its_choice_in_both_languages(phone, host_phone):
    for locale in (None, "es-ES"):
        page = host_phone(locale)
        page.goto("/plays/new/")
        for value in page.locator("#log-win option").evaluate_all(
                "options => options.map(o => o.value)"):
            page.select_option("#log-win", value)
            assert not fields_cut_off(page), (locale, value, fields_cut_off(page))
