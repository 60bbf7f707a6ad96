"""The score pad on phones: four players over five rounds of a lowest-score game on two phones to
the final standings (a seat's own phone entering its own points once), a cooperative game of
five set up on the phone (its form measured) and lost, a game without points with two winners
named, the end of a game on two phones, and twelve players in teams."""

import os
import re

import pytest
from playwright.sync_api import expect

from companion.models import Session
from tests.e2e.conftest import guest_phone_for, no_sideways_scroll, screenshot, words_cut_in_two
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("PAD_SHOTS")
NAMES = ["Ana", "Ben", "Cy", "Di"]
ROUNDS = [[5, 3, 8, 2], [-2, 4, 6, 1], [7, 0, 3, 9], [2, 6, 1, 5], [3, 1, 4, 0]]


def shot(page, name):
    screenshot(SHOTS, page, name, whole=True)


def save_round(page, number, scores):
    """Fill the round form's inputs (None: a seat already entered) and save it."""
    form = page.locator("#pad-round")
    expect(form.locator("h3")).to_have_text(f"Round {number}")
    for seat, points in enumerate(scores):
        if points is not None:
            form.locator(f"#pad-score-{seat}").fill(str(points))
    form.get_by_role("button", name=f"Save round {number}").click()
    expect(page.locator(".htmx-request")).to_have_count(0)


def test_four_players_five_rounds_lowest_wins_on_two_phones(host_phone, phone, alice):
    session = session_for(alice, game="pad", players=NAMES,
                          options={"game": "Hearts", "win": "low", "rounds": 5})
    ana = host_phone()
    ana.goto(f"/s/{session.pk}/")
    ben = guest_phone_for(phone, session, "Ben")
    expect(ana.locator("#pad-game")).to_have_text("Hearts")

    for number, scores in enumerate(ROUNDS, start=1):
        if number == 3:
            # Ben enters his own points on his phone; Ana's form then shows them entered.
            own = ben.locator("[data-own]")
            expect(own).to_contain_text("round 3")
            own.get_by_label("Your points, Ben: round 3").fill(str(scores[1]))
            own.get_by_role("button", name="Save").click()
            expect(ben.locator(".htmx-request")).to_have_count(0)
            expect(ana.locator("#pad-waiting")).to_contain_text("Ana, Cy and Di")
            expect(ana.locator("#pad-round p.pad-done")).to_contain_text("0")
            save_round(ana, 3, [scores[0], None, scores[2], scores[3]])
        else:
            save_round(ana, number, scores)
        if number == len(ROUNDS):
            # The last round ends the game: the host is asked first.
            ana.get_by_role("button", name="Yes, go ahead").click()
        if number < len(ROUNDS):
            # No reload: the live push brings the new row to Ben's phone.
            expect(ben.locator("#pad-table tbody tr")).to_have_count(number)
        if number == 2:
            expect(ben.locator("#pad-leader")).to_have_text("Leading: Ana and Di")
            shot(ben, "pad-1-leader")
            assert no_sideways_scroll(ben)
    for page in (ana, ben):
        first = page.locator("#scoreboard tbody tr").first
        expect(first).to_contain_text("Ben")
        expect(first).to_contain_text("14")
        expect(first).to_contain_text("winner")
        expect(page.locator("#scoreboard tbody tr")).to_have_count(4)
        assert no_sideways_scroll(page)
    shot(ana, "pad-2-final")


def box_bottom(locator):
    box = locator.bounding_box()
    return box["y"] + box["height"]


