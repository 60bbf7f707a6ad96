from companion.models import Player
from tests.views.helpers import assert_phone_ready, browser_for


def test_the_roster_page_adds_players(alice):
    client = browser_for(alice)
    assert_phone_ready(client.get("/players/"))
    client.post("/players/", {"name": "Peter"})
    refused = client.post("/players/", {"name": "peter"})
    assert refused.status_code == 400 and "already have a player" in refused.content.decode()
    assert list(Player.objects.values_list("name", flat=True)) == ["Peter"]


def test_the_roster_needs_a_host(db):
    assert browser_for().get("/players/").status_code == 302
