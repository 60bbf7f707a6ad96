"""The cast of a group's tests: alice owns "Thursday night", bob (an account here, not the
conftest's guest phone) is a member, charlie is not. Imported by the tests that use them."""

import pytest

from companion import services
from tests.conftest import api_client
from tests.factories import UserFactory


@pytest.fixture
def bob_account(db):
    return UserFactory(username="bob")


@pytest.fixture
def thursday(alice, bob_account):
    group = services.group_create(owner=alice, name="Thursday night")
    services.group_join(user=bob_account, code=group.code)
    return group


@pytest.fixture
def as_bob_account(bob_account):
    return api_client(user=bob_account)


def group_played(owner, group, players=("Ana", "Ben"), moves=((0, 10), (0, 10))):
    """A tiny game hosted by `owner` for `group` (None: the host's own), each (seat, points) of
    `moves` played: the defaults finish it, seat 0 first to 20."""
    session = services.session_create(owner=owner, game="tiny", players=list(players),
                                      seed="s", group=group)
    for seat, points in moves:
        services.move_play(session=session, type="add", data={"seat": seat, "points": points},
                           actor=services.Actor(user=owner))
    return session
