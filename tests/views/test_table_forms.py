"""The table page's forms post without JavaScript: the game's live part is drawn apart from the
page (as a push draws it, once for every phone), and its forms carry the page's CSRF token all
the same."""

import re

import pytest

import games
from companion import services
from tests.factories import first_sample_options, play_to_the_end
from tests.views.helpers import browser_for, guest_browser

PRODUCT_GAMES = [app.rpartition(".")[2] for app in games.INSTALLED_APPS]


FORM = re.compile(r'<form\b[^>]*\bmethod="post"[^>]*>.*?</form>', re.S)


@pytest.mark.parametrize("slug", PRODUCT_GAMES)
@pytest.mark.parametrize("moves", [0, 6])
def test_every_form_of_a_table_in_play_posts_without_javascript(slug, moves, alice):
    """The game's live part is drawn apart from the page, as a push draws it: its forms carry
    the page's CSRF token all the same, for the host's phone and a guest's."""
    session = services.session_create(owner=alice, game=slug, players=["Ana", "Ben", "Cy"],
                                      options=first_sample_options(slug), host_seat=0,
                                      seed=f"{slug}forms")
    if moves:
        play_to_the_end(session, seed=0, max_moves=moves)
    for phone in (browser_for(alice), guest_browser(session, seat=1)):
        html = phone.get(f"/s/{session.pk}/").content.decode()
        forms = FORM.findall(html)
        assert forms, slug
        untokened = [form[:120] for form in forms if "csrfmiddlewaretoken" not in form]
        assert untokened == [], slug


def test_a_guest_places_the_castles_without_javascript(alice):
    """Don Quixote's castles form, in the live part every phone shares, posted as a plain form
    by a guest's phone whose CSRF token is checked."""
    session = services.session_create(owner=alice, game="quixote", players=["Ana", "Ben"],
                                      options={"deck": "table"}, host_seat=0, seed="castles")
    phone = guest_browser(session, seat=1)
    phone.handler.enforce_csrf_checks = True  # as a browser is checked
    html = phone.get(f"/s/{session.pk}/").content.decode()
    token = re.search(r'class="stack qx-act".*?name="csrfmiddlewaretoken" value="([^"]+)"',
                      html, re.S).group(1)
    answer = phone.post(f"/s/{session.pk}/move/", {
        "csrfmiddlewaretoken": token, "form": "castles", "type": "castles",
        "castle6": "F1", "castle4": "C2", "expected_version": session.version})
    assert answer.status_code in (200, 302), answer.content.decode()[:300]
    session.refresh_from_db()
    assert session.state["castles"] == {"6": "F1", "4": "C2"}
