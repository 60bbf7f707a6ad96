"""The event streams against a real ASGI server: at once on connect, then every new version."""

import contextlib
import json
import queue
import threading
import time

import httpx
import pytest
from django.test import Client

from companion import services
from tests.factories import UserFactory, session_for

pytestmark = pytest.mark.django_db(transaction=True)


def read_events(url, headers, found, stop, cookies=None):
    """Collect (event, data) pairs of a stream on a thread until `stop` is set."""
    with contextlib.suppress(httpx.HTTPError):  # the server goes away at the module's end
        _read_events(url, headers, found, stop, cookies)


def _read_events(url, headers, found, stop, cookies):
    with httpx.Client(timeout=httpx.Timeout(5, read=20), cookies=cookies) as client, \
            client.stream("GET", url, headers=headers) as response:
        found.put(("status", response.status_code, time.monotonic()))
        name, data = None, []
        for line in response.iter_lines():
            if stop.is_set():
                return
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])
            elif line == "" and name:
                found.put((name, "\n".join(data), time.monotonic()))
                name, data = None, []


def open_stream(url, headers=None, cookies=None):
    found, stop = queue.Queue(), threading.Event()
    thread = threading.Thread(target=read_events, args=(url, headers or {}, found, stop, cookies),
                              daemon=True)
    thread.start()
    return found, stop


def next_event(found, name, timeout=5):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            event = found.get(timeout=deadline - time.monotonic())
        except queue.Empty:
            break
        if event[0] == name:
            return event
    raise AssertionError(f"no {name!r} event within {timeout} s")


def host_token(user):
    return {"Authorization": f"Token {services.token_for(user=user)}"}


def test_the_api_stream_sends_the_version_at_once_then_each_move(server):
    alice = UserFactory(username="alice")
    game = session_for(alice)
    found, stop = open_stream(f"{server.url}/api/sessions/{game.pk}/events/", host_token(alice))
    assert next_event(found, "status")[1] == 200
    assert json.loads(next_event(found, "version")[1]) == {"version": 0}

    response = httpx.post(f"{server.url}/api/sessions/{game.pk}/moves/",
                          json={"type": "add", "seat": 0, "points": 2}, headers=host_token(alice))
    # From the answer, not from the sending: on a loaded 2-core machine the POST alone has taken
    # over a second (1.08 s from sending to the push, the suite's last minute), and the push
    # follows the commit, which comes before the answer.
    answered = time.monotonic()
    assert response.status_code == 201
    _, data, seen = next_event(found, "version")
    assert json.loads(data) == {"version": 1}
    assert seen - answered < 1.0
    stop.set()


def test_the_api_stream_has_the_sessions_access(server):
    alice, charlie = UserFactory(username="alice"), UserFactory(username="charlie")
    game = session_for(alice)
    other = services.guest_join(code=session_for(alice).code)
    url = f"{server.url}/api/sessions/{game.pk}/events/"
    assert httpx.get(url).status_code == 404
    assert httpx.get(url, headers=host_token(charlie)).status_code == 404
    assert httpx.get(url, headers={"X-Guest-Token": other.token}).status_code == 403


def test_the_page_stream_pushes_rendered_fragments(server):
    alice = UserFactory(username="alice")
    game = session_for(alice)
    guest = services.guest_join(code=game.code, seat=1)
    found, stop = open_stream(f"{server.url}/s/{game.pk}/stream/",
                              cookies={f"guest{game.pk}": guest.token})
    assert next_event(found, "status")[1] == 200
    next_event(found, "version")
    services.move_play(session=game, type="add", data={"seat": 1, "points": 4},
                       actor=services.Actor(user=alice))
    scoreboard = next_event(found, "scoreboard")[1]
    assert "Peter" in scoreboard and ">4<" in scoreboard
    assert "Peter +4" in next_event(found, "log")[1]
    assert "Undo: Peter +4" in next_event(found, "undo")[1]
    stop.set()