def test_a_cooperative_game_of_five_set_up_and_lost(host_phone):
    """The set-up on a phone: the game's name on the first screen, the whole form within two,
    an empty name refused beside its field with the cursor in it, a fifth row added, and Enter
    in a field opening the game."""
    ana = host_phone()
    ana.goto("/new/?game=pad")
    form, name = ana.locator("#new-game"), ana.locator("#opt_game")
    rows = form.locator("input[name=name]")
    expect(rows).to_have_count(4)
    assert ana.evaluate("scrollY") == 0
    assert box_bottom(name) <= 740
    assert box_bottom(form) <= 1480, box_bottom(form)
    for row, player in enumerate(NAMES, start=1):
        ana.locator(f"#name{row}").fill(player)
    form.get_by_role("button", name="Open the game").click()

    refusal = ana.locator("#opt_game_error")
    expect(refusal).to_contain_text("Name the game you play")
    expect(name).to_be_focused()
    field, said = name.bounding_box(), refusal.bounding_box()
    assert 0 <= said["y"] - (field["y"] + field["height"]) <= 16  # right below the field
    assert said["y"] + said["height"] <= 740
    expect(ana.locator("#name4")).to_have_value("Di")

    form.get_by_role("button", name="Another player").click()
    expect(rows).to_have_count(5)
    expect(ana.locator("#name5")).to_be_focused()
    expect(refusal).to_have_count(0)  # asking for a row is not a refusal
    expect(ana.locator("#name4")).to_have_value("Di")
    ana.locator("#name5").fill("Eve")
    # A colour per player, one swatch beside each name: Ben's black, the others' as they were.
    ana.locator("#name2 ~ .colour-pick > summary").click()
    ana.locator("#name2 ~ .colour-pick").get_by_role("radio", name="Black").check()
    name.fill("Pandemic")
    form.get_by_label("Cooperative: all win or all lose together").check()
    form.get_by_label("Your seat").select_option(label="I only keep the table")
    name.press("Enter")  # opens the game: "Another player" is not the form's first button
    expect(ana.locator("#pad-game")).to_have_text("Pandemic")
    expect(ana.locator("#scoreboard tbody tr")).to_have_count(5)
    assert Session.objects.get().options["win"] == "coop"
    assert list(Session.objects.get().seats.values_list("colour", flat=True)) == [
        "#e69f00", "#000000", "#009e73", "#f0e442", "#0072b2"]

    save_round(ana, 1, [2, 3, 1, 4, 0])
    ana.get_by_role("button", name="The table lost").click()
    ana.get_by_role("button", name="Yes, go ahead").click()
    expect(ana.locator("#log")).to_contain_text("The end: the table loses")
    expect(ana.locator("#scoreboard")).not_to_contain_text("winner")


def test_a_game_without_points_with_two_winners(host_phone, alice):
    session = session_for(alice, game="pad", players=NAMES,
                          options={"game": "Codenames", "win": "none"})
    ana = host_phone()
    ana.goto(f"/s/{session.pk}/")
    expect(ana.locator("#pad-round")).to_have_count(0)
    form = ana.locator("#pad-winners")
    form.get_by_label("Ana").check()
    form.get_by_label("Cy").check()
    form.get_by_role("button", name="Name the winners").click()
    ana.get_by_role("button", name="Yes, go ahead").click()
    expect(ana.locator("#log")).to_contain_text("Ana and Cy win Codenames")
    winners = ana.locator("#scoreboard tbody tr", has_text="winner")
    expect(winners).to_have_count(2)
    expect(winners.first).to_contain_text("Ana")
    expect(winners.last).to_contain_text("Cy")


def test_the_end_takes_what_only_serves_a_game_in_play_off_every_phone(host_phone, phone, alice):
    """When the host ends the game, the invite and the host's seat and language go from the
    host's phone, and the join link from a guest's, without a reload: a new page leaves them out
    of a finished game."""
    session = session_for(alice, game="pad", players=NAMES[:3],
                          options={"game": "Hearts", "win": "high"})
    ana = host_phone()
    ana.goto(f"/s/{session.pk}/")
    ben = guest_phone_for(phone, session, "Ben")
    ben.wait_for_selector("#table[data-stream=open]", state="attached")
    expect(ana.locator("#invite")).to_be_visible()
    for page in (ana, ben):
        expect(page.locator("#table-settings")).to_be_visible()
    save_round(ana, 1, [5, 3, 8])
    ana.get_by_role("button", name="End the game now").click()
    ana.get_by_role("button", name="Yes, go ahead").click()
    for page in (ana, ben):
        expect(page.locator("#game-over")).to_be_visible()
        expect(page.locator("#table-settings")).to_be_hidden()
    expect(ana.locator("#invite")).to_be_hidden()


TWELVE = ["Ana", "Ben", "Íñigo", "Dolores", "Maximiliano", "Leo", "Marta", "Guadalupe", "Sol",
          "Tomás", "Wenceslao", "Zoe"]


def test_twelve_players_in_teams_keep_their_names_whole(host_phone, alice):
    """On a 360 px phone the pad's columns are as wide as their longest word: no name, and no
    "team", is cut in two; the table scrolls inside its box, and the page does not."""
    session = session_for(alice, game="pad", players=TWELVE, options={
        "game": "Tute", "win": "high", "teams": [list(range(0, 12, 2)), list(range(1, 12, 2))]})
    ana = host_phone()
    ana.goto(f"/s/{session.pk}/")
    expect(ana.locator("#pad-head th[data-seat]")).to_have_count(12)
    expect(ana.locator("#pad-head")).to_contain_text("team 2")
    assert words_cut_in_two(ana, within="#pad-head") == []
    box = ana.locator(".pad-scroll")
    assert box.evaluate("box => box.scrollWidth > box.clientWidth")
    assert no_sideways_scroll(ana)
    shot(ana, "pad-3-twelve")


