"""A client generated from /api/schema/ by openapi-python-client, as someone who never read this
code would make one, plays a whole game of every game against a live server: the host with its
token, a guest phone that joined with the code and plays its own seat's moves with X-Guest-Token.
The schema is then enough to call each operation as the server expects it: which need no
credentials, what each body holds (every field of a move is declared), what each answer holds
(the client parses every answer it gets by the schema)."""

import importlib
import json
import random
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

import games
from companion import engine, plugins
from companion.models import Session
from tests.test_conformance import candidates_of, option_sets

GAMES = [app.rsplit(".", 1)[1] for app in games.INSTALLED_APPS]
PACKAGE = "companion_api_client"
# As many tries as tests/factories.play_to_the_end gives a game: most draws are refused by the
# rules, which is the samples' way (they are plausible moves, legal or not).
MAX_MOVES = 600


@pytest.fixture(scope="module")
def api(live_server, tmp_path_factory):
    """The generated package, from the live server's schema; no warning while generating."""
    folder = tmp_path_factory.mktemp("client")
    schema = httpx.get(f"{live_server.url}/api/schema/?format=json")
    assert schema.status_code == 200
    (folder / "schema.json").write_bytes(schema.content)
    # The generator formats its code with ruff by default: nothing here reads it but Python.
    (folder / "config.json").write_text(json.dumps({"post_hooks": []}))
    made = subprocess.run(
        [str(Path(sys.executable).parent / "openapi-python-client"), "generate",
         "--path", str(folder / "schema.json"), "--config", str(folder / "config.json"),
         "--meta", "none", "--output-path", str(folder / PACKAGE)],
        capture_output=True, text=True, cwd=folder, check=False)
    assert made.returncode == 0, made.stdout + made.stderr
    assert "Warning" not in made.stdout + made.stderr, made.stdout + made.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def _module(api, dotted):
    return importlib.import_module(f"{PACKAGE}.{dotted}")


def _move_body(api, slug, candidate):
    """The move as the client's model of it: the component of this game's move, which must hold
    every field the move sends (an undeclared one would be dropped, and the body differ)."""
    kind = candidate["type"]
    name = f"{slug.title()}{kind.title().replace('_', '')}MoveRequest"
    body = getattr(_module(api, "models"), name).from_dict({"type": kind, **candidate["data"]})
    assert body.to_dict() == {"type": kind, **candidate["data"]}, name
    return body


def _sender(rules, state, candidate, guest_seat):
    """Who sends a move, as a table would: the guest's phone for its own seat's moves and, now
    and then, the table's; the host's for the rest (any seat's, the game's end)."""
    level, seats = engine.move_authority(rules, candidate["type"], candidate["data"], state)
    if level in (engine.OWN, engine.SEAT) and guest_seat in seats:
        return "guest"
    if level == engine.TABLE and candidate["actor"] == guest_seat:
        return "guest"
    return "host"


@pytest.mark.parametrize("slug", GAMES)
def test_a_generated_client_plays_a_whole_game(api, live_server, transactional_db, settings,
                                              slug):
    client_module = _module(api, "client")
    types = _module(api, "types")
    models = _module(api, "models")
    nobody = client_module.Client(base_url=live_server.url, raise_on_unexpected_status=True)

    registered = _module(api, "api.auth.auth_register_create").sync_detailed(
        client=nobody, body=models.CredentialsRequest(username=f"host-{slug}",
                                                      password="a long table password"))
    assert registered.status_code == 201, registered.content
    host = client_module.AuthenticatedClient(base_url=live_server.url,
                                             token=registered.parsed.token, prefix="Token",
                                             raise_on_unexpected_status=True)

    rules = plugins.rules_of(slug)
    names = [f"Seat {index}" for index in range(max(rules.min_players, 2))]
    created = _module(api, "api.sessions.sessions_create").sync_detailed(
        client=host, body=models.SessionCreateRequest.from_dict(
            {"game": slug, "players": names, "options": option_sets(slug)[0]}))
    assert created.status_code == 201, created.content
    session = created.parsed
    # The dice and the cards come from the session's seed, which the API never shows: fixed
    # here, so that the game played is the same on every run.
    Session.objects.filter(pk=session.id).update(seed=f"client{slug}")

    guest_seat = 1
    joined = _module(api, "api.join.join_create").sync_detailed(
        client=nobody, body=models.JoinRequest(code=session.code, seat=guest_seat))
    assert joined.status_code == 201, joined.content
    guest_token = joined.parsed.token

    play = _module(api, "api.sessions.sessions_moves_create")
    candidates = candidates_of(slug)
    rng = random.Random(f"client:{slug}")
    sent = {"host": 0, "guest": 0}
    for _try in range(MAX_MOVES):
        state = Session.objects.get(pk=session.id).state
        if rules.finished(state):
            break
        drawn = candidates(state, rng)
        rng.shuffle(drawn)
        for candidate in drawn:
            sender = _sender(rules, state, candidate, guest_seat)
            body = _move_body(api, slug, candidate)
            if sender == "guest":
                answer = play.sync_detailed(session.id, client=nobody, body=body,
                                            x_guest_token=guest_token)
            else:
                answer = play.sync_detailed(session.id, client=host, body=body)
            # 400: the rules refuse this draw, another is tried (the samples are plausible
            # moves, legal or not); anything else but 201 is the client's or the schema's fault.
            assert answer.status_code in (201, 400), (candidate, answer.content)
            if answer.status_code == 201:
                assert isinstance(answer.parsed, models.MovePlayed)
                sent[sender] += 1
                break

    read = _module(api, "api.sessions.sessions_retrieve").sync_detailed(
        session.id, client=nobody, x_guest_token=guest_token)
    assert read.status_code == 200
    assert read.parsed.status == models.SessionStatusEnum.FINISHED, (slug, sent)
    assert sent["guest"] and sent["host"], sent
    assert isinstance(read.parsed.standings, list) and not isinstance(read.parsed.share,
                                                                      types.Unset)
