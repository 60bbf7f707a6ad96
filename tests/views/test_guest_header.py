"""A guest's header names the table and the phone's seat instead of offering to sign in
(issue 52, point 6); a host's keeps its account's links."""

from tests.factories import session_for
from tests.views.helpers import browser_for, guest_browser


def header(response):
    html = response.content.decode()
    return html[html.index('<header class="top">'):html.index("</header>")]


def test_a_guests_header_names_the_game_the_code_and_the_seat(alice):
    game = session_for(alice, game="pad", players=["Ana", "Íñigo"], options={"game": "Hearts"})
    top = header(guest_browser(game, seat=1).get(f"/s/{game.pk}/"))
    assert 'id="table-chip"' in top and "Hearts" in top and game.code in top and "Íñigo" in top
    assert "Sign in" not in top


def test_a_guest_without_a_seat_yet_sees_the_table(alice):
    game = session_for(alice, game="pad", players=["Ana", "Íñigo"], options={"game": "Hearts"})
    top = header(guest_browser(game).get(f"/s/{game.pk}/"))
    assert game.code in top and "Sign in" not in top and "Íñigo" not in top


def test_the_hosts_header_keeps_its_account(alice):
    game = session_for(alice, game="pad", players=["Ana", "Íñigo"], options={"game": "Hearts"})
    top = header(browser_for(alice).get(f"/s/{game.pk}/"))
    assert "History" in top and 'id="table-chip"' not in top
