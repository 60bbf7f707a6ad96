from companion.models import Session
from tests.views.helpers import assert_phone_ready, browser_for


def test_choosing_a_game_then_opening_it(alice):
    client = browser_for(alice)
    listing = client.get("/new/")
    assert_phone_ready(listing)
    assert "?game=tiny" in listing.content.decode()
    form = client.get("/new/?game=tiny")
    assert 'name="opt_target"' in form.content.decode()
    response = client.post("/new/", {"game": "tiny", "name": ["Vanessa", "Peter", ""],
                                     "opt_target": "30"})
    session = Session.objects.get()
    assert response.status_code == 302 and response.url == f"/s/{session.pk}/"
    assert session.options == {"target": 30}
    assert list(session.seats.values_list("name", flat=True)) == ["Vanessa", "Peter"]


def test_a_refused_session_is_said_next_to_the_form(alice):
    response = browser_for(alice).post("/new/", {"game": "tiny", "name": ["A", "B"],
                                                 "opt_target": "zero"})
    assert response.status_code == 400
    assert "zero is not a whole number" in response.content.decode()
    assert not Session.objects.exists()


def test_new_needs_a_host(db):
    response = browser_for().get("/new/")
    assert response.status_code == 302 and response.url.startswith("/login/")


def test_unknown_game_is_404(alice):
    assert browser_for(alice).get("/new/?game=chess").status_code == 404
