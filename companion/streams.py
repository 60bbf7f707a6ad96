"""Event streams (text/event-stream), served by the ASGI server.

- /api/sessions/{id}/events/: `{"version": n}` at once and after every move or undo (api.md).
- /s/{id}/stream/: the table page's stream; it pushes the rendered fragments themselves, so a
  move costs the other phones no request (ARCHITECTURE.md, "Live updates and load").

A stream holds no database connection while it waits: each read opens and closes its own.
"""

import asyncio
import json
import threading
from collections import OrderedDict

from asgiref.sync import sync_to_async
from django.db import close_old_connections, connections
from django.http import Http404, HttpResponseBadRequest, StreamingHttpResponse

from companion import fragments, inputs, live
from companion.access import session_access
from companion.errors import Refused
from companion.models import Session

KEEPALIVE_SECONDS = 15
# Sessions whose fragments a server process keeps (the rest are rendered again when pushed).
SESSIONS_KEPT = 1000


def _read(function):
    """Run ORM code on a worker thread and give its connection back at once."""

    def run(*args, **kwargs):
        close_old_connections()
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    return sync_to_async(run, thread_sensitive=False)


def event(name, data, version=None):
    lines = [f"id: {version}"] if version is not None else []
    lines.append(f"event: {name}")
    lines += [f"data: {line}" for line in data.splitlines() or [""]]
    return "\n".join(lines) + "\n\n"


@_read
def _access(request, pk, cookies):
    session, actor = session_access(request, pk, cookies=cookies)
    return session.pk, session.version, actor.seat, actor.is_host, session.game


@_read
def _current_version(pk):
    return Session.objects.filter(pk=pk).values_list("version", flat=True).first()


def _stream_response(generator):
    response = StreamingHttpResponse(generator, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def _versions(session_id, known):
    """Yield each new version of the session (newer than `known`); None every keepalive."""
    queue = asyncio.Queue()
    live.subscribe(session_id, queue)
    try:
        # Anything committed between the access check and the subscription is caught here.
        current = await _current_version(session_id)
        if current is not None and current > known:
            known = current
            yield current
        while True:
            try:
                version = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
            except TimeoutError:
                yield None
                continue
            while not queue.empty():  # several moves at once: only the newest matters
                version = max(version, queue.get_nowait())
            if version > known:
                known = version
                yield version
    finally:
        live.unsubscribe(session_id, queue)


async def session_events(request, pk):
    try:
        session_id, version, _seat, _host, _game = await _access(request, pk, False)
    except Refused as refusal:
        from django.http import JsonResponse

        return JsonResponse({"detail": refusal.message, "code": refusal.code},
                            status=refusal.status)

    async def stream():
        yield event("version", json.dumps({"version": version}), version)
        async for new in _versions(session_id, version):
            if new is None:
                yield ": keepalive\n\n"
            else:
                yield event("version", json.dumps({"version": new}), new)

    return _stream_response(stream())


# The page stream: fragments rendered once per version and session in this process ------------

class Bounded(OrderedDict):
    """A dict that keeps its `size` most recently used entries: a server process that lives for
    months serves many sessions, and only the ones being played need their fragments."""

    def __init__(self, size):
        super().__init__()
        self.size = size

    def get(self, key, default=None):
        if key in self:
            self.move_to_end(key)
            return self[key]
        return default

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


class FragmentCache:
    """The latest fragments of each session, so that N phones cost one render, not N. Bounded:
    the least recently pushed sessions are forgotten first (a push then renders them again)."""

    def __init__(self, sessions=SESSIONS_KEPT):
        self._lock = threading.Lock()
        self._shared = Bounded(sessions)  # session id -> (version, {name: html})
        # (session id, viewer, is_host) -> (version, html): a few phones per session.
        self._panels = Bounded(sessions * 8)
        self._locks = Bounded(sessions)  # (session id, event loop) -> asyncio.Lock
        self.renders = 0

    @staticmethod
    @_read
    def _render_shared(pk):
        session = Session.objects.select_related("owner").get(pk=pk)
        return session.version, fragments.render_shared(session)

    @staticmethod
    @_read
    def _render_panel(pk, viewer, is_host):
        session = Session.objects.select_related("owner").get(pk=pk)
        return session.version, fragments.render_panel(session, viewer, is_host)

    async def shared(self, pk, version):
        cached = self._shared.get(pk)
        if cached is None or cached[0] < version:
            async with self._session_lock(pk):
                cached = self._shared.get(pk)
                if cached is None or cached[0] < version:
                    cached = await self._render_shared(pk)
                    self.renders += 1
                    self._shared[pk] = cached
        return cached

    async def panel(self, pk, version, viewer, is_host):
        key = (pk, viewer, is_host)
        cached = self._panels.get(key)
        if cached is None or cached[0] < version:
            async with self._session_lock(pk):
                cached = self._panels.get(key)
                if cached is None or cached[0] < version:
                    cached = await self._render_panel(pk, viewer, is_host)
                    self._panels[key] = cached
        return cached

    def _session_lock(self, pk):
        key = (pk, asyncio.get_running_loop())
        with self._lock:
            lock = self._locks.get(key)
            if lock is None:
                lock = self._locks[key] = asyncio.Lock()
            return lock

    def __len__(self):
        return len(self._shared) + len(self._panels)


cache = FragmentCache()


async def table_stream(request, pk):
    try:
        session_id, version, viewer, is_host, game = await _access(request, pk, True)
    except Refused:
        raise Http404 from None
    try:
        last_seen = inputs.optional_number(request.headers.get("Last-Event-ID"),
                                           label="Last-Event-ID")
    except Refused as refusal:
        return HttpResponseBadRequest(refusal.message)
    known = version if last_seen is None else last_seen

    whole_panel = fragments.pushes_whole_panel(game)

    async def push(new):
        shared_version, shared = await cache.shared(session_id, new)
        out = [event(name, html, shared_version) for name, html in shared.items()]
        if whole_panel:
            panel_version, panel = await cache.panel(session_id, new, viewer, is_host)
            out.append(event("panel", panel, panel_version))
        out.append(event("version", json.dumps({"version": shared_version}), shared_version))
        return "".join(out)

    async def stream():
        # The page was rendered at `version`; a reconnect that missed moves catches up.
        yield event("version", json.dumps({"version": version}), known)
        if known < version:
            yield await push(version)
        async for new in _versions(session_id, version):
            yield ": keepalive\n\n" if new is None else await push(new)

    return _stream_response(stream())


@_read
def _board_session(key):
    return Session.objects.filter(board_key=key).values_list("pk", "version").first()


async def board_stream(request, key):
    """The read-only board's stream: the shared fragments only."""
    found = await _board_session(key)
    if found is None:
        raise Http404
    session_id, version = found

    async def stream():
        yield event("version", json.dumps({"version": version}), version)
        async for new in _versions(session_id, version):
            if new is None:
                yield ": keepalive\n\n"
                continue
            shared_version, shared = await cache.shared(session_id, new)
            yield "".join(event(name, shared[name], shared_version)
                          for name in ("scoreboard", "log"))

    return _stream_response(stream())
