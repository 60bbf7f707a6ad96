"""Rate limits: failed joins, wrong passwords (per account and per client), registrations and the
phones a session takes answer 429 with Retry-After and a sentence; play and right codes are never
limited; the counts hold across server processes (they share the limits cache)."""

import httpx
import pytest
from django.core.cache import caches
from django.db import connection

from companion import services
from tests.conftest import api_client
from tests.factories import UserFactory, session_for
from tests.servers import ProcessServer, database_url_of

SMALL = {"join_failures": "3/h", "login_failures_account": "3/15m",
         "login_failures_client": "5/15m", "registrations": "2/h", "names_taken": "3/h"}


@pytest.fixture(autouse=True)
def small_limits(settings, db):
    settings.LIMITS = SMALL
    caches["limits"].clear()
    yield
    caches["limits"].clear()


def limited(response):
    """A 429 with Retry-After and a sentence (a test client's answer or an httpx one)."""
    assert response.status_code == 429, response.content[:300]
    assert int(response.headers["Retry-After"]) > 0
    assert len(response.json()["detail"]) > 20
    return response.json()


def test_failed_joins_are_limited_per_client(alice, anonymous):
    game = session_for(alice)
    for _ in range(3):
        assert anonymous.post("/api/join/", {"code": "ZZZZZZ"}, format="json").status_code == 404
    limited(anonymous.post("/api/join/", {"code": "ZZZZZZ"}, format="json"))
    # Checked before the code: past the limit, a guesser learns nothing, a right code included.
    limited(anonymous.post("/api/join/", {"code": game.code}, format="json"))
    # Another address is not limited.
    assert api_client().post("/api/join/", {"code": game.code}, format="json",
                             REMOTE_ADDR="10.0.0.9").status_code == 201


def test_six_phones_behind_one_address_join_the_right_code(alice, anonymous):
    game = session_for(alice)
    for _ in range(6):
        assert anonymous.post("/api/join/", {"code": game.code},
                              format="json").status_code == 201


def test_the_join_page_counts_the_same_failures(client, alice):
    for _ in range(3):
        assert client.get("/join/ZZZZZZ/").status_code == 404
    response = client.get("/join/ZZZZZZ/")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert "Too many codes" in response.content.decode()
    assert api_client().post("/api/join/", {"code": "ZZZZZZ"}, format="json").status_code == 429


def test_a_locked_account_refuses_even_the_right_password(alice, anonymous):
    wrong = {"username": "alice", "password": "not it at all"}
    for number in range(3):
        assert anonymous.post("/api/auth/token/", wrong, format="json",
                              REMOTE_ADDR=f"10.0.0.{number}").status_code == 400
    right = {"username": "alice", "password": "a long table password"}
    body = limited(anonymous.post("/api/auth/token/", right, format="json",
                                  REMOTE_ADDR="10.0.1.1"))
    assert "wrong passwords" in body["detail"]


def test_a_look_alike_spelling_of_a_locked_account_is_the_same_account(alice, client):
    """Fullwidth letters ("ａｌｉｃｅ") sign in to alice, as the form reads them: they counted
    wrong passwords of their own, and signed in to the account locked under "alice"."""
    for number, name in enumerate(["alice", "ALICE", "ａｌｉｃｅ"]):
        response = client.post("/login/", {"username": name, "password": "nope"},
                               REMOTE_ADDR=f"10.0.2.{number}")
        assert response.status_code == 200
    right = {"username": "ａｌｉｃe", "password": "a long table password"}
    response = client.post("/login/", right, REMOTE_ADDR="10.0.3.1")
    assert response.status_code == 429 and "wrong passwords" in response.content.decode()


