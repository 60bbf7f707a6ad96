"""The seat-first table, for every installed game, on 360 x 740 phones: a phone that opens the
join link sees its own controls after at most two taps; Rematch from a finished game asks who
starts again (where the game has a first player) and takes all three phones to the new table,
each at its own seat, with the draw of who starts in its log."""

import pytest
from playwright.sync_api import expect

import games
from companion import engine, plugins, services
from companion.access import guest_cookie_name
from companion.models import Session
from tests.e2e.conftest import no_sideways_scroll
from tests.factories import first_sample_options, play_to_the_end, session_for

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


def box(locator):
    found = locator.bounding_box()
    assert found is not None, locator
    return found


def drawn_name(session):
    rules = plugins.rules_of(session.game)
    return NAMES[engine.first_seat(rules, session.options, len(NAMES), session.seed)]


def test_who_starts_at_set_up_is_drawn_and_told_in_the_log(host_phone, alice):
    host = host_phone()
    host.goto("/new/?game=rabbits")
    for number, name in enumerate(NAMES, start=1):
        host.get_by_label(f"Player {number}", exact=True).fill(name)
    who = host.get_by_label("Who starts?")
    expect(who).to_have_value("0")  # the rules' default: the first seat
    # A whole-width 48 px field on the phone's screen, beside the other set-up fields.
    shown, seat = box(who), box(host.get_by_label("Your seat"))
    assert shown["height"] >= 48 and shown["x"] + shown["width"] <= 360
    assert (shown["x"], shown["width"]) == (seat["x"], seat["width"])
    who.select_option(label="A draw: the app picks, and the log tells who")
    host.get_by_role("button", name="Open the game").click()
    session = Session.objects.get(owner=alice)
    host.wait_for_url(f"**/s/{session.pk}/")
    name = drawn_name(session)
    # A logged pick: the log's line before move 1 (seq 0, the set-up's), and its seat rolls first.
    line = host.locator("#log li").last
    expect(line).to_have_text(f"0. The draw: {name} starts")
    expect(host.locator("#now")).to_contain_text(f"{name}'s turn")
    told = box(line)
    assert told["x"] + told["width"] <= 360 and told["height"] < 60  # one line on the phone
    assert no_sideways_scroll(host)


@pytest.mark.parametrize("slug", GAMES)
def test_rematch_takes_all_three_phones_to_the_new_table(slug, phone, host_phone, alice,
                                                         live_server):
    rules = plugins.rules_of(slug)
    # Who starts, where the game has a first player: drawn, and asked again at the rematch.
    draw = {rules.first: engine.DRAW} if rules.first else {}
    session = None
    for seed in range(12):
        session = session_for(alice, game=slug, players=NAMES, seed=f"rematch{seed}",
                              options={**first_sample_options(slug), **draw})
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
        expect(page.locator("#game-over").get_by_label("Who starts?")).to_be_hidden()
    host = host_phone()
    host.goto(f"/s/{session.pk}/")
    card = host.locator("#game-over")
    rematch = card.get_by_role("button", name="Rematch")
    if rules.first:
        # Asked again, as the game before chose: the question and the button each a line of the
        # card at 48 px or more, on the host's first screen (no scrolling to start again).
        who = card.get_by_label("Who starts?")
        expect(who).to_have_value(engine.DRAW)
        asked, button, held = box(who), box(rematch), box(card)
        assert asked["height"] >= 48 and button["height"] >= 48
        assert asked["width"] == button["width"] and asked["y"] + asked["height"] <= button["y"]
        assert held["x"] <= asked["x"] and asked["x"] + asked["width"] <= held["x"] + held["width"]
        assert button["y"] + button["height"] <= host.viewport_size["height"]
    else:
        expect(card.get_by_label("Who starts?")).to_have_count(0)
    assert no_sideways_scroll(host)
    rematch.click()
    new = Session.objects.get(rematch_of=session)
    for page in (host, ben, cy):
        page.wait_for_url(f"**/s/{new.pk}/")
        expect(page.locator("#scoreboard")).to_be_visible()
        if rules.first:  # drawn again, from the rematch's own seed, and told on every phone
            expect(page.locator("#log-setup")).to_have_text(
                f"0. The draw: {drawn_name(new)} starts")
    assert ben.locator("#table").get_attribute("data-viewer") == "1"
    assert cy.locator("#table").get_attribute("data-viewer") == "2"
    assert list(new.seats.values_list("name", flat=True)) == list(NAMES)
    assert new.options.get(rules.first) == draw.get(rules.first)
