"""A game's page: plays, records, the distribution chart, the game's own figures; host only."""

import pytest
from django.core.cache import cache

from companion import services
from companion.models import Result
from tests.factories import finished_session, played
from tests.views.helpers import assert_phone_ready, browser_for


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()




def test_game_page(alice, charlie):
    played(alice, ("Vanessa", "Peter"), ((0, 10), (1, 3), (0, 10)))
    played(charlie, ("Zed", "Yan"), ((0, 10), (0, 10)))
    response = browser_for(alice).get("/history/games/tiny/")
    assert response.status_code == 200
    assert_phone_ready(response)
    html = response.content.decode()
    # Only the page's content: the CSRF token in <body> is random text ("...Zed..." once).
    main = html.split("<main>")[1]
    assert "Vanessa" in main and "Zed" not in main
    assert "Score distribution: Tiny" in html and 'aria-labelledby="' in html


def test_a_finish_undone_leaves_the_page(alice):
    session = played(alice, ("Vanessa", "Peter"), ((0, 10), (0, 10)))
    client = browser_for(alice)
    assert "<strong>20</strong>" in client.get("/history/games/tiny/").content.decode()
    services.move_undo(session=session, actor=services.Actor(user=alice))
    assert not Result.objects.exists()
    html = client.get("/history/games/tiny/").content.decode()
    assert "<strong>20</strong>" not in html and "No finished games yet." in html


def test_a_game_without_points_shows_a_dash_for_each_average(alice):
    """Jack Rabbits has no points: its plays count, and its averages are "–", not blank."""
    finished_session(alice, game="rabbits")
    html = browser_for(alice).get("/history/games/rabbits/").content.decode()
    for figure in ("Best score", "Average score", "Winning average"):
        assert f"<dt>{figure}</dt><dd>–</dd>" in html, figure
    assert "<dt>Plays</dt><dd>1</dd>" in html and "<dt>Players per game</dt><dd>3</dd>" in html


def test_unknown_game_is_404(alice):
    assert browser_for(alice).get("/history/games/chess/").status_code == 404


def test_queries_stay_constant(alice, django_assert_max_num_queries):
    played(alice, ("Vanessa", "Peter"), ((0, 10), (0, 10)))
    client = browser_for(alice)
    with django_assert_max_num_queries(9):
        assert client.get("/history/games/tiny/").status_code == 200
    for number in range(8):
        played(alice, ("Vanessa", f"O{number}"), ((number % 2, 10), (number % 2, 10)))
    cache.clear()
    with django_assert_max_num_queries(9):
        assert client.get("/history/games/tiny/").status_code == 200


@pytest.mark.parametrize("slug", ["quixote", "knights", "alatriste", "rabbits"])
def test_product_game_pages_render_empty(alice, slug):
    response = browser_for(alice).get(f"/history/games/{slug}/")
    assert response.status_code == 200
