"""Issue 19's bad inputs sent for real: over HTTP to a server process (uvicorn, as `make run`
serves), not through Django's test client, so that what the HTTP server itself does with a NUL, a
non-ASCII header, a huge or deeply nested body is part of the answer. Each answers a 4xx with a
sentence, and nothing in the database changes."""

import json

import httpx
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from companion import services
from companion.access import guest_cookie_name
from companion.models import Guest, Move, Player, Seat, Session
from tests.factories import UserFactory, session_for
from tests.servers import ProcessServer, database_url_of


def world():
    return (get_user_model().objects.count(), Player.objects.count(), Session.objects.count(),
            Seat.objects.count(), Move.objects.count(), Guest.objects.count(),
            list(Session.objects.values_list("pk", "version")))


def deep(levels):
    return "[" * levels + "]" * levels


def api_cases(game, export):
    """(name, method, path, keyword arguments of httpx, the status expected)."""
    moves = f"/api/sessions/{game.pk}/moves/"
    add = {"type": "turn"}
    big = "a" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)
    return [
        ("NUL in a query parameter", "GET", "/api/sessions/?game=%00", {}, 400),
        ("NUL in a player's name", "POST", "/api/players/", {"json": {"name": "Pe\x00ter"}},
         400),
        ("NUL in a seat's name", "POST", "/api/sessions/",
         {"json": {"game": "quixote", "players": ["Ana", "B\x00o"]}}, 400),
        ("NUL in a user name", "POST", "/api/auth/register/",
         {"json": {"username": "do\x00ra", "password": "windmills at dusk"}}, 400),
        ("NUL in an import field", "POST", "/api/sessions/import/",
         {"json": {**export, "seats": [{**export["seats"][0], "name": "A\x00"},
                                       *export["seats"][1:]]}}, 400),
        ("² in If-Match", "POST", moves,
         {"json": add, "headers": {"If-Match": '"²"'.encode()}}, 400),
        ("² in If-None-Match", "GET", f"/api/sessions/{game.pk}/",
         {"headers": {"If-None-Match": '"²"'.encode()}}, 400),
        ("² in ?after=", "GET", f"{moves}?after=%C2%B2", {}, 400),
        ("Idempotency-Key of 101", "POST", moves,
         {"json": add, "headers": {"Idempotency-Key": "k" * 101}}, 400),
        ("user name of 151", "POST", "/api/auth/register/",
         {"json": {"username": "d" * 151, "password": "windmills at dusk"}}, 400),
        ("import seed of 33", "POST", "/api/sessions/import/", {"json": {**export,
                                                                         "seed": "s" * 33}},
         400),
        ("undone move's type of 41", "POST", "/api/sessions/import/",
         {"json": {**export, "moves": [export["moves"][0],
                                       {**export["moves"][1], "type": "t" * 41}]}}, 400),
        ("move type a list", "POST", moves, {"json": {**add, "type": ["add"]}}, 400),
        ("player id text", "POST", "/api/sessions/",
         {"json": {"game": "quixote", "players": [{"player": "abc"}, "Bo"]}}, 400),
        ("import seq text", "POST", "/api/sessions/import/",
         {"json": {**export, "moves": [{**export["moves"][0], "seq": "abc"}]}}, 400),
        ("JSON 5,000 levels deep", "POST", moves,
         {"content": '{"type": "turn", "field": ' + deep(5000) + "}",
          "headers": {"Content-Type": "application/json"}}, 400),
        ("40,000 undone moves", "POST", "/api/sessions/import/",
         {"json": {**export, "moves": export["moves"] + [
             {**export["moves"][1], "seq": 3 + n} for n in range(40_000)]}}, None),
        ("non-numeric {id}", "GET", "/api/sessions/abc/", {}, 404),
        ("over-large body", "POST", "/api/sessions/",
         {"content": '{"game": "quixote", "players": ["' + big + '"]}',
          "headers": {"Content-Type": "application/json"}}, None),
    ]