def test_a_round_refused_because_a_phone_saved_its_own_comes_back_with_each_seat_s_points(
        host_phone, alice):
    """The host fills the round for every seat; Ben saves his own from his phone meanwhile. The
    round is refused (Ben's is in), and comes back with what the host typed for each other seat,
    in that seat's field: the fields share a name, and the one Ben's was is drawn as entered."""
    from companion import services

    session = session_for(alice, game="pad", players=("Ana", "Ben", "Cy"),
                          options={"game": "Carcassonne"})
    ana = host_phone()
    ana.goto(f"/s/{session.pk}/")
    ana.wait_for_selector("#table[data-stream=open]", state="attached")
    form = ana.locator("#pad-round")
    for seat, points in enumerate((14, 20, 7)):
        form.locator(f"#pad-score-{seat}").fill(str(points))
    session.refresh_from_db()
    services.move_play(session=session, type="score", data={"seat": 1, "points": 21},
                       actor=services.Actor(user=alice))
    form.get_by_role("button", name="Save round 1").click()
    expect(form).to_contain_text("Ben scored round 1 already")
    expect(form.locator("#pad-score-0")).to_have_value("14")
    expect(form.locator("#pad-score-1")).to_contain_text("21")
    expect(form.locator("#pad-score-2")).to_have_value("7")
    form.get_by_role("button", name="Save round 1").click()
    expect(ana.locator("#log")).to_contain_text("Ana +14")
    assert [row["scores"] for row in Session.objects.get(pk=session.pk).state["seats"]] \
        == [[14], [21], [7]]


def test_counting_on_with_steppers_and_a_typed_sum(host_phone, alice):
    """Steppers of -5, -1, +1, +5 beside each points field, and a sum typed as on paper
    (issue 52, point 8)."""
    session = session_for(alice, game="pad", players=["Ana", "Ben"],
                          options={"game": "Hearts", "win": "high"})
    page = host_phone()
    page.goto(f"/s/{session.pk}/")
    form = page.locator("#pad-round")
    ana = form.locator(".pad-input").filter(has=page.locator("#pad-score-0"))
    for step in ("+5", "+5", "+1", "−1", "+1"):
        ana.get_by_role("button", name=step, exact=True).click()
    expect(form.locator("#pad-score-0")).to_have_value("11")
    form.locator("#pad-score-1").fill("12+7")
    form.locator(".pad-input").filter(has=page.locator("#pad-score-1")) \
        .get_by_role("button", name="+1", exact=True).click()
    expect(form.locator("#pad-score-1")).to_have_value("20")
    form.locator("#pad-score-1").fill("12+7")
    form.get_by_role("button", name="Save round 1").click()
    expect(page.locator("#pad-table tfoot .pad-totals")).to_contain_text("11")
    expect(page.locator("#pad-table tfoot .pad-totals")).to_contain_text("19")
    assert no_sideways_scroll(page)


def test_a_half_entered_round_keeps_places_and_points_in_step(host_phone, alice):
    """Issue 52, point 11: the scoreboard's number beside each name is the one its place is
    decided by; the round in play is in the pad's totals, and the caption says so."""
    session = session_for(alice, game="pad", players=["Ana", "Bea", "Dani", "Eva"],
                          options={"game": "Hearts", "win": "high"})
    page = host_phone()
    page.goto(f"/s/{session.pk}/")
    save_round(page, 1, [10, 20, 8, 15])
    save_round(page, 2, [2, 10, 10, 10])
    save_round(page, 3, [20, 8, None, 6])
    board = page.locator("#scoreboard tbody tr")
    expect(board).to_have_text([re.compile(rf"^{rank}\s*{name}\D*{points}$") for rank, name, points
                                in ((1, "Bea", 30), (2, "Eva", 25), (3, "Dani", 18),
                                    (4, "Ana", 12))])
    expect(page.locator("#scoreboard caption")).to_contain_text(
        "count the 2 rounds every seat has finished")
    expect(page.locator("#pad-table .pad-totals")).to_contain_text("38")
