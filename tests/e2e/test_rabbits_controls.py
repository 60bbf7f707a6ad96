"""Jack Rabbits: a seat's own controls follow what another phone changed about it (its game's
live part names what they must be drawn for; table.js fetches them again)."""

import pytest
from playwright.sync_api import expect

from companion import services
from tests.e2e.conftest import guest_phone_for
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_host_setting_a_rabbit_underground_shows_on_its_own_phone(phone, alice):
    game = session_for(alice, game="rabbits", players=("Ana", "Ben"))
    ben = guest_phone_for(phone, game, "Ben")
    ben.wait_for_selector("#table[data-stream=open]", state="attached")
    own = ben.locator("#rb-own")
    expect(own.get_by_role("button", name="On the board")).to_have_attribute("aria-pressed", "true")

    services.move_play(session=game, type="where", data={"seat": 1, "place": "underground"},
                       actor=services.Actor(user=alice))

    expect(own.get_by_role("button", name="Underground")).to_have_attribute("aria-pressed", "true")
    expect(own.get_by_role("button", name="On the board")).not_to_have_attribute(
        "aria-pressed", "true")
