"""The seed foretells a game: every die and card comes from it (engine.move_rng), so whoever reads
it can work out the next roll or draw. Nothing a phone or the host can read of a game in play
shows it: the answers, the pages, the export (which carries it sealed, and still imports to the
same state on this server). A finished game's export carries it plainly."""

import pytest
from django.test import override_settings

from companion import plugins, services
from companion.models import Session, new_seed
from tests.api.test_export import GAMES
from tests.conftest import api_client
from tests.factories import session_for
from tests.views.helpers import browser_for, guest_browser

# Pad: a table with no dice, here for the set-up at version 0 and the export's shape.
TABLES = {**GAMES, "pad": (["Ana", "Ben"], {"game": "Scrabble"}, [])}


def _played(alice, slug):
    players, options, moves = TABLES[slug]
    # A seed as the app makes them (the factories' "s" would be found in any text).
    session = session_for(alice, game=slug, players=players, options=options, seed=new_seed())
    host = api_client(user=alice)
    for move in moves:
        assert host.post(f"/api/sessions/{session.pk}/moves/", move,
                         format="json").status_code == 201
    return Session.objects.get(pk=session.pk)


def _everything_read(session, alice):
    """Every answer and page a phone or the host can read of the session, as text."""
    guest = services.guest_join(code=session.code, seat=1)
    host, phone = api_client(user=alice), api_client(guest=guest)
    texts = [host.get(f"/api/sessions/{session.pk}/export/").content.decode()]
    for client in (host, phone):
        texts += [client.get(f"/api/sessions/{session.pk}/").content.decode(),
                  client.get(f"/api/sessions/{session.pk}/moves/").content.decode()]
    texts += [browser_for(alice).get(f"/s/{session.pk}/").content.decode(),
              guest_browser(session, seat=0).get(f"/s/{session.pk}/").content.decode(),
              browser_for().get(f"/board/{session.board_key}/").content.decode()]
    return texts


@pytest.mark.parametrize("slug", sorted(TABLES))
def test_nothing_read_of_a_game_in_play_shows_its_seed(alice, slug):
    session = _played(alice, slug)
    assert not session.is_finished
    texts = _everything_read(session, alice)
    assert all(text for text in texts)
    assert not [text[:80] for text in texts if session.seed in text]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_sealed_export_of_a_game_in_play_imports_to_the_same_state(alice, slug):
    session = _played(alice, slug)
    host = api_client(user=alice)
    exported = host.get(f"/api/sessions/{session.pk}/export/").json()
    assert exported["seed"] is None and exported["sealed_seed"]
    copy = host.post("/api/sessions/import/", exported, format="json")
    assert copy.status_code == 201, copy.json()
    assert Session.objects.get(pk=copy.json()["id"]).state == session.state


def test_an_export_sealed_by_another_server_is_refused(alice):
    session = _played(alice, "quixote")
    host = api_client(user=alice)
    with override_settings(SECRET_KEY="another server's key, as long as any other one"):
        exported = host.get(f"/api/sessions/{session.pk}/export/").json()
    before = Session.objects.count()
    refused = host.post("/api/sessions/import/", exported, format="json")
    assert refused.status_code == 400
    assert refused.json()["detail"].startswith(
        "This game in play was exported by another Companion server")
    assert Session.objects.count() == before


def test_a_finished_games_export_carries_its_seed(alice):
    session = session_for(alice, game="pad", players=("Ana", "Ben"),
                          options={"game": "Scrabble"})
    host = api_client(user=alice)
    assert host.post(f"/api/sessions/{session.pk}/moves/", {"type": "round", "scores": [3, 4]},
                     format="json").status_code == 201
    rules = plugins.rules_of("pad")
    end = next(move for move in ("end", "finish") if move in rules.moves)
    answer = host.post(f"/api/sessions/{session.pk}/moves/", {"type": end, "confirm": True},
                       format="json")
    assert answer.status_code == 201, answer.json()
    exported = host.get(f"/api/sessions/{session.pk}/export/").json()
    assert exported["seed"] == Session.objects.get(pk=session.pk).seed
    assert "sealed_seed" not in exported
    assert exported["status"] == "finished"
