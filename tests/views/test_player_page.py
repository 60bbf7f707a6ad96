"""A player's page: the figures, head-to-head, nemesis and the results chart; host only."""

from companion import services
from companion.models import Player
from tests.factories import played
from tests.views.helpers import assert_phone_ready, browser_for


def test_player_page_shows_the_figures(alice):
    played(alice, ("Vanessa", "Peter"), ((0, 10), (0, 10)))
    played(alice, ("Vanessa", "Peter"), ((1, 10), (1, 10)))
    played(alice, ("Vanessa", "Peter"), ((1, 10), (1, 10)))
    vanessa = Player.objects.get(owner=alice, name="Vanessa")
    response = browser_for(alice).get(f"/history/players/{vanessa.pk}/")
    assert response.status_code == 200
    assert_phone_ready(response)
    html = response.content.decode()
    assert "33%" in html  # 1 win in 3
    assert "Nemesis: Peter, who finished ahead in 2 of 3 games together." in html
    assert 'role="img"' in html and "<title" in html and "<desc" in html
    assert 'class="chart" role="img" height=' in html  # no viewBox: its text is the page's


def test_one_game_and_one_point_are_said_in_the_singular(alice):
    played(alice, ("Vanessa", "Peter"), ((0, 1), (1, 10), (1, 10)))
    vanessa = Player.objects.get(owner=alice, name="Vanessa")
    html = browser_for(alice).get(f"/history/players/{vanessa.pk}/").content.decode()
    assert "rank 2, 1 point<" in html and "1 points" not in html
    assert "Nemesis: Peter, who finished ahead in the one game you played together." in html


def test_a_player_without_games(alice):
    nobody = services.player_create(owner=alice, name="Nobody")
    html = browser_for(alice).get(f"/history/players/{nobody.pk}/").content.decode()
    assert "No finished games yet." in html and "Nemesis" not in html


def test_queries_stay_constant(alice, django_assert_max_num_queries):
    played(alice, ("Vanessa", "Peter"), ((0, 10), (0, 10)))
    vanessa = Player.objects.get(owner=alice, name="Vanessa")
    client = browser_for(alice)
    # The statistics' queries, and one for the roster its "Merge into…" offers.
    with django_assert_max_num_queries(10):
        assert client.get(f"/history/players/{vanessa.pk}/").status_code == 200
    for number in range(8):
        played(alice, ("Vanessa", f"O{number}", f"P{number}"), ((number % 3, 10), (0, 10)))
    with django_assert_max_num_queries(10):
        assert client.get(f"/history/players/{vanessa.pk}/").status_code == 200


def test_another_hosts_player_is_404(alice, charlie):
    played(alice, ("Vanessa", "Peter"), ((0, 10), (0, 10)))
    vanessa = Player.objects.get(owner=alice, name="Vanessa")
    assert browser_for(charlie).get(f"/history/players/{vanessa.pk}/").status_code == 404
    assert browser_for(alice).get("/history/players/999999/").status_code == 404
    assert browser_for().get(f"/history/players/{vanessa.pk}/").status_code == 302
