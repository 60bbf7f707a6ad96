"""Named people for access tests: alice the host, bob a guest of alice's game, charlie a
stranger (another host). The tiny game stands in where no product game is needed."""

import pytest


def pytest_configure(config):
    from django.conf import settings

    # Hashing a password the production way takes a good part of a second; the tests sign in
    # hundreds of times and test no hash's strength.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

    # The compiled catalogues are built from the .po files, not kept in git.
    from companion import catalogues

    catalogues.compile_all()

    _quick_flush()


# What a flush between transactional tests leaves in place: what the migrations made for every
# test alike and no test writes.
KEPT_TABLES = {"django_migrations", "django_content_type", "auth_permission"}


def _quick_flush():
    """After each transactional test (the browser tests, the streams' tests), Django's flush
    truncates every table and then recreates the content types and permissions it removed
    (post_migrate): on PostgreSQL, where TRUNCATE makes each table anew, a good part of a
    browser test's time. Deleting the rows, the content types and permissions left as they are,
    costs next to nothing. A test that asks more of the flush (sequences
    reset, a serialized rollback, a subset of apps) gets Django's own."""
    from django.db import connections, transaction
    from django.test import testcases

    django_teardown = testcases.TransactionTestCase._fixture_teardown

    def quick_teardown(self):
        if self.reset_sequences or self.serialized_rollback or self.available_apps is not None:
            return django_teardown(self)
        for name in self._databases_names(include_mirrors=False):
            connection = connections[name]
            tables = [table for table in connection.introspection.django_table_names(
                only_existing=True, include_views=False) if table not in KEPT_TABLES]
            quote = connection.ops.quote_name
            # One transaction: the foreign keys (deferred on both databases) are checked once
            # every row is gone, whatever the order.
            with transaction.atomic(using=name), connection.cursor() as cursor:
                for table in tables:
                    cursor.execute(f"DELETE FROM {quote(table)}")  # noqa: S608 - our own tables

    testcases.TransactionTestCase._fixture_teardown = quick_teardown


@pytest.fixture(autouse=True, scope="session")
def tiny_game():
    # Imported here so that the pure rule tests (tests/rules) need no Django settings.
    from companion import plugins
    from tests import tinygame

    plugins.register(plugins.Plugin(rules=tinygame.TINY, serializers=tinygame.SERIALIZERS))
    yield tinygame.TINY
    plugins.unregister("tiny")


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the default language. LocaleMiddleware activates a request's language
    on its thread and nothing puts it back; the test client runs requests on the test's own
    thread, so a Spanish page requested by one test left the next test on that worker calling
    services in Spanish (its English sentences then failed, depending on the order)."""
    import sys

    if "django.utils.translation.trans_real" in sys.modules:  # the rule tests never load it
        from django.utils import translation

        translation.deactivate()
    yield


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty process cache. A game's figures are kept under the host's
    id and the version of their results (stats.game_stats); every test's database numbers its
    rows from 1 again, so the figures one test kept were read by the next test on that worker
    whose host had as many results (its dates then were the other test's)."""
    import sys

    if "django.core.cache" in sys.modules:  # the rule tests never load it
        from django.core.cache import caches

        caches["default"].clear()
    yield


@pytest.fixture
def alice(db):
    from tests.factories import UserFactory

    return UserFactory(username="alice")


@pytest.fixture
def charlie(db):
    from tests.factories import UserFactory

    return UserFactory(username="charlie")


@pytest.fixture
def game(alice):
    """Alice's tiny game for Vanessa and Peter."""
    from tests.factories import session_for

    return session_for(alice)


@pytest.fixture
def bob(game):
    """A guest device of alice's game, holding Peter's seat."""
    from companion import services

    return services.guest_join(code=game.code, seat=1)


def api_client(user=None, guest=None):
    from rest_framework.test import APIClient

    from companion import services

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
def bob_account(db):
    """bob as an account (the `bob` above is a guest phone): a member of alice's group, or a
    host of his own whose table dora plays at."""
    from tests.factories import UserFactory

    return UserFactory(username="bob")


@pytest.fixture
def thursday(alice, bob_account):
    """alice's group "Thursday night", bob a member; charlie is not."""
    from companion import services

    group = services.group_create(owner=alice, name="Thursday night")
    services.group_join(user=bob_account, code=group.code)
    return group


@pytest.fixture
def as_bob_account(bob_account):
    return api_client(user=bob_account)


@pytest.fixture
def dora(db):
    """dora, an account of her own: she keeps the seats she played at alice's and bob's tables."""
    from tests.factories import UserFactory

    return UserFactory(username="dora")


@pytest.fixture
def as_dora(dora):
    return api_client(user=dora)


@pytest.fixture
def anonymous(db):
    return api_client()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """Close each connection pool before the test database is dropped: a pool keeps connections
    open (PostgreSQL), and DROP DATABASE refuses a database that is still in use."""
    yield
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        if hasattr(connection, "close_pool"):
            connection.close_pool()
