"""What shows which seats phones hold follows as phones take them: the host's invite bar and
"Free its seat", and the board's join code. A seat taken is no new version, so no move's push
brings them; the stream tells the host's page and the board, which draw them anew."""

import pytest
from playwright.sync_api import expect

from companion import services
from tests.e2e.conftest import guest_phone_for
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_host_and_the_board_see_each_phone_take_its_seat(phone, host_phone, alice):
    session = session_for(alice, players=("Ana", "Ben", "Cy"))
    host = host_phone()
    host.goto(f"/s/{session.pk}/")
    board = phone()
    board.goto(f"/board/{session.board_key}/")
    for page in (host, board):
        page.wait_for_selector("#table[data-stream=open]", state="attached")
    expect(host.locator("#invite")).to_contain_text("3 seats are free")
    expect(host.locator("#seat-free")).to_have_count(0)

    guest_phone_for(phone, session, "Ben")
    host.wait_for_selector("#table[data-seats='1']", state="attached")
    expect(host.locator("#invite")).to_contain_text("2 seats are free")
    expect(host.locator("#seat-free-choice option")).to_have_text(["Ben"])
    expect(board.locator("#invite")).to_be_visible()

    for seat in (0, 2):  # the last two phones: no seat is left free
        services.guest_join(code=session.code, seat=seat)
    expect(host.locator("#invite")).to_have_count(0)
    expect(host.locator("#seat-free-choice option")).to_have_text(["Ana", "Ben", "Cy"])
    expect(board.locator("#invite")).to_have_count(0)
    session.refresh_from_db()
    assert session.version == 0


def test_a_phone_whose_seat_the_host_frees_is_asked_for_a_seat_again(phone, host_phone, alice):
    """Its controls were its seat's: it is drawn again without them, with the seat choice."""
    session = session_for(alice, players=("Ana", "Ben"))
    ben = guest_phone_for(phone, session, "Ben")
    ben.wait_for_selector("#table[data-stream=open]", state="attached")
    assert ben.locator("#table").get_attribute("data-viewer") == "1"
    host = host_phone()
    host.goto(f"/s/{session.pk}/")
    host.locator("#table-settings > summary").click()  # folded, at the page's foot
    host.locator("#seat-free-choice").select_option(label="Ben")
    host.get_by_role("button", name="Free the seat").click()
    expect(ben.locator("#seat-choice")).to_be_visible()
    assert ben.locator("#table").get_attribute("data-viewer") is None
    # Taking it again from there: his seat's controls are back.
    ben.locator("#seat-choice").get_by_role("button", name="Ben").click()
    expect(ben.locator("#table")).to_have_attribute("data-viewer", "1")


@pytest.mark.service_worker
def test_a_phone_that_moves_to_its_seat_comes_back_to_the_top_of_the_table(phone, alice):
    # The form is at the page's foot; the answer's #table brings the page back to the table's
    # top (below the sticky header), where the phone's own controls are, whether the page comes
    # from the network or through the service worker.
    session = session_for(alice, game="pad", players=("Ana", "Ben", "Cy", "Dee"),
                          options={"game": "Hearts"})
    cy = guest_phone_for(phone, session, "Ben")
    cy.wait_for_selector("html[data-worker=ready]", state="attached")
    cy.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    cy.locator("#table-settings > summary").click()
    cy.locator("#seat-move-choice").select_option(label="Cy")
    cy.get_by_role("button", name="Change seat").click()
    own = cy.locator("#pad-own")
    expect(own).to_contain_text("Your points, Cy: round 1")
    expect(own).to_be_in_viewport()
    assert 0 <= cy.evaluate("document.getElementById('table').getBoundingClientRect().top") < 100