def test_a_phone_in_step_is_pushed_only_the_fragments_that_changed(server):
    alice = UserFactory(username="alice")
    game = session_for(alice)
    guest = services.guest_join(code=game.code, seat=1)
    found, stop = open_stream(f"{server.url}/s/{game.pk}/stream/",
                              cookies={f"guest{game.pk}": guest.token})
    assert next_event(found, "status")[1] == 200
    next_event(found, "version")

    def pushed():
        names = []
        while (event := found.get(timeout=5))[0] != "version":
            names.append(event[0])
        return names

    # The first push to a phone carries every fragment; the next only those that changed: the
    # host taking a seat is a new version, with the same log and last move.
    services.move_play(session=game, type="add", data={"seat": 1, "points": 4},
                       actor=services.Actor(user=alice))
    assert {"scoreboard", "now", "log", "undo"} <= set(pushed())
    services.session_host_seat(session=game, seat=0)
    assert not {"now", "log"} & set(pushed())
    stop.set()


def test_a_stream_opened_anew_brings_a_page_the_moves_it_missed(server):
    """The page's stream address names the version the page was drawn at: a stream opened anew
    without Last-Event-ID (htmx's, after an error answer) still brings the table up to date."""
    alice = UserFactory(username="alice")
    game = session_for(alice)
    guest = services.guest_join(code=game.code, seat=1)
    for points in (4, 5):  # two moves while the page's stream was away
        game.refresh_from_db()
        services.move_play(session=game, type="add", data={"seat": 1, "points": points},
                           actor=services.Actor(user=alice))
    cookies = {f"guest{game.pk}": guest.token}
    found, stop = open_stream(f"{server.url}/s/{game.pk}/stream/?shown=0", cookies=cookies)
    assert next_event(found, "status")[1] == 200
    assert json.loads(next_event(found, "version")[1]) == {"version": 2}
    scoreboard = next_event(found, "scoreboard")[1]
    assert "Peter" in scoreboard and ">9<" in scoreboard
    stop.set()
    page = httpx.get(f"{server.url}/s/{game.pk}/", cookies=cookies).text
    assert f'/s/{game.pk}/stream/?shown=2"' in page
    found, stop = open_stream(f"{server.url}/board/{game.board_key}/stream/?shown=0")
    assert ">9<" in next_event(found, "scoreboard")[1]  # the board screen too
    stop.set()


def test_the_board_stream_is_read_only_fragments(server):
    alice = UserFactory(username="alice")
    game = session_for(alice)
    found, stop = open_stream(f"{server.url}/board/{game.board_key}/stream/")
    next_event(found, "version")
    services.move_play(session=game, type="add", data={"seat": 0, "points": 3},
                       actor=services.Actor(user=alice))
    assert "Vanessa +3" in next_event(found, "log")[1]
    stop.set()
    assert httpx.get(f"{server.url}/board/nope/stream/").status_code == 404


def test_a_phone_taking_a_seat_tells_the_tables_pages_and_the_board_not_the_api(server):
    """No version: the phones' open forms stay good. The pages and the board are told, and draw
    what shows the seats anew (table.js); the API's stream says versions only (api.md)."""
    alice = UserFactory(username="alice")
    game = session_for(alice)
    seated = services.guest_join(code=game.code)  # a phone at the table, no seat yet
    host = Client()
    host.force_login(alice)
    found_host, stop_host = open_stream(f"{server.url}/s/{game.pk}/stream/",
                                        cookies={"sessionid": host.cookies["sessionid"].value})
    found_board, stop_board = open_stream(f"{server.url}/board/{game.board_key}/stream/")
    found_phone, stop_phone = open_stream(f"{server.url}/s/{game.pk}/stream/",
                                          cookies={f"guest{game.pk}": seated.token})
    found_api, stop_api = open_stream(f"{server.url}/api/sessions/{game.pk}/events/",
                                      host_token(alice))
    streams = (found_host, found_board, found_phone, found_api)
    for found in streams:
        assert next_event(found, "status")[1] == 200
        next_event(found, "version")

    services.guest_join(code=game.code, seat=1)
    for found in streams[:3]:
        next_event(found, "seats")
    game.refresh_from_db()
    assert game.version == 0  # no version: nothing pushed but the word
    services.move_play(session=game, type="add", data={"seat": 0, "points": 2},
                       actor=services.Actor(user=alice))
    # The API's next event is the move's version: it never heard of the seat.
    assert found_api.get(timeout=5)[:2] == ("version", '{"version": 1}')
    for stop in (stop_host, stop_board, stop_phone, stop_api):
        stop.set()
