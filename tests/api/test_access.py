"""alice hosts the game, bob is its guest, charlie another host; strangers see nothing."""

import pytest

from companion import services
from tests.conftest import api_client
from tests.factories import session_for

PATHS = ["/api/sessions/{id}/", "/api/sessions/{id}/moves/"]


@pytest.mark.parametrize("path", PATHS)
def test_host_and_guest_see_the_session(as_alice, as_bob, game, path):
    assert as_alice.get(path.format(id=game.pk)).status_code == 200
    assert as_bob.get(path.format(id=game.pk)).status_code == 200


@pytest.mark.parametrize("path", PATHS)
def test_anonymous_and_other_hosts_get_404(anonymous, as_charlie, game, path):
    assert anonymous.get(path.format(id=game.pk)).status_code == 404
    assert as_charlie.get(path.format(id=game.pk)).status_code == 404


def test_unknown_session_is_404(as_alice):
    assert as_alice.get("/api/sessions/999999/").status_code == 404


def test_a_guest_token_works_for_its_own_session_only(alice, bob, game):
    other = session_for(alice)
    client = api_client(guest=bob)
    assert client.get(f"/api/sessions/{other.pk}/").status_code == 403
    response = client.post(f"/api/sessions/{other.pk}/moves/",
                           {"type": "add", "seat": 0, "points": 1}, format="json")
    assert response.status_code == 403
    assert client.post(f"/api/sessions/{other.pk}/undo/").status_code == 403


def test_other_hosts_cannot_play_undo_or_export(as_charlie, game):
    move = {"type": "add", "seat": 0, "points": 1}
    assert as_charlie.post(f"/api/sessions/{game.pk}/moves/", move,
                           format="json").status_code == 404
    assert as_charlie.post(f"/api/sessions/{game.pk}/undo/").status_code == 404
    assert as_charlie.get(f"/api/sessions/{game.pk}/export/").status_code == 404


def test_a_bad_guest_token_is_404(game):
    client = api_client()
    client.credentials(HTTP_X_GUEST_TOKEN="forged")
    assert client.get(f"/api/sessions/{game.pk}/").status_code == 404


def test_guest_cannot_list_sessions_or_players(as_bob):
    assert as_bob.get("/api/sessions/").status_code == 401
    assert as_bob.get("/api/players/").status_code == 401


def test_guest_may_play_and_undo(as_bob, game):
    response = as_bob.post(f"/api/sessions/{game.pk}/moves/",
                           {"type": "add", "seat": 1, "points": 2}, format="json")
    assert response.status_code == 201
    assert as_bob.post(f"/api/sessions/{game.pk}/undo/").status_code == 200


def test_guest_join_token_is_new_per_device(game):
    first = services.guest_join(code=game.code)
    second = services.guest_join(code=game.code)
    assert first.token != second.token
