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


def test_a_card_another_phone_adds_is_offered_in_this_phones_duel(host_phone, phone, alice):
    session = session_for(alice, game="alatriste", players=("Ana", "Bea"))
    host = services.Actor(user=alice)
    for seat in (0, 1):
        session.refresh_from_db()
        services.move_play(session=session, type="setup",
                           data={"seat": seat, "fencing": 4, "ducats": 6}, actor=host)
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
