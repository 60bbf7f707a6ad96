"""Event streams (text/event-stream), served by the ASGI server.

- /api/sessions/{id}/events/: `{"version": n}` at once and after every move or undo (api.md).
- /s/{id}/stream/: the table page's stream. On each new version it pushes the sections whose HTML
  changed for this phone (the scoreboard, the now line, the log, the undo button, the game's live
  part, and the phone's own panel), so a move costs the other phones no request.
- /b/{key}/stream/: the read-only board's, the shared sections only.

What a version shows is rendered once per server process for each (session, version, language,
view), when the first stream that needs it asks (`Renders`). A stream holds no database
connection while it waits: each read opens and closes its own.
"""

import asyncio
import contextlib
import hashlib
import json
from collections import OrderedDict

from asgiref.sync import sync_to_async
from django.db import close_old_connections, connections
from django.http import Http404, HttpResponseBadRequest, JsonResponse, StreamingHttpResponse
from django.utils import translation

from companion import fragments, inputs, live
from companion.access import session_access
from companion.errors import Refused
from companion.models import Session

KEEPALIVE_SECONDS = 15
# Renders kept per server process: a few views of each table being played.
RENDERS_KEPT = 2_000
TABLE = "table"  # the view of what every phone sees alike


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
    """One server-sent event: each line of `data` on a `data:` line of its own."""
    head = f"id: {version}\nevent: {name}\n" if version is not None else f"event: {name}\n"
    lines = data.replace("\r\n", "\n").replace("\r", "\n").removesuffix("\n").split("\n")
    return head + "".join(f"data: {line}\n" for line in lines) + "\n"


@_read
def _shown_read(session_id):
    return fragments.shown_read(session_id)


def _render(shown, language, view, before):
    """{section: (html, digest)} of a version for `view`: TABLE, or ("panel", seat, is_host)
    for a phone's own panel (`before`: {"live": the version's live part, TABLE's; "drawn":
    that view's render before, kept if its model is the same})."""
    with translation.override(language):
        if view == TABLE:
            return {name: (html, _digest(html))
                    for name, html in fragments.render_shared(shown).items()}
        _panel, seat, is_host = view
        return {"panel": fragments.panel_view(shown, seat, is_host, live=before["live"],
                                              drawn=before["drawn"])}


def _digest(text):
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class _Version:
    """A session's newest version this process read, in one language: what it shows (Shown),
    its renders so far by view, and each view's render before it (a panel whose model is the
    same keeps it)."""

    def __init__(self):
        self.lock = asyncio.Lock()
        self.shown = None
        self.views = {}
        self.before = {}


class Renders:
    """The newest version of each (session, language) this process read and rendered, bounded:
    the least recently asked for are forgotten first. Asked for a version, it reads the session
    once (for every view) only when it holds none that new, and renders each view of it once;
    one stream reads or renders while the others of the session wait for it. (Used from the
    server's event loop only.)"""

    def __init__(self, size=RENDERS_KEPT):
        self._kept = OrderedDict()  # (session, language) -> _Version
        self._size = size

    async def at_least(self, session_id, version, language, view):
        """(the version rendered, {section: (html, digest)}) of `view`."""
        key = (session_id, language)
        entry = self._kept.get(key) or self._kept.setdefault(key, _Version())
        self._kept.move_to_end(key)
        while len(self._kept) > self._size:
            self._kept.popitem(last=False)
        async with entry.lock:
            if entry.shown is None or entry.shown.session.version < version:
                entry.shown = await _shown_read(session_id)
                entry.before, entry.views = {**entry.before, **entry.views}, {}
            if view != TABLE and TABLE not in entry.views:  # a panel shows the live part
                entry.views[TABLE] = await _rendered(entry.shown, language, TABLE, None)
            if view not in entry.views:
                before = None if view == TABLE else self._panel_before(entry, view)
                entry.views[view] = await _rendered(entry.shown, language, view, before)
        return entry.shown.session.version, entry.views[view]

    @staticmethod
    def _panel_before(entry, view):
        return {"live": entry.views[TABLE].get("panel_live", ("", None))[0],
                "drawn": entry.before.get(view, {}).get("panel")}


# Drawn off the event loop. A render reads nothing (Shown holds it all), but a game's template
# that did would get its connection closed like any read.
_rendered = _read(_render)


renders = Renders()


class Pusher:
    """What one phone was last sent: the digest of each section. A new version pushes only the
    sections whose digest changed, then the version itself."""

    def __init__(self, session_id, language, views):
        self.session_id, self.language, self.views = session_id, language, views
        self.sent = {}
        self.version = None

    async def _sections(self, version):
        newest, sections = version, {}
        for view in self.views:
            rendered, shown = await renders.at_least(self.session_id, version, self.language,
                                                     view)
            newest = max(newest, rendered)
            sections.update(shown)
        return newest, sections

    async def shown(self, version):
        """The phone shows `version` already (its page was drawn at it): nothing to send. (A
        newer one rendered meanwhile is not what the phone shows: its push sends everything.)"""
        newest, sections = await self._sections(version)
        if newest == version:
            self.version = version
            self.sent = {name: digest for name, (_html, digest) in sections.items()}

    async def push(self, version):
        if self.version is not None and version <= self.version:
            return ""
        newest, sections = await self._sections(version)
        out = [event(name, html, newest) for name, (html, digest) in sections.items()
               if self.sent.get(name) != digest]
        self.sent.update({name: digest for name, (_html, digest) in sections.items()})
        self.version = newest
        return "".join(out) + event("version", json.dumps({"version": newest}), newest)


