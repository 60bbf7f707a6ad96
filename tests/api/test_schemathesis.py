"""Schemathesis over the whole API, in process: every operation of /api/schema/ with generated
requests, as the host and as a guest, every check on. No server error and no answer that breaks
the schema."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import (
    negative_data_rejection,
    positive_data_acceptance,
)

from companion import plugins, services
from tests.factories import UserFactory, session_for
from tests.tinygame import SERIALIZERS, TINY


def load_schema():
    # The schema lists every registered game's moves: the test game too, registered first (the
    # session's fixture registers it again and takes it away at the end).
    from companion.wsgi import application

    plugins.register(plugins.Plugin(rules=TINY, serializers=SERIALIZERS))
    return schemathesis.openapi.from_wsgi("/api/schema/", application)


# The events stream stays open (its own tests read it: tests/live/test_events.py); called in
# process it would never end.
schema = load_schema().exclude(path="/api/sessions/{id}/events/")
# Every check on the answers (no server error, status codes, content types, bodies and headers as
# documented, auth not ignored, ...). Two checks on how strict the input is are off:
# "schema-valid data is accepted" cannot hold where the rules decide (a password too common, a
# move the rules refuse: 400 with a sentence, by design), and "schema-invalid data is refused"
# trips on DRF's lenient reading (the number 0 as false, "3" as 3), which changes nothing.
LENIENCY = [positive_data_acceptance, negative_data_rejection]


@pytest.fixture
def table(db, settings):
    # Generated requests register and sign in hundreds of times: the limits have their own test.
    settings.LIMITS = dict.fromkeys(settings.LIMITS, "100000/h")
    # As Django's test client does: a request's start and end must not close the test's
    # connection (it holds the test's transaction).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    alice = UserFactory(username="alice")
    game = session_for(alice)
    guest = services.guest_join(code=game.code, seat=1)
    player = services.player_create(owner=alice, name="Rocinante")
    yield {"host": {"Authorization": f"Token {services.token_for(user=alice)}"},
           "guest": {"X-Guest-Token": guest.token}, "game": game, "player": player}
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(max_examples=10, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_the_api_keeps_its_schema(case, table):
    ids = case.path_parameters or {}
    if "id" in ids:  # mostly a real one, so that the operation does more than answer 404
        ids["id"] = table["player"].pk if "/players/" in case.path else table["game"].pk
    for who in ("host", "guest"):
        # The app is called in process (WSGI), where nothing would undo a gzip-compressed body:
        # the checks read the answers as sent uncompressed (tests/views/test_compression.py
        # covers the compression).
        case.call_and_validate(headers={**table[who], "Accept-Encoding": "identity"},
                               excluded_checks=LENIENCY)
