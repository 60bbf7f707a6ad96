"""A name typed without a space (a game, a place, a player: 60 letters, the most a field takes)
never makes a page wider than the phone: it wraps where it must."""

import pytest

from companion import services
from companion.models import Player
from tests.e2e.conftest import no_sideways_scroll

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LONG = "Supercalifragilisticexpialidocious" + "x" * 26  # 60 letters, no space


def test_a_long_name_wraps_on_every_page_that_shows_it(host_phone, alice):
    logged = services.play_log(owner=alice, title=LONG, location=LONG,
                               players=[{"name": LONG, "score": 3}, {"name": "Ben", "score": 5}])
    table = services.session_create(owner=alice, game="pad", players=[LONG, "Ben"],
                                    options={"game": LONG, "win": "high"}, location=LONG)
    player = Player.objects.get(owner=alice, name=LONG)
    host = host_phone()
    wide = []
    for path in ("/history/", f"/history/sessions/{logged.pk}/", f"/history/players/{player.pk}/",
                 f"/history/games/pad/?title={LONG}", f"/s/{table.pk}/", "/players/"):
        host.goto(path)
        if not no_sideways_scroll(host):
            wide.append(f"{path}: {host.evaluate('document.documentElement.scrollWidth')} px")
    assert not wide, wide