@_read
def _access(request, pk, cookies):
    session, actor = session_access(request, pk, cookies=cookies)
    return session.pk, session.version, actor.seat, actor.is_host, session.logged


@_read
def _current_version(pk):
    return Session.objects.filter(pk=pk).values_list("version", flat=True).first()


def _stream_response(generator):
    response = StreamingHttpResponse(generator, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


@contextlib.contextmanager
def _subscription(session_id):
    """A queue the broker puts the session's changes on, while the stream lasts. Opened before
    the stream's first event, so that a phone told of the version it shows hears of every
    change after it."""
    queue = asyncio.Queue()
    broker = live.broker()
    broker.subscribe(session_id, queue)
    try:
        yield queue
    finally:
        broker.unsubscribe(session_id, queue)


async def _changes(session_id, known, queue):
    """Yield each new version of the session (newer than `known`), live.SEATS when its seats
    changed, and None (a keepalive) when KEEPALIVE_SECONDS pass with neither."""
    # Anything committed between the access check and the subscription is caught here.
    current = await _current_version(session_id)
    if current is not None and current > known:
        known = current
        yield current
    while True:
        try:
            item = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
        except TimeoutError:
            yield None
            continue
        newest, seats = None, False
        while True:  # several moves at once: only the newest matters
            if item is live.SEATS:
                seats = True
            elif newest is None or item > newest:
                newest = item
            if queue.empty():
                break
            item = queue.get_nowait()
        if newest is not None and newest > known:
            known = newest
            yield newest
        if seats:
            yield live.SEATS


# The page fetches what shows the seats anew (table.js): a seat taken is not a version.
SEATS_EVENT = event("seats", "changed")


async def _page_stream(pusher, session_id, version, known):
    with _subscription(session_id) as queue:
        yield event("version", json.dumps({"version": version}), known)
        if known < version:  # a page drawn before moves it missed: everything, at once
            yield await pusher.push(version)
        else:
            await pusher.shown(version)
        async for change in _changes(session_id, version, queue):
            if change is None:
                yield ": keepalive\n\n"
            elif change is live.SEATS:
                yield SEATS_EVENT
            elif text := await pusher.push(change):
                yield text


def _shown_version(request, header=True):
    """The version the page was drawn at: its stream's Last-Event-ID when the browser reconnects,
    else ?shown= in its address (a stream opened anew after an error answer, a proxy's 502 while
    the app restarts, sends no Last-Event-ID)."""
    last_seen = inputs.optional_number(request.headers.get("Last-Event-ID"),
                                       label="Last-Event-ID") if header else None
    shown = inputs.optional_number(request.GET.get("shown"), label="shown")
    return last_seen if last_seen is not None else shown


async def session_events(request, pk):
    try:
        session_id, version, _seat, _host, _logged = await _access(request, pk, False)
    except Refused as refusal:
        return JsonResponse({"detail": refusal.message, "code": refusal.code},
                            status=refusal.status)

    async def stream():
        with _subscription(session_id) as queue:
            yield event("version", json.dumps({"version": version}), version)
            async for change in _changes(session_id, version, queue):
                if change is None:
                    yield ": keepalive\n\n"
                elif change is not live.SEATS:
                    yield event("version", json.dumps({"version": change}), change)

    return _stream_response(stream())


async def table_stream(request, pk):
    try:
        session_id, version, viewer, is_host, logged = await _access(request, pk, True)
    except Refused:
        raise Http404 from None
    try:
        shown = _shown_version(request)
    except Refused as refusal:
        return HttpResponseBadRequest(refusal.message)
    known = min(version if shown is None else shown, version)
    views = [TABLE] if logged else [TABLE, ("panel", viewer, is_host)]
    # The page's language, from its cookie or Accept-Language.
    pusher = Pusher(session_id, translation.get_language(), views)
    return _stream_response(_page_stream(pusher, session_id, version, known))


@_read
def _board_session(key):
    return Session.objects.filter(board_key=key).values_list("pk", "version", "language").first()


class _BoardPusher(Pusher):
    """The board shows what every phone sees alike, but no undo button."""

    async def _sections(self, version):
        newest, sections = await super()._sections(version)
        sections.pop("undo", None)
        return newest, sections


async def board_stream(request, key):
    found = await _board_session(key)
    if found is None:
        raise Http404
    session_id, version, language = found
    try:
        shown = _shown_version(request, header=False)
    except Refused as refusal:
        return HttpResponseBadRequest(refusal.message)
    known = min(version if shown is None else shown, version)
    pusher = _BoardPusher(session_id, language, [TABLE])
    return _stream_response(_page_stream(pusher, session_id, version, known))