def test_the_admins_sign_in_is_limited_as_the_apps(client, db):
    UserFactory(username="opadmin", is_staff=True, is_superuser=True)
    for number in range(3):
        response = client.post("/admin/login/", {"username": "opadmin", "password": "nope"},
                               REMOTE_ADDR=f"10.0.4.{number}")
        assert response.status_code == 200
    right = {"username": "opadmin", "password": "a long table password", "next": "/admin/"}
    response = client.post("/admin/login/", right, REMOTE_ADDR="10.0.5.1")
    assert response.status_code == 429
    assert "Too many wrong passwords" in response.content.decode()
    assert "_auth_user_id" not in client.session
    caches["limits"].clear()
    response = client.post("/admin/login/", right, REMOTE_ADDR="10.0.5.1")
    assert response.status_code == 302 and response.url == "/admin/"
    assert client.get("/admin/").status_code == 200


def test_wrong_passwords_are_limited_per_client_across_accounts(client, db):
    for number in range(5):
        UserFactory(username=f"host{number}")
        response = client.post("/login/", {"username": f"host{number}", "password": "nope"})
        assert response.status_code == 200  # the form again, with its sentence
    response = client.post("/login/", {"username": "host0", "password": "a long table password"})
    assert response.status_code == 429
    assert "wrong passwords" in response.content.decode()


def test_registrations_are_limited_per_client(anonymous, client):
    for name in ("dora", "ema"):
        assert anonymous.post("/api/auth/register/", {"username": name,
                                                      "password": "windmills at dusk"},
                              format="json").status_code == 201
    limited(anonymous.post("/api/auth/register/", {"username": "fay",
                                                   "password": "windmills at dusk"},
                           format="json"))
    assert client.post("/signup/", {"username": "gus", "password": "windmills at dusk"}
                       ).status_code == 429


def test_names_tried_that_are_taken_are_limited_per_client(anonymous, client):
    """The answer to a taken name tells it from a free one: counted on the API and the sign-up
    page alike, and past the limit a free name is refused too (checked before the lookup), so a
    stranger cannot list the accounts' names."""
    for name in ("alice", "bob"):
        UserFactory(username=name)
    for name in ("alice", "bob"):
        assert anonymous.post("/api/auth/register/", {"username": name,
                                                      "password": "windmills at dusk"},
                              format="json").status_code == 400
    assert client.post("/signup/", {"username": "ALICE", "password": "windmills at dusk"}
                       ).status_code == 400
    detail = limited(anonymous.post("/api/auth/register/", {"username": "nobody-yet",
                                                            "password": "windmills at dusk"},
                                    format="json"))["detail"]
    assert "names that are taken" in detail
    response = client.post("/signup/", {"username": "nobody-yet", "password": "windmills at dusk"})
    assert response.status_code == 429
    assert "names that are taken" in response.content.decode()


def test_a_refused_registration_is_not_counted_as_an_account(anonymous, client):
    """A password refused as too common, tried again and again, made no account: the person
    who then chooses a good one is not told that too many accounts were made."""
    for _ in range(5):
        assert anonymous.post("/api/auth/register/", {"username": "hal", "password": "password"},
                              format="json").status_code == 400
    assert client.post("/signup/", {"username": "ivy", "password": "password"}
                       ).status_code == 400
    assert anonymous.post("/api/auth/register/", {"username": "hal",
                                                  "password": "windmills at dusk"},
                          format="json").status_code == 201


def test_a_session_takes_a_bounded_number_of_phones(alice, anonymous, settings):
    settings.GUESTS_PER_SESSION = 4
    game = session_for(alice)
    for _ in range(4):
        services.guest_join(code=game.code)
    body = limited(anonymous.post("/api/join/", {"code": game.code}, format="json"))
    assert "4 phones" in body["detail"]
    assert game.guests.count() == 4
    # Four seatless phones (anyone with the code) do not keep a player from a seat: the first
    # of them makes room.
    first = game.guests.order_by("created_at", "pk").first()
    assert anonymous.post("/api/join/", {"code": game.code, "seat": 1},
                          format="json").status_code == 201
    assert game.guests.count() == 4 and not game.guests.filter(pk=first.pk).exists()
    assert list(game.guests.exclude(seat=None).values_list("seat", flat=True)) == [1]


