"""Schemathesis over the whole API, in process: every operation of /api/schema/ with generated
requests, as the host and as a guest, every check on. No server error and no answer that breaks
the schema."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.openapi.checks import RejectedPositiveData
from schemathesis.specs.openapi.checks import (
    negative_data_rejection,
    positive_data_acceptance,
)

from companion import plugins, services
from tests.factories import UserFactory, session_for
from tests.tinygame import SERIALIZERS, TINY

# A move's body is one of every installed game's move shapes: the coverage phase would try each
# boundary of each (1,870 cases, most of this test's). Moves are still sent here as generated
# cases, and every game's moves, shape by shape, by the generated client's whole games
# (tests/api/test_generated_client.py).
CONFIG = schemathesis.config.SchemathesisConfig.from_dict({"operations": [{
    "include-path": "/api/sessions/{id}/moves/", "include-method": "POST",
    "phases": {"coverage": {"enabled": False}}}]})


def load_schema():
    # The schema lists every registered game's moves: the test game too, registered first (the
    # session's fixture registers it again and takes it away at the end).
    from companion.wsgi import application

    plugins.register(plugins.Plugin(rules=TINY, serializers=SERIALIZERS))
    return schemathesis.openapi.from_wsgi("/api/schema/", application, config=CONFIG)


# The events stream stays open (its own tests read it: tests/live/test_events.py); called in
# process it would never end.
schema = load_schema().exclude(path="/api/sessions/{id}/events/")
# Every check on the answers (no server error, status codes, content types, bodies and headers as
# documented, auth not ignored, schema-valid data accepted, ...), but one: "schema-invalid data is
# refused" trips on DRF's lenient reading (the number 0 as false, "3" as 3), which the pages'
# forms rely on and which changes nothing.
LENIENCY = [negative_data_rejection]

# "Schema-valid data is accepted" holds wherever the server checks a request's shape: the schema
# says every length, range, choice and pattern it checks (companion.api.schema). What remains are
# the decisions the schema cannot make, because they depend on what is stored or on a game's
# rules: by operation, the fields a 400 of them may name (None: a refusal naming no field).
DECISIONS = {
    # The password validators judge a password; a name may be taken already.
    "POST /api/auth/register/": {"password", "username"},
    # A name and a password that match no account.
    "POST /api/auth/token/": {None},
    # A name already on the roster, or in the host's card catalogue.
    "POST /api/players/": {"name"},
    "POST /api/games/alatriste/cards/": {"name"},
    # The game's rules (its player count, its options and their values: code "rule"), the
    # roster (a player id that is not the host's, a name given twice, in any case), two seats
    # given one colour, and who starts given twice (as "first" and as the game's own option).
    "POST /api/sessions/": {"players", "first"},
    # A seat the table has: how many it has is the session's.
    "POST /api/sessions/{id}/seats/{index}/colour/": {"seat"},
    # A logged play's consistency: a game or a name for it, a day that is past and after 1900,
    # every player scored or none, the winners ticked as the game is won, the length given once.
    "POST /api/plays/": {"game", "title", "win", "played_at", "players", "duration_min"},
    # An export's integrity (its seed sealed by this server, its moves replaying): the replay
    # decides.
    "POST /api/sessions/import/": {None, "players", "options"},
    # A file's content: whether it is a BG Stats backup.
    "POST /api/imports/bgstats/": {None, "file"},
    # The roster: the player merged into is another of the same roster, the name kept a free
    # one; the table: a seat kept is one of the host's roster.
    "POST /api/players/{id}/merge/": {"into", "name"},
    "POST /api/sessions/{id}/claim/": {None},
}
# The free-form parts of a body (a game's advanced option, an export's moves and state, a
# backup): OpenAPI 3.0 cannot say their keys hold no control character, which the server refuses
# in any text (companion.inputs). A move's too: Knights' duel's "rolls" is an object keyed by
# seat names.
FREE_FORM = {"POST /api/sessions/", "POST /api/sessions/import/", "POST /api/imports/bgstats/",
             "POST /api/sessions/{id}/moves/"}


def accepts_what_the_schema_allows(ctx, response, case):
    """positive_data_acceptance, but for the decisions above, the rules' refusal of a move
    (code "rule": a move of another game is one too, the session naming the game) and the
    session's state (412: it moved past the version sent; 422: an Idempotency-Key sent again
    with another body)."""
    try:
        return positive_data_acceptance(ctx, response, case)
    except RejectedPositiveData:
        if not _decided(case.operation.label, response):
            raise
    return None


def _decided(operation, response):
    if response.status_code in (412, 422):
        return True
    body = response.json()
    if body.get("code") == "rule":
        return True
    if body.get("code") == "parse_error":
        return operation in FREE_FORM
    named = set(body.get("fields") or ()) or {None}
    return body.get("code") == "invalid" and named <= DECISIONS.get(operation, set())
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
    group = services.group_create(owner=alice, name="Thursday night")
    member = services.player_create(owner=alice, group=group, name="Dulcinea")
    yield {"host": {"Authorization": f"Token {services.token_for(user=alice)}"},
           "guest": {"X-Guest-Token": guest.token}, "game": game, "player": player,
           "group": group, "member": member}
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(max_examples=10, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_the_api_keeps_its_schema(case, table):
    ids = case.path_parameters or {}
    if "id" in ids:  # mostly a real one, so that the operation does more than answer 404
        ids["id"] = (table["group"].pk if case.path.startswith("/api/groups/")
                     else table["player"].pk if "/players/" in case.path else table["game"].pk)
    if "player" in ids:  # a group's player
        ids["player"] = table["member"].pk
    # A guest's token is read only where the operation takes one (a session's); elsewhere
    # schemathesis' own check that credentials are not ignored calls it without the host's.
    takes_guest = any(parameter.get("name") == "X-Guest-Token"
                      for parameter in case.operation.definition.raw.get("parameters", ()))
    for who in ("host", "guest") if takes_guest else ("host",):
        # The app is called in process (WSGI), where nothing would undo a gzip-compressed body:
        # the checks read the answers as sent uncompressed (tests/views/test_compression.py
        # covers the compression).
        case.call_and_validate(headers={**table[who], "Accept-Encoding": "identity"},
                               excluded_checks=[*LENIENCY, positive_data_acceptance],
                               additional_checks=[accepts_what_the_schema_allows])
