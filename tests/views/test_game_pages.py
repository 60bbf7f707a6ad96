"""A game's own pages (Knights' worship preview, Jack Rabbits' running total, Don Quixote's
score preview) find only that game's tables: another game's is a 404, as a table that is not
the reader's (it read that game's state as its own: a 500)."""

import pytest

from tests.factories import session_for
from tests.views.helpers import browser_for

PAGES = {"knights": ("get", "/g/knights/{pk}/preview/"),
         "rabbits": ("get", "/g/rabbits/{pk}/total/"),
         "quixote": ("post", "/g/quixote/s/{pk}/preview/")}


@pytest.mark.parametrize("page", sorted(PAGES))
@pytest.mark.parametrize("table", ["knights", "rabbits", "quixote", "alatriste", "pad"])
def test_a_games_own_page_finds_only_its_games_tables(alice, page, table):
    session = session_for(alice, game=table, players=("Ana", "Ben", "Cy"))
    method, path = PAGES[page]
    response = getattr(browser_for(alice), method)(path.format(pk=session.pk))
    assert response.status_code == (200 if page == table else 404)
