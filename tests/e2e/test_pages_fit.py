"""Every page at 360 px wide: no sideways scrolling, nothing loaded from another host."""

import pytest

from companion import engine
from tests.e2e.conftest import no_sideways_scroll
from tests.factories import session_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Vanessa", "Peter", "Íñigo", "Ana", "Leo", "Marta"]


def test_every_page_fits_a_phone(host_phone, alice, live_server):
    sessions = [session_for(alice, game=game.slug, players=NAMES[:max(game.min_players, 3)]
                            if game.max_players >= 3 else NAMES[:game.min_players])
                for game in engine.all_games()]
    page = host_phone()
    paths = ["/", "/new/", "/players/", "/join/", "/history/"]
    for session in sessions:
        paths += [f"/new/?game={session.game}", f"/s/{session.pk}/",
                  f"/board/{session.board_key}/", f"/join/{session.code}/",
                  f"/history/sessions/{session.pk}/", f"/history/games/{session.game}/",
                  f"/history/players/{session.seats.first().player_id}/"]
    wide, failed = [], []
    for path in paths:
        if page.goto(path).status != 200:
            failed.append(path)
        if not no_sideways_scroll(page):
            wide.append(path)
    assert failed == []
    assert wide == []
    foreign = [url for url in page.context.requests
               if not url.startswith(live_server.url) and not url.startswith("data:")]
    assert foreign == []
