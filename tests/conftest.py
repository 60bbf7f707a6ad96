"""Named people for access tests: alice the host, bob a guest of alice's game, charlie a
stranger (another host). The tiny game stands in where no product game is needed."""

import pytest
from rest_framework.test import APIClient

from companion import engine, services
from tests import tinygame
from tests.factories import UserFactory, session_for


@pytest.fixture(autouse=True, scope="session")
def tiny_game():
    engine.register(tinygame.TINY, tinygame.SERIALIZERS)
    yield tinygame.TINY
    engine.unregister("tiny")


@pytest.fixture
def alice(db):
    return UserFactory(username="alice")


@pytest.fixture
def charlie(db):
    return UserFactory(username="charlie")


@pytest.fixture
def game(alice):
    """Alice's tiny game for Vanessa and Peter."""
    return session_for(alice)


@pytest.fixture
def bob(game):
    """A guest device of alice's game, holding Peter's seat."""
    return services.guest_join(code=game.code, seat=1)


def api_client(user=None, guest=None):
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {services.token_for(user=user)}")
    if guest is not None:
        client.credentials(HTTP_X_GUEST_TOKEN=guest.token)
    return client


@pytest.fixture
def as_alice(alice):
    return api_client(user=alice)


@pytest.fixture
def as_bob(bob):
    return api_client(guest=bob)


@pytest.fixture
def as_charlie(charlie):
    return api_client(user=charlie)


@pytest.fixture
def anonymous(db):
    return APIClient()
