"""Logging a game played before starts from its last play (issue 53, point 2): its way of winning
and its players, which the host may change: the form's "Start from its last play" sends it back
with them, and the game's page links there."""

import datetime

from companion import services
from tests.views.helpers import browser_for


def log_pandemic(alice, names, win="coop"):
    services.play_log(owner=alice, title="Pandemic", win=win, played_at=datetime.date(2026, 11, 1),
                      players=[{"name": name, "winner": True} for name in names])


def test_a_game_played_before_brings_its_last_way_of_winning_and_players(alice):
    log_pandemic(alice, ["Ana", "Ben"])
    log_pandemic(alice, ["Ana", "Cy", "Di"])
    html = browser_for(alice).get("/plays/new/?game=pandemic").content.decode()
    assert '<option value="coop" selected>' in html
    for name in ("Ana", "Cy", "Di"):
        assert f'value="{name}"' in html
    assert 'value="Ben"' not in html.split('id="log-roster"')[1].split("</datalist>")[1]


def test_names_typed_are_kept_unless_the_last_play_is_asked_for(alice):
    log_pandemic(alice, ["Ana", "Ben"])
    client = browser_for(alice)
    html = client.get("/plays/new/?game=Pandemic&name=Zoe&win=high").content.decode()
    assert 'value="Zoe"' in html and '<option value="high" selected>' in html
    html = client.get("/plays/new/?game=Pandemic&name=Zoe&win=high&last=1").content.decode()
    assert 'value="Zoe"' not in html and '<option value="coop" selected>' in html



def test_choosing_a_game_played_before_offers_its_last_play(alice):
    log_pandemic(alice, ["Ana", "Ben"])
    client = browser_for(alice)
    offer = client.get("/plays/new/last/?game=pandemic",
                       headers={"HX-Request": "true"}).content.decode()
    assert 'formmethod="get"' in offer and 'name="last"' in offer and "Ana, Ben" in offer
    assert client.get("/plays/new/last/?game=Azul").content.decode().strip() == ""


def test_a_new_game_starts_from_nothing_and_the_games_page_links_to_the_log(alice):
    html = browser_for(alice).get("/plays/new/?game=Azul").content.decode()
    assert 'value="Azul"' in html and ' selected>' not in html  # the first way: the highest wins
    log_pandemic(alice, ["Ana", "Ben"])
    page = browser_for(alice).get("/history/games/pad/?title=Pandemic").content.decode()
    assert 'href="/plays/new/?game=Pandemic"' in page
