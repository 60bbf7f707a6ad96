"""Half a character: JSON may write a lone surrogate ("\\ud800") that no UTF-8 text can hold. In a
move's type, any field of any move, a player's name, an account's or in a BG Stats backup, it is
refused with a 400 and a sentence, never a 500, and nothing changes."""

import json

import pytest

from companion import bgstats_backup, plugins
from companion.errors import Invalid
from companion.models import Move, Session
from tests.api.test_bad_input import refused_with_a_sentence, world
from tests.factories import session_for

LONE = "\\ud800"  # as JSON writes it: the body stays ASCII, the parsed text holds U+D800 alone
GAMES = ["alatriste", "knights", "pad", "quixote", "rabbits"]


def _raw(client, path, body):
    """POST `body`, JSON text written by hand (a test client would refuse to encode U+D800)."""
    return client.generic("POST", path, body, content_type="application/json")


def _fields_of_every_move():
    for game in GAMES:
        for move_type, serializer in plugins.get(game).serializers.items():
            names = list(serializer().get_fields()) if serializer else []
            # A move of no fields: the text in one it does not read.
            for name in names or ["note"]:
                yield game, move_type, name


@pytest.mark.parametrize("game, move_type, field", list(_fields_of_every_move()))
def test_a_lone_surrogate_in_any_field_of_any_move_is_400(as_alice, alice, game, move_type,
                                                           field):
    session = session_for(alice, game=game, players=("Vanessa", "Peter", "Ana"))
    text = json.dumps({"type": move_type})[:-1] + f', "{field}": "a{LONE}"}}'
    before = world()
    body = refused_with_a_sentence(_raw(as_alice, f"/api/sessions/{session.pk}/moves/", text))
    assert "half a character" in body["detail"]
    assert world() == before


def test_a_lone_surrogate_as_the_move_type_is_400(as_alice, alice):
    session = session_for(alice)
    refused_with_a_sentence(_raw(as_alice, f"/api/sessions/{session.pk}/moves/",
                                 f'{{"type": "{LONE}"}}'))
    assert not Move.objects.exists()


@pytest.mark.parametrize("path, text", [
    ("/api/sessions/", f'{{"game": "tiny", "players": ["Ana", "B{LONE}o"]}}'),
    ("/api/sessions/", f'{{"game": "tiny{LONE}", "players": ["Ana", "Bo"]}}'),
    ("/api/players/", f'{{"name": "Pe{LONE}ter"}}'),
    ("/api/plays/", f'{{"game": "Catan", "players": [{{"name": "A{LONE}"}}]}}'),
    ("/api/auth/register/", f'{{"username": "do{LONE}ra", "password": "windmills at dusk"}}'),
])
def test_a_lone_surrogate_in_a_name_is_400(as_alice, path, text):
    before = world()
    refused_with_a_sentence(_raw(as_alice, path, text))
    assert world() == before
    assert Session.objects.count() == before[2]


def test_a_backup_with_a_lone_surrogate_is_refused_with_a_sentence():
    backup = ('{"games": [{"id": 1, "name": "Catan"}], "players": [{"id": 1, "name": "A'
              + LONE + '"}], "plays": []}').encode()
    with pytest.raises(Invalid, match="half a character"):
        bgstats_backup.read_backup(backup)
