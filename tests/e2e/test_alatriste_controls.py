"""El Capitán Alatriste: a phone's own controls follow what other phones do. A card another phone
puts on its board is offered at once in this phone's duel ("The winner takes") without a move of
its own: the pushed part names what the controls must be drawn for, and table.js fetches them
again (the other games do the same)."""

import pytest
from playwright.sync_api import expect

from companion import services
from tests.e2e.conftest import guest_phone_for
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def set_up(alice):
    """Ana's and Bea's table, both set up by the host: (the session, the host as actor)."""
    session = session_for(alice, game="alatriste", players=("Ana", "Bea"))
    host = services.Actor(user=alice)
    for seat in (0, 1):
        session.refresh_from_db()
        services.move_play(session=session, type="setup",
                           data={"seat": seat, "fencing": 4, "ducats": 6}, actor=host)
    return session, host


def test_a_card_another_phone_adds_is_offered_in_this_phones_duel(host_phone, phone, alice):
    session, host = set_up(alice)
    ana = guest_phone_for(phone, session, "Ana")
    takes = ana.locator("select[name=take_card] option")
    expect(takes).to_have_count(1)  # nothing on any board yet
    expect(ana.locator("#table")).to_have_attribute("data-stream", "open")

    session.refresh_from_db()
    quevedo = {"name": "Quevedo", "kind": "character", "fame": 2, "vigour": 0, "fencing": 1,
               "pistols": False, "vehicle": False, "enemies": []}
    services.move_play(session=session, type="card",
                       data={"seat": 1, "action": "add", "card": quevedo}, actor=host)

    expect(takes.filter(has_text="Quevedo (Bea)")).to_have_count(1)


def test_a_die_face_chosen_by_mistake_is_cleared_by_a_second_tap_or_delete(host_phone, phone,
                                                                           alice):
    """The faces are radio buttons: without this, a die given by mistake stayed in the form, and
    one die of a pair alone is refused."""
    session, host = set_up(alice)
    ana = guest_phone_for(phone, session, "Ana")
    ana.locator("#al-dice-game > summary").click()
    die = ana.locator("#al-dice-game fieldset.al-die").first
    chosen = die.locator("input:checked")
    expect(ana.locator("#al-dice-game .al-clear-hint")).to_be_visible()

    die.locator(".al-face", has_text="4").click()
    expect(chosen).to_have_value("4")
    die.locator(".al-face", has_text="4").click()  # again: cleared
    expect(chosen).to_have_count(0)
    die.locator(".al-face", has_text="2").click()
    die.locator(".al-face", has_text="5").click()  # another face: chosen, not cleared
    expect(chosen).to_have_value("5")

    die.locator("input[value='5']").focus()  # by keyboard
    ana.keyboard.press("Delete")
    expect(chosen).to_have_count(0)
    die.locator("input[value='3']").focus()
    ana.keyboard.press("Space")
    ana.keyboard.press("Space")  # a key that chooses never clears
    expect(chosen).to_have_value("3")
