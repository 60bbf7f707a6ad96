"""Every page through axe-core (a pinned copy in tests/e2e/vendor/, used by the tests only), light,
and dark for the rules the colours decide: no critical or serious violation. On the table pages
every button, link and input is at least 44 x 44 px on a 360 px phone, and no text on a phone is
under 14 px nor has a word cut in two. Every page fits the 360 px phone (no sideways scrolling)
and loads nothing from another host. Each page is loaded once for all of these."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

import games
from companion import plugins, services
from tests.e2e.conftest import guest_phone_for, no_sideways_scroll, words_cut_in_two
from tests.factories import finished_session, session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = (Path(__file__).parent / "vendor" / "axe-4.10.3.min.js").read_text()
NAMES = ["Vanessa", "Peter", "Íñigo", "Ana", "Leo", "Marta"]
GAMES = [plugins.rules_of(app.rpartition(".")[2]) for app in games.INSTALLED_APPS]

# axe's verdicts that fail the test; "moderate" and "minor" are advice.
BLOCKING = ("critical", "serious")


def players_for(game):
    return NAMES[:max(game.min_players, min(3, game.max_players))]


# The rules whose verdict depends on the colours: all a theme changes (it is CSS alone).
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def violations(page, *, colours_only=False):
    """axe's critical and serious violations on the page as it stands, as readable lines; with
    `colours_only`, of the rules the colours decide. axe is evaluated through the DevTools
    protocol, which the page's CSP does not govern (once per page: a second run on the same page
    finds it there)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE)
    found = page.evaluate("""async (rules) => {
        const options = {resultTypes: ["violations"]};
        if (rules) options.runOnly = {type: "rule", values: rules};
        const result = await axe.run(document, options);
        return result.violations.map(v => ({id: v.id, impact: v.impact,
            nodes: v.nodes.map(n => n.target.join(" ") + (n.failureSummary ? " | "
                + n.failureSummary.split("\\n").slice(1, 2).join("") : ""))}));
    }""", COLOUR_RULES if colours_only else None)
    return [f"{v['id']} ({v['impact']}, {len(v['nodes'])}): {'; '.join(v['nodes'][:3])}"
            for v in found if v["impact"] in BLOCKING]


def small_targets(page):
    """Buttons, links and inputs in view-able layout smaller than 44 x 44 px (hidden ones and
    links inside a sentence excepted, as WCAG 2.5.8 allows: a link is in a sentence when the
    block around it has words of its own)."""
    return page.evaluate("""() => {
        const inSentence = el => {
            const block = el.parentElement.closest("p, li, td, dd, dt, caption, h1, h2, h3");
            return block && block.textContent.replace(/\\s+/g, "").length
                > el.textContent.replace(/\\s+/g, "").length;
        };
        return [...document.querySelectorAll(
            "main button, main a[href], main input:not([type=hidden]), main select, main summary, "
            + "main textarea, header a, header button")]
        .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
        .filter(el => !(el.tagName === "A" && !el.matches(".button") && inSentence(el)))
        .map(el => {
            // A checkbox or radio counts with its label, which is what a finger taps.
            const target = el.matches("input[type=checkbox], input[type=radio]")
                && el.closest("label") || el;
            const box = target.getBoundingClientRect();
            return {what: el.outerHTML.slice(0, 90), w: Math.round(box.width),
                    h: Math.round(box.height)};
        })
        .filter(t => t.w < 44 || t.h < 44)
        .map(t => `${t.w}x${t.h} ${t.what}`);
    }""")


def small_text(page):
    """Text drawn under 14 px on the page: the element's computed size, or an SVG text's size
    as drawn (its font size scaled by the chart's width on the screen)."""
    return page.evaluate("""() => {
        const small = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
            const node = walker.currentNode;
            const el = node.parentElement;
            if (!node.textContent.trim() || !el || !el.getClientRects().length) continue;
            if (el.closest(".sr-only, [hidden], script, style, title")) continue;
            let size = parseFloat(getComputedStyle(el).fontSize);
            const svg = el.closest("svg");
            if (svg && svg.viewBox.baseVal && svg.viewBox.baseVal.width) {
                size *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
            }
            if (size < 13.95) small.push(`${size.toFixed(1)}px ${el.tagName}: `
                                         + node.textContent.trim().slice(0, 40));
        }
        return [...new Set(small)].slice(0, 12);
    }""")


