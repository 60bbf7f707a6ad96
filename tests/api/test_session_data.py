"""A session in the API's answers (serializers.session_data) is what SessionSerializer, the
schema's, makes of it: the same keys, values and JSON, for a game in play or over, of each
game, for each viewer, a logged play and a named game."""

import datetime
import json

import pytest
from rest_framework.renderers import JSONRenderer

import games
from companion import services
from companion.api.serializers import SessionSerializer, session_data
from companion.models import Session
from tests.factories import finished_session, session_for


def assert_same(session):
    session = Session.objects.prefetch_related("seats").get(pk=session.pk)
    for viewer in (None, *range(session.seats.count())):
        made = session_data(session, viewer=viewer)
        expected = SessionSerializer(session, context={"viewer": viewer}).data
        assert made == expected
        assert list(made) == list(expected)
        assert JSONRenderer().render(made) == JSONRenderer().render(expected)


@pytest.mark.parametrize("game", sorted(app.rpartition(".")[2]
                                        for app in games.INSTALLED_APPS))  # the product games
def test_a_game_in_play_and_over(alice, game):
    assert_same(session_for(alice, game=game, players=("Ana", "Ben", "Cy")))
    assert_same(finished_session(alice, game=game))


def test_a_host_at_a_seat_and_a_location(alice):
    session = session_for(alice, players=("Ana", "Ben"))
    Session.objects.filter(pk=session.pk).update(host_seat=1, location="Ana's kitchen",
                                                 language="es")
    assert_same(session)


def test_a_logged_play_and_a_named_game(alice):
    assert_same(services.play_log(
        owner=alice, game="quixote", played_at=datetime.date(2026, 3, 7), minutes=55,
        location="Ana's kitchen", note="A close one",
        players=[{"name": "Ana", "score": 61}, {"name": "Ben", "score": 58}]))
    assert_same(services.play_log(owner=alice, title="Codenames", win="none",
                                  played_at=datetime.date(2026, 3, 7),
                                  players=[{"name": "Ana", "winner": True}, {"name": "Ben"}]))


def test_the_answer_reads_as_json(alice):
    session = session_for(alice)
    assert json.loads(JSONRenderer().render(session_data(session)))["id"] == session.pk