@pytest.mark.django_db(transaction=True)
def test_the_limits_hold_across_two_server_processes():
    """Every limit, its attempts sent to two server processes in turn: the fourth is refused
    whichever process it reaches (the counts live in the shared cache, or the database)."""
    env = {"LIMIT_JOIN_FAILURES": "3/h", "LIMIT_LOGIN_FAILURES_ACCOUNT": "3/15m",
           "LIMIT_LOGIN_FAILURES_CLIENT": "3/15m", "LIMIT_REGISTRATIONS": "3/h",
           "GUESTS_PER_SESSION": "3"}
    alice = UserFactory(username="alice")
    for number in range(3):
        UserFactory(username=f"host{number}")
    game = session_for(alice)
    url = database_url_of(connection)
    servers = [ProcessServer(url, env=env), ProcessServer(url, env=env)]

    def four(path, bodies):
        """The statuses of the four attempts, the refused fourth checked as every 429 is."""
        with httpx.Client(timeout=10) as client:
            answers = [client.post(f"{servers[n % 2].url}{path}", json=body)
                       for n, body in enumerate(bodies)]
        if answers[-1].status_code == 429:
            limited(answers[-1])
        return [answer.status_code for answer in answers]

    try:
        assert four("/api/join/", [{"code": "ZZZZZZ"}] * 4) == [404, 404, 404, 429]
        caches["limits"].clear()
        wrong = {"username": "alice", "password": "nope"}
        assert four("/api/auth/token/", [wrong] * 4) == [400, 400, 400, 429]
        caches["limits"].clear()
        others = [{"username": f"host{n % 3}", "password": "nope"} for n in range(4)]
        assert four("/api/auth/token/", others) == [400, 400, 400, 429]
        caches["limits"].clear()
        names = [{"username": f"new{n}", "password": "windmills at dusk"} for n in range(4)]
        assert four("/api/auth/register/", names) == [201, 201, 201, 429]
        caches["limits"].clear()
        assert four("/api/join/", [{"code": game.code}] * 4) == [201, 201, 201, 429]
    finally:
        for server in servers:
            server.stop()
        caches["limits"].clear()


def test_play_is_never_limited(as_alice, alice):
    """A script posts moves, refused ones too, as fast as the server answers: no limit counts
    them, however small the limits are."""
    game = session_for(alice)
    moves = f"/api/sessions/{game.pk}/moves/"
    for _ in range(12):
        assert as_alice.post(moves, {"type": "add", "seat": 0, "points": 1},
                             format="json").status_code == 201
        assert as_alice.post(f"/api/sessions/{game.pk}/undo/").status_code == 200
        assert as_alice.post(moves, {"type": "add", "seat": 9, "points": 1},
                             format="json").status_code == 400
    assert as_alice.get(f"/api/sessions/{game.pk}/").status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("trusted, last_status", [("", 429), ("127.0.0.1", 404)])
def test_forwarded_addresses_are_believed_only_from_the_proxies_named(trusted, last_status):
    """A client on 127.0.0.1 (a tunnel, a proxy that passes the header along) naming a new
    address in X-Forwarded-For on every attempt is still one client, unless TRUSTED_PROXIES
    names 127.0.0.1 as a proxy: the server started as `make run` starts it (bin/serve)."""
    env = {"LIMIT_JOIN_FAILURES": "3/h", "TRUSTED_PROXIES": trusted}
    server = ProcessServer(database_url_of(connection), env=env)
    try:
        with httpx.Client(timeout=10) as client:
            statuses = [client.post(f"{server.url}/api/join/", json={"code": "ZZZZZZ"},
                                    headers={"X-Forwarded-For": f"10.9.0.{n}"}).status_code
                        for n in range(4)]
    finally:
        server.stop()
        caches["limits"].clear()
    assert statuses == [404, 404, 404, last_status]