ACCOUNT = "account"  # the pages of no game: the host's own and the signed-out ones


def played(game, alice):
    """One table of `game` in play and one finished game, so that lists have rows."""
    players = players_for(game)
    return (session_for(alice, game=game.slug, players=players),
            finished_session(alice, game=game.slug, players=players))


def pages_of(part, alice):
    """The paths of one part of the app: for a game, the host's pages of one table in play and
    one finished game, and that table; for ACCOUNT, the host's pages of no game (with a table
    and a finished game of every game in them) and the signed-out ones. Parts, so that the pass
    is spread over the suite's workers."""
    if part == ACCOUNT:
        for game in GAMES:
            played(game, alice)
        group = services.group_create(owner=alice, name="Thursday night")
        # The pages every game draws alike, once: a code's seats, a player's page.
        session, done = played(plugins.rules_of("pad"), alice)
        return {"host": ["/", "/new/", "/join/", "/players/", "/history/", "/plays/new/",
                         "/bgstats/import/", "/me/", "/groups/", f"/groups/{group.pk}/",
                         f"/groups/join/{group.code}/", f"/join/{session.code}/",
                         f"/history/players/{done.seats.first().player_id}/"],
                # The last: a page address that finds nothing (404.html).
                "signed_out": ["/", "/login/", "/signup/", "/join/", "/no/such/page/"],
                "tables": {}}
    session, done = played(plugins.rules_of(part), alice)
    # A game's own pages: its set-up, its table in play and finished, its board, a finished
    # play's history (its replay and chart), its statistics.
    host = [f"/new/?game={part}", f"/s/{session.pk}/", f"/board/{session.board_key}/",
            f"/s/{done.pk}/", f"/history/sessions/{done.pk}/", f"/history/games/{part}/"]
    return {"host": host, "signed_out": [], "tables": {part: session}}


def squeezed_choices(page):
    """Radio buttons and checkboxes drawn narrower than they are tall: squeezed by a long label
    beside them (a visually hidden one, whose label is drawn as the button, aside)."""
    return page.evaluate("""() => [...document.querySelectorAll(
            "main input[type=radio], main input[type=checkbox]")]
        .filter(el => el.getClientRects().length)
        .map(el => [el, el.getBoundingClientRect()])
        .filter(([el, box]) => box.width > 2 && box.height - box.width > 1)
        .map(([el, box]) => `${Math.round(box.width)}x${Math.round(box.height)} `
             + (el.closest("label") || el).textContent.trim().slice(0, 40))""")


def cut_off(page):
    """Labels, buttons, the heads of tables and grids and the figures of a page (a game's
    lengths) whose words do not fit their box (cut off or spilling over the next)."""
    return page.evaluate("""() => [...document.querySelectorAll(
            "main label, main button, main .button, main th, main [role=rowheader], main dd")]
        .filter(el => el.getClientRects().length && el.clientWidth > 1)  // not the sr-only
        .filter(el => el.scrollWidth > el.clientWidth + 1)
        .map(el => `${el.clientWidth}<${el.scrollWidth} ${el.textContent.trim().slice(0, 40)}`)""")


def open_every_fold(page):
    """Open every <details>, so that what a phone unfolds is checked too."""
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")


def live_regions_that_hold_the_board(page):
    """Live regions (aria-live, or a role that is one) that hold the scoreboard, the log or a
    game's panel: a screen reader would read all of it again on every move."""
    return page.evaluate("""() => [...document.querySelectorAll(
            "[aria-live]:not([aria-live=off]), [role=log], [role=status], [role=alert]")]
        .filter(region => region.querySelector("#scoreboard, #log, #panel, table, ol, ul"))
        .map(region => region.outerHTML.slice(0, 80))""")


THEMES = ("light", "dark")


