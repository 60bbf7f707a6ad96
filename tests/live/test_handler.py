"""The ASGI handler (companion/handler.py): a plain view is served whole on one thread of its
pool, an event stream by Django's ASGI handler, and a streamed answer (the results CSV, a static
file) comes through the server whole."""

import asyncio
import threading
from pathlib import Path

import httpx
import pytest
from django.test import Client

from companion import handler
from companion.api import views
from tests.factories import UserFactory, played
from tests.views.helpers import off_the_loop

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_event_streams_are_the_asynchronous_views():
    assert handler._async_view("/s/12/stream/")
    assert handler._async_view("/api/sessions/12/events/")
    assert handler._async_view("/board/abc/stream/")
    assert not handler._async_view("/api/health/")
    assert not handler._async_view("/s/12/")
    assert not handler._async_view("/no/such/page/")
    assert handler._path_in_app({"path": "/companion/s/1/stream/",
                                 "root_path": "/companion"}) == "/s/1/stream/"


def test_a_plain_view_runs_with_its_middleware_on_a_thread_of_the_pool(monkeypatch):
    from companion.asgi import application

    seen = {}
    get = views.Health.get

    def noting(self, request, *args, **kwargs):
        seen["view"] = threading.current_thread().name
        seen["language"] = request.LANGUAGE_CODE  # LocaleMiddleware ran before it
        return get(self, request, *args, **kwargs)

    monkeypatch.setattr(views.Health, "get", noting)
    answer = {"body": b""}
    bodies = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive():  # the request's body, then nothing: the phone stays
        if bodies:
            return bodies.pop()
        await asyncio.Event().wait()

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        else:
            answer["body"] += message.get("body", b"")

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": "/api/health/",
             "raw_path": b"/api/health/", "query_string": b"", "root_path": "",
             "headers": [(b"host", b"testserver"), (b"accept-language", b"es")],
             "client": ("127.0.0.1", 50000), "server": ("testserver", 80)}
    off_the_loop(lambda: asyncio.run(application(scope, receive, send)))
    assert answer["status"] == 200, answer
    assert seen == {"view": seen["view"], "language": "es"}
    assert seen["view"].startswith("companion-view")


def test_a_streamed_answer_comes_through_the_server_whole(server):
    alice = UserFactory(username="alice")
    played(alice)
    played(alice, moves=((1, 10), (1, 10)))
    client = Client()
    client.force_login(alice)
    cookies = {"sessionid": client.cookies["sessionid"].value}
    response = httpx.get(f"{server.url}/history/results.csv", cookies=cookies)
    assert response.status_code == 200
    assert response.headers["content-disposition"].startswith("attachment;")
    assert len(response.text.strip().splitlines()) == 1 + 4  # the header, two plays of two seats

    static = httpx.get(f"{server.url}/static/js/table.js")
    assert static.status_code == 200
    assert static.content == (Path(__file__).resolve().parents[2] / "static/js/table.js"
                              ).read_bytes()
