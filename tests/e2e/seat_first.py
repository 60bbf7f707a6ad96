"""What the seat-first table promises every phone, measured in the browser with bounding boxes:
the first screen holds the scoreboard, the "now" line and the top of the phone's own controls;
after a move its result is in view; a double tap records one move."""

from playwright.sync_api import expect

from companion.models import Move
from tests.e2e.conftest import WAIT


def top_of(page, selector):
    """The element's top edge in the viewport's coordinates (None when it is not there)."""
    box = page.locator(selector).first.bounding_box()
    return None if box is None else box["y"]


def on_first_screen(page, *selectors):
    """Whether, before any scrolling, each selector's top edge is inside the first screen. The
    page is taken to the top and measured once it stays there (a game's script may still be
    bringing the result of a move into view) and every element measured was still in the page
    (a push or the phone's controls fetched again may replace one between finding and measuring
    it: its box is then None)."""
    height = page.viewport_size["height"]
    missing = []
    for _attempt in range(20):
        page.evaluate("""() => new Promise((done) => {
            window.scrollTo(0, 0);
            requestAnimationFrame(() => requestAnimationFrame(done));
        })""")
        missing = []
        for selector in selectors:
            top = top_of(page, selector)
            if top is None or not 0 <= top < height:
                missing.append((selector, top))
        replaced = any(top is None and page.locator(selector).count() for selector, top in missing)
        if page.evaluate("window.scrollY") == 0 and not replaced:
            break
    assert not missing, f"below the first screen of {height} px: {missing}"


# Whether the element starts at the top of the screen as the page itself placed it: its top edge
# under the "now" line (sticky once the page is scrolled) and in the screen's upper half, so that
# the rest of the first screen is the element's.
STARTS_THE_SCREEN = """(selector) => {
  const element = document.querySelector(selector);
  if (!element) return false;
  const top = element.getBoundingClientRect().top;
  const now = document.getElementById("now").getBoundingClientRect().bottom;
  return top >= Math.max(now, 0) - 1 && top < window.innerHeight / 2;
}"""


def starts_the_screen(page, selector):
    """Wait until the page, by itself (the test does not scroll), shows `selector` at the top of
    its screen (STARTS_THE_SCREEN); its bounding box then."""
    page.wait_for_function(STARTS_THE_SCREEN, arg=selector)
    return page.locator(selector).bounding_box()


def answered(page):
    """No move of this phone's is on its way: its own answer, with this phone's fresh controls,
    has been swapped in (a form chosen before that would be redrawn under the finger)."""
    expect(page.locator("#panel [aria-busy], #panel .htmx-request")).to_have_count(0)


def in_view(page, selector):
    """The element is (at least partly) inside the viewport, once the page has settled (the
    stream's push or the controls fetched again may still move things just after an answer)."""
    expect(page.locator(selector).first).to_be_in_viewport(timeout=WAIT)


# Whether this phone's own controls are drawn for what the pushed live part asks (table.js
# fetches them again while the two differ; a form filled before that lands is redrawn).
CONTROLS_DRAWN = """() => {
  const wanted = document.querySelector("#panel_live [data-controls]");
  let drawn = null;
  document.querySelectorAll("#panel [data-controls]").forEach((element) => {
    if (!drawn && !element.closest("#panel_live")) drawn = element;
  });
  return !wanted || !drawn || wanted.dataset.controls === drawn.dataset.controls;
}"""


def settled(page, session):
    """Wait until the page shows the session's current version (its own answer or a push), no
    answer of its own still on its way (the push often comes first; the answer then swaps the
    panel, closing what was opened meanwhile), and its own controls drawn for it."""
    session.refresh_from_db()
    page.wait_for_selector(f'#table[data-version="{session.version}"]', state="attached")
    answered(page)
    page.wait_for_function(CONTROLS_DRAWN)


def double_tap_records_one(page, session, button):
    """Tap `button` twice in quick succession; exactly one move is recorded."""
    before = Move.objects.filter(session=session).count()
    button.dblclick()
    expect(page.locator("#table")).not_to_have_attribute("data-version",
                                                         str(session.version), timeout=WAIT)
    settled(page, session)
    after = Move.objects.filter(session=session).count()
    assert after == before + 1, f"{after - before} moves recorded for one double tap"


def tap_twice(page, session, button, shows="#now"):
    """A double tap on `button` records one move, and the move's result (`shows`) is in view
    once its answer is in."""
    # The page first shows the session's current version (a join or another phone's move may
    # have moved it on), so that the double tap is measured against the right one.
    settled(page, session)
    expect(button).to_be_enabled()
    double_tap_records_one(page, session, button)
    # The version can arrive by the stream before the move's own answer is swapped in.
    expect(page.locator(".htmx-request")).to_have_count(0)
    in_view(page, shows)