def check_every_page(host_phone, phone, pages, origin):
    """Each page is loaded once: axe runs on it in the light theme, then in the dark one for the
    rules the colours decide (the theme is CSS alone, so the phone's scheme switched under a
    loaded page draws what a page loaded in it draws), and the layout's checks once (sizes and
    fits are the same in both)."""
    failures = []

    def audit(page, path, *, table=False):
        if table:
            open_every_fold(page)
        found = []
        for theme in THEMES:
            page.emulate_media(color_scheme=theme)
            found += [f"[{theme}] {v}" for v in violations(page, colours_only=theme != "light")]
        found += [f"cut off {c}" for c in cut_off(page)]
        found += [f"word cut in two {w}" for w in words_cut_in_two(page)]
        found += [f"squeezed {c}" for c in squeezed_choices(page)]
        found += [f"target {t}" for t in small_targets(page)]
        if table:
            found += [f"live region {r}" for r in live_regions_that_hold_the_board(page)]
        found += [f"text {t}" for t in small_text(page)]
        if not no_sideways_scroll(page):
            found.append("wider than the phone: it scrolls sideways")
        if found:
            failures.append(f"{path}:\n    " + "\n    ".join(found))

    host = host_phone()
    for path in pages["host"]:
        response = host.goto(path)
        assert response.status == 200, path
        audit(host, path, table=path.startswith(("/s/", "/board/")))

    def foreign_requests(page):
        return [f"loaded from another host: {url}" for url in page.context.requests
                if not url.startswith((origin, "data:"))]

    for slug, session in pages["tables"].items():
        seat = session.seats.order_by("index").last().player.name
        guest = guest_phone_for(phone, session, seat)
        audit(guest, f"/s/{session.pk}/ ({slug}, guest at {seat})", table=True)
        failures += foreign_requests(guest)
        guest.context.close()

    failures += foreign_requests(host)
    if pages["signed_out"]:  # a phone of its own, opened only for the part that has them
        anonymous = phone()
        for path in pages["signed_out"]:
            anonymous.goto(path)
            audit(anonymous, f"{path} (signed out)")
        failures += foreign_requests(anonymous)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("part", [ACCOUNT, *(game.slug for game in GAMES)])
def test_every_page_in_both_themes_on_a_phone(part, host_phone, phone, alice, live_server):
    check_every_page(host_phone, phone, pages_of(part, alice), live_server.url)


def test_the_theme_switch_is_remembered(phone):
    page = phone()
    page.emulate_media(color_scheme="light")
    page.goto("/login/")
    background = "getComputedStyle(document.documentElement).backgroundColor"
    light = page.evaluate(background)
    switch = page.get_by_role("button", name="Dark theme")
    assert switch.get_attribute("aria-pressed") == "false"
    switch.click()
    assert page.locator("html").get_attribute("data-theme") == "dark"
    assert switch.get_attribute("aria-pressed") == "true"
    dark = page.evaluate(background)
    assert dark != light
    page.goto("/signup/")
    # Set by a script in the head before the first paint, so the page never flashes light.
    assert page.locator("html").get_attribute("data-theme") == "dark"
    assert page.evaluate(background) == dark
    page.get_by_role("button", name="Dark theme").click()
    assert page.evaluate(background) == light
    page.reload()
    assert page.evaluate(background) == light


def test_the_dark_scheme_is_followed_without_a_switch(phone):
    page = phone()
    page.emulate_media(color_scheme="dark")
    page.goto("/login/")
    dark = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    page.emulate_media(color_scheme="light")
    assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") != dark


def test_a_move_is_announced_once_by_the_now_line(host_phone, phone, alice):
    """A screen reader hears the move (the polite live region "now" gets its summary) and not
    the whole table again: the scoreboard, the log and the panel are in no live region."""
    game = session_for(alice)
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    guest = guest_phone_for(phone, game, "Peter")
    guest.wait_for_selector("#table[data-stream=open]", state="attached")
    now = guest.locator("#now")
    assert now.get_attribute("aria-live") == "polite"
    host.locator("#move-payload").fill('{"seat": 0, "points": 6}')
    host.get_by_role("button", name="Play").click()
    expect(guest.locator("#log")).to_contain_text("Vanessa +6")
    expect(now).to_contain_text("Last move: Vanessa +6")
    # A log line's number is read apart from its words ("1. Vanessa +6", not "1Vanessa +6").
    expect(guest.locator("#log li").first).to_have_text("1. Vanessa +6")
    assert live_regions_that_hold_the_board(guest) == []
    assert live_regions_that_hold_the_board(host) == []