def page_cases(game):
    table = f"/s/{game.pk}/"
    return [
        ("² as expected_version", "POST", f"{table}move/",
         {"data": {"type": "turn", "expected_version": "²"}}, 400,
         "The version is a whole number"),
        ("payload 5,000 levels deep", "POST", f"{table}move/",
         {"data": {"type": "turn", "payload": '{"field": ' + deep(5000) + "}"}},
         400, "nested too deeply"),
        ("form key of 101", "POST", f"{table}move/",
         {"data": {"type": "turn", "idempotency_key": "k" * 101}},
         400, "too long"),
        ("NUL in a form field", "POST", "/players/", {"data": {"name": "Pe\x00ter"}}, 400,
         "control characters"),
        ("² as ?upto=", "GET", f"/history/sessions/{game.pk}/?upto=%C2%B2", {}, 400,
         "The move is a whole number"),
        ("² as Last-Event-ID", "GET", f"{table}stream/",
         {"headers": {"Last-Event-ID": "²".encode()}}, 400, "Last-Event-ID is a whole number"),
        ("/join/?code=a/b", "GET", "/join/?code=a/b", {}, 404, "No game is open with the code"),
    ]


def seat_cases(game):
    return [
        ("² as seat= on the join form", "POST", f"/join/{game.code}/", {"data": {"seat": "²"}},
         400, "The seat is a whole number"),
        ("² as seat= on the seat form", "POST", f"/s/{game.pk}/seat/", {"data": {"seat": "²"}},
         400, "The seat is a whole number"),
    ]


def csrf_ready(client, url):
    """The CSRF cookie a page's form carries, set by reading the page as a browser does."""
    page = client.get(url)
    assert page.status_code == 200, page.status_code
    client.headers["X-CSRFToken"] = client.cookies["csrftoken"]
    client.headers["Referer"] = url


@pytest.mark.django_db(transaction=True)
def test_every_class_of_bad_input_sent_over_http_is_a_4xx_with_a_sentence():
    alice = UserFactory(username="alice")
    # A product game: the server process knows only the installed games.
    game = session_for(alice, game="quixote", options={"deck": "app"})
    for move_type in ("castles", "turn"):
        services.move_play(session=game, type=move_type, data={},
                           actor=services.Actor(user=alice))
    services.move_undo(session=game, actor=services.Actor(user=alice))
    browser = Client()
    browser.force_login(alice)
    export = browser.get(f"/api/sessions/{game.pk}/export/").json()
    server = ProcessServer(database_url_of(connection))
    seen, wrong = [], []
    try:
        before = world()
        token = services.token_for(user=alice)
        with httpx.Client(base_url=server.url, timeout=30,
                          headers={"Authorization": f"Token {token}"}) as api:
            for name, method, path, kwargs, status in api_cases(game, export):
                response = api.request(method, path, **kwargs)
                seen.append((name, response.status_code))
                try:
                    body = response.json()
                    ok = (response.status_code == status if status else
                          400 <= response.status_code < 500)
                    ok = ok and len(body["detail"].split()) >= 3
                except (ValueError, KeyError, TypeError):
                    ok = False
                if not ok:
                    wrong.append((name, response.status_code, response.text[:200]))
        with httpx.Client(base_url=server.url, timeout=30,
                          cookies={"sessionid": browser.cookies["sessionid"].value}) as host:
            csrf_ready(host, f"{server.url}/s/{game.pk}/")
            checks = page_cases(game)
            for name, method, path, kwargs, status, words in checks:
                response = host.request(method, path, **kwargs)
                seen.append((name, response.status_code))
                if response.status_code != status or words not in response.text:
                    wrong.append((name, response.status_code, response.text[:200]))
        assert world() == before
        with httpx.Client(base_url=server.url, timeout=30) as phone:
            csrf_ready(phone, f"{server.url}/join/{game.code}/")
            join, seat = seat_cases(game)
            guest = services.guest_join(code=game.code)
            before = world()
            phone.cookies.set(guest_cookie_name(game.pk), guest.token)
            for name, method, path, kwargs, status, words in (join, seat):
                response = phone.request(method, path, **kwargs)
                seen.append((name, response.status_code))
                if response.status_code != status or words not in response.text:
                    wrong.append((name, response.status_code, response.text[:200]))
        assert world() == before
    finally:
        server.stop()
    print("\n" + "\n".join(f"{name}: {status}" for name, status in seen))
    assert not wrong, json.dumps(wrong, indent=1, ensure_ascii=False)