def test_an_undo_is_said_on_every_phone_and_not_again_on_the_next_push(host_phone, phone,
                                                                        alice):
    """"X undid: …" is new to a screen reader on the phone that undid (its answer) and on the
    others (a push): #announce says it, once; a notice that arrives filled is not read."""
    game = session_for(alice)
    host = host_phone()
    host.goto(f"/s/{game.pk}/")
    guest = guest_phone_for(phone, game, "Peter")
    guest.wait_for_selector("#table[data-stream=open]", state="attached")
    host.locator("#move-payload").fill('{"seat": 0, "points": 6}')
    host.get_by_role("button", name="Play").click()
    expect(guest.locator("#log")).to_contain_text("Vanessa +6")
    host.get_by_role("button", name="Undo: Vanessa +6").click()
    for page in (host, guest):
        expect(page.locator("#announce")).to_contain_text("undid: Vanessa +6")
    # The next move is said by the now line (a push) or by #announce (the phone's own answer,
    # when it comes first); the undo's news is not said again on either phone.
    guest.evaluate("document.getElementById('announce').textContent = ''")
    guest.locator("#move-payload").fill('{"seat": 1, "points": 2}')
    guest.get_by_role("button", name="Play").click()
    expect(host.locator("#now")).to_contain_text("Peter +2")
    expect(host.locator("#announce")).to_have_text("The host undid: Vanessa +6")
    guest.wait_for_selector('#table[data-version="3"]', state="attached")
    expect(guest.locator("#now")).to_contain_text("Peter +2")
    expect(guest.locator("#announce")).not_to_contain_text("undid")


def test_the_phone_that_undid_is_told_so_when_the_push_comes_first(host_phone, phone, alice):
    """The push of the undo reached the phone before its answer: the now line said the version,
    the undo section waited for the answer, and the answer said nothing; again after a Redo,
    the same words were taken for old news."""
    from tests.e2e.conftest import sent_and_held

    game = session_for(alice)
    peter = guest_phone_for(phone, game, "Peter")
    peter.wait_for_selector("#table[data-stream=open]", state="attached")
    peter.locator("#move-payload").fill('{"seat": 1, "points": 3}')
    peter.get_by_role("button", name="Play").click()
    expect(peter.locator("#log")).to_contain_text("Peter +3")
    for round_ in range(2):
        undo = sent_and_held(peter, f"/s/{game.pk}/undo/", lambda: peter.locator("#undo")
                             .get_by_role("button", name="Undo: Peter +3").click())
        version = 2 if round_ == 0 else 4
        peter.wait_for_selector(f'#table[data-version="{version}"]', state="attached")
        undo.release()
        expect(peter.locator("#announce")).to_have_text("Peter undid: Peter +3")
        if round_ == 0:  # Redo, and the same move is undone again
            peter.locator("#undo").get_by_role("button", name="Redo").click()
            peter.wait_for_selector('#table[data-version="3"]', state="attached")
            expect(peter.locator("#undo")).not_to_contain_text("undid")
            # (Said anew, or not at all: the region is emptied to tell the two apart.)
            peter.evaluate("document.getElementById('announce').textContent = ''")


def test_history_says_a_step_or_a_filter_in_one_line(host_phone, alice):
    """Stepping through a finished game, a screen reader hears the step's one line (a polite
    live region outside the swapped part), not the standings table again; filtering, the count."""
    done = finished_session(alice, game="quixote")
    page = host_phone()
    page.goto(f"/history/sessions/{done.pk}/")
    said = page.locator("#step-said")
    assert said.get_attribute("aria-live") == "polite"
    assert page.locator("#step").get_attribute("aria-live") is None
    page.locator("#step").get_by_role("link", name="Previous move").click()
    expect(said).to_contain_text("After move")
    assert said.locator("table").count() == 0

    # Filtering the history says how many games are left, not every game.
    page.goto("/history/")
    counted = page.locator("#results-said")
    assert counted.get_attribute("aria-live") == "polite"
    assert page.locator("#results").get_attribute("aria-live") is None
    page.get_by_label("Game").select_option("quixote")
    expect(counted).to_have_text("1 game")
