"""Event streams (text/event-stream), served by the ASGI server.

- /api/sessions/{id}/events/: `{"version": n}` at once and after every move or undo (api.md).
- /s/{id}/stream/: the table page's stream; it pushes the rendered fragments themselves, so a
  move costs the other phones no request (ARCHITECTURE.md, "Live updates and load").

A stream holds no database connection while it waits: each read opens and closes its own.
"""

import asyncio
import json
import logging
import threading
from collections import OrderedDict

from asgiref.sync import sync_to_async
from django.db import close_old_connections, connections
from django.http import Http404, HttpResponseBadRequest, StreamingHttpResponse
from django.utils import translation

from companion import fragments, inputs, live
from companion.access import session_access
from companion.errors import Refused
from companion.models import Session
from companion.templatetags.parts import split_parts  # a part's marks: {% part %}

log = logging.getLogger(__name__)
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


_LF, _NEXT_LINE = "\n", "\ndata: "


def event(name, data, version=None):
    """One server-sent event: each line of `data` on a `data:` line of its own. Made with
    str.replace, not a list of lines: a fragment of a few hundred lines is sent to every phone
    on every move, and splitting and joining it took several times as long."""
    head = f"id: {version}\nevent: {name}\n" if version is not None else f"event: {name}\n"
    if "\r" in data:  # a line may end with CR LF or CR too (the event stream's own rule)
        data = data.replace("\r\n", "\n").replace("\r", "\n")
    if data.endswith("\n"):  # a last line ending is not an empty line of data
        data = data[:-1]
    return f"{head}data: {data.replace(_LF, _NEXT_LINE)}\n\n"


@_read
def _access(request, pk, cookies):
    session, actor = session_access(request, pk, cookies=cookies)
    return session.pk, session.version, actor.seat, actor.is_host, session.game


@_read
def _current_version(pk):
    live.watching(pk)  # every process renders this table's moves ahead from now on
    return Session.objects.filter(pk=pk).values_list("version", flat=True).first()


def _stream_response(generator):
    response = StreamingHttpResponse(generator, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def _versions(session_id, known, seats=False):
    """Yield each new version of the session (newer than `known`), and None (a keepalive) when
    the beat of every KEEPALIVE_SECONDS comes with no new version; with `seats`, also
    live.SEATS when a phone took a seat or one was freed (after the version that came with it)."""
    queue = asyncio.Queue()
    live.subscribe(session_id, queue)
    beat = _Keepalive(queue)
    try:
        # Anything committed between the access check and the subscription is caught here.
        current = await _current_version(session_id)
        if current is not None and current > known:
            known = current
            yield current
        while True:
            newest, beat_came, seats_came = None, False, False
            item = await queue.get()
            while True:  # several moves at once: only the newest matters
                if item is None:
                    beat_came = True
                elif item is live.SEATS:
                    seats_came = True
                elif newest is None or item > newest:
                    newest = item
                if queue.empty():
                    break
                item = queue.get_nowait()
            if newest is not None and newest > known:
                known = newest
                yield newest
            elif beat_came:
                yield None
            if seats_came and seats:
                yield live.SEATS
    finally:
        beat.cancel()
        live.unsubscribe(session_id, queue)


class _Keepalive:
    """Puts None on a stream's queue every KEEPALIVE_SECONDS, with one timer for the stream's
    life: with a timeout set up and torn down around each wait (asyncio.timeout), a busy table's
    five streams cost the loop 33-46 µs a version; with this timer, 13-18."""

    __slots__ = ("queue", "loop", "handle")

    def __init__(self, queue):
        self.queue, self.loop = queue, asyncio.get_running_loop()
        self.handle = self.loop.call_later(KEEPALIVE_SECONDS, self.fire)

    def fire(self):
        self.queue.put_nowait(None)
        self.handle = self.loop.call_later(KEEPALIVE_SECONDS, self.fire)

    def cancel(self):
        self.handle.cancel()


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


def _keeping(html, parts, before):
    """`html` with each of its marked `parts` (split_parts) that `before` (the same fragment's
    parts a version earlier) holds alike replaced by `<template data-keep="ID">`, which the
    phone fills with its own copy (table.js); None when no part is kept."""
    if not parts or not before:
        return None
    old = {part_id: inner for _start, _end, part_id, inner in before}
    pieces, at = [], 0
    for start, end, part_id, inner in parts:
        if old.get(part_id) == inner:
            pieces += (html[at:start], f'<template data-keep="{part_id}"></template>')
            at = end
    if not pieces:
        return None
    pieces.append(html[at:])
    return "".join(pieces)


class Rendered:
    """One version of a session's shared fragments, as this process rendered them (or took them
    from the move's announcement), with the names of those whose HTML differs from the version it
    had before (`previous`), and the pushes made of them: each push's text is made once, whatever
    the number of phones it goes to. `lines`: the log's lines, newest first, so that the next
    move's log is its own line before these.

    A phone in step (it holds `previous`) is sent only what changed, and of that only what it
    lacks: the log's new line alone (`log_line`) when the log is the previous one's with a line
    on top, and a fragment's marked parts that did not change as placeholders (`slim`)."""

    __slots__ = ("version", "html", "parts", "lines", "previous", "changed", "slim", "new_line",
                 "_texts", "version_event")

    def __init__(self, version, html, before=None, lines=None):
        self.version = version
        self.html = html
        self.lines = lines
        self.previous = before.version if before is not None else None
        self.changed = [name for name in html
                        if before is None or before.html.get(name) != html[name]]
        # Each fragment's marked parts, found once: this version's pushes and the next's use them.
        self.parts = {name: split_parts(text) for name, text in html.items()}
        self.slim = {}
        self.new_line = None
        if before is not None:
            for name in self.changed:
                slim = _keeping(html[name], self.parts.get(name), before.parts.get(name))
                if slim is not None:
                    self.slim[name] = slim
            # As FragmentCache.take_ahead makes a move's log: its line before the 29 shown.
            if (lines and before.lines and version == before.version + 1
                    and lines[1:] == before.lines[:fragments.LOG_LENGTH - 1]):
                self.new_line = lines[0]
        self._texts = {}
        self.version_event = event("version", json.dumps({"version": version}), version)

    def _in_step(self, name):
        if name == "log" and self.new_line is not None:
            return event("log_line", self.new_line, self.version)
        return event(name, self.slim.get(name) or self.html[name], self.version)

    def push(self, since, leave_out=()):
        """The fragment events for a phone that holds this process's fragments of version `since`
        (None: not known here, so all of them): only what changed since, when `since` is the
        version rendered just before this one."""
        only_changed = since is not None and since == self.previous
        key = (only_changed, leave_out)
        text = self._texts.get(key)
        if text is None:
            if only_changed:
                events = (self._in_step(name) for name in self.changed if name not in leave_out)
            else:
                events = (event(name, self.html[name], self.version)
                          for name in self.html if name not in leave_out)
            text = self._texts[key] = "".join(events)
        return text


class FragmentCache:
    """The latest fragments of each session, so that N phones cost one render, not N. Bounded:
    the least recently pushed sessions are forgotten first (a push then renders them again)."""

    def __init__(self, sessions=SESSIONS_KEPT):
        self._lock = threading.Lock()
        # Keyed by session id and language: a table's phones may read it in two languages.
        self._shared = Bounded(sessions)  # (session id, language) -> Rendered
        # (session id, language) -> {(viewer, is_host): (version, html)}: a session's phones are
        # few, and bounding by sessions keeps a process that sees many one-phone sessions flat.
        self._panels = Bounded(sessions)
        self._locks = Bounded(sessions)  # (session id, event loop) -> asyncio.Lock
        self.renders = 0
        self.taken = 0  # versions taken from a move's announcement, not rendered here

    @staticmethod
    @_read
    def _render_shared(pk, language):
        session = Session.objects.select_related("owner").get(pk=pk)
        with translation.override(language):
            html, lines = fragments.render_shared_lines(session)
            return session.version, html, lines

    def _latest(self, key):
        with self._lock:
            return self._shared.get(key)

    def _keep(self, key, rendered):
        """Keep `rendered` unless a newer version is kept already (the listener's thread and
        the streams both bring versions)."""
        with self._lock:
            kept = self._shared.get(key)
            if kept is not None and kept.version >= rendered.version:
                return kept
            self._shared[key] = rendered
            return rendered

    def take_ahead(self, pk, version, ahead):
        """The fragments a move's request rendered ahead for `version` (live.on_ahead): kept
        as this process's, with the log made of the new line before the lines of the version
        before, when this process shows that version (else its phones' next push renders)."""
        packed = isinstance(ahead, str)
        language = live.packed_language(ahead) if packed else ahead["language"]
        before = self._latest((pk, language))
        if before is None or before.version != version - 1 or before.lines is None:
            return
        if packed:
            ahead = live.unpack(ahead)
        lines = [ahead["line"], *before.lines[:fragments.LOG_LENGTH - 1]]
        with translation.override(language):
            html = {**ahead["html"], "log": fragments.render_log(lines)}
        self._keep((pk, language), Rendered(version, html, before=before, lines=lines))
        self.taken += 1

    @staticmethod
    @_read
    def _render_panel(pk, viewer, is_host, language):
        session = Session.objects.select_related("owner").get(pk=pk)
        with translation.override(language):
            return session.version, fragments.render_panel(session, viewer, is_host)

    async def shared(self, pk, version, language):
        """The Rendered fragments of the session at `version` or newer, in `language`."""
        key = (pk, language)
        cached = self._latest(key)
        if cached is None or cached.version < version:
            async with self._session_lock(pk):
                cached = self._latest(key)
                if cached is None or cached.version < version:
                    new_version, html, lines = await self._render_shared(pk, language)
                    self.renders += 1
                    cached = self._keep(key, Rendered(new_version, html, before=cached,
                                                      lines=lines))
        return cached

    async def panel(self, pk, version, viewer, is_host, language):
        key = (viewer, is_host)
        cached = (self._panels.get((pk, language)) or {}).get(key)
        if cached is None or cached[0] < version:
            async with self._session_lock(pk):
                phones = self._panels.get((pk, language))
                if phones is None:
                    phones = self._panels[(pk, language)] = {}
                cached = phones.get(key)
                if cached is None or cached[0] < version:
                    cached = phones[key] = await self._render_panel(pk, viewer, is_host,
                                                                    language)
        return cached

    def _session_lock(self, pk):
        key = (pk, asyncio.get_running_loop())
        with self._lock:
            lock = self._locks.get(key)
            if lock is None:
                lock = self._locks[key] = asyncio.Lock()
            return lock

    def __len__(self):
        return len(self._shared) + sum(len(phones) for phones in self._panels.values())


cache = FragmentCache()


def render_ahead(session, move):
    """The fragments of the version `move` made, in the table's language (the board's, and every
    phone's unless it reads another), to carry with its announcement; None when they cannot be
    made."""
    try:
        with translation.override(session.language):
            ahead = fragments.render_ahead(session, move)
    except Exception:  # noqa: BLE001 - the move stands; each process renders this version itself
        log.exception("live: the fragments of session %s were not rendered ahead", session.pk)
        return None
    return {"language": session.language, **ahead}


def render_ahead_for_phones(session, move):
    """live.render_ahead: render_ahead, when a phone watches the table in some server process
    (live.watched): a move of a table no phone watches (a script's, a test's) renders nothing."""
    if live.watched(session.pk):
        return render_ahead(session, move)
    return None


live.render_ahead = render_ahead_for_phones
live.on_ahead = cache.take_ahead


async def table_stream(request, pk):
    try:
        session_id, version, viewer, is_host, game = await _access(request, pk, True)
    except Refused:
        raise Http404 from None
    try:
        last_seen = inputs.optional_number(request.headers.get("Last-Event-ID"),
                                           label="Last-Event-ID")
        # The version the page was drawn at (?shown=, in its sse-connect address): a stream
        # opened anew (htmx makes a new one when the browser gives up after an error answer,
        # a proxy's 502 while the app restarts) sends no Last-Event-ID, and without it a page
        # that missed moves meanwhile would be told it is current and keep the old table.
        shown = inputs.optional_number(request.GET.get("shown"), label="shown")
    except Refused as refusal:
        return HttpResponseBadRequest(refusal.message)
    known = last_seen if last_seen is not None else shown if shown is not None else version
    known = min(known, version)

    whole_panel = fragments.pushes_whole_panel(game)
    language = translation.get_language()  # the page's, from its cookie or Accept-Language
    pushed = None  # the version of this process's fragments this phone was last pushed

    async def push(new):
        nonlocal pushed
        shared = await cache.shared(session_id, new, language)
        if pushed is not None and shared.version <= pushed:
            return ""  # pushed already (rendered for another phone that heard of it first)
        out = shared.push(pushed)  # only the fragments that changed, when this phone is in step
        pushed = shared.version
        if whole_panel:
            panel_version, panel = await cache.panel(session_id, new, viewer, is_host,
                                                     language)
            out += event("panel", panel, panel_version)
        return out + shared.version_event

    async def stream():
        # The page was rendered at `version`; a reconnect that missed moves catches up.
        yield event("version", json.dumps({"version": version}), known)
        if known < version:
            yield await push(version)
        # The host's page shows which seats phones hold (its invite bar, "Free its seat"); a
        # phone whose seat the host freed is drawn again without it.
        async for new in _versions(session_id, version, seats=True):
            if new is None:
                yield ": keepalive\n\n"
            elif new is live.SEATS:
                yield SEATS_EVENT
            elif text := await push(new):
                yield text

    return _stream_response(stream())


# The page fetches what shows the seats anew (table.js): a seat taken is not a version.
SEATS_EVENT = event("seats", "changed")


@_read
def _board_session(key):
    return Session.objects.filter(board_key=key).values_list("pk", "version", "language").first()


async def board_stream(request, key):
    """The read-only board's stream: the shared fragments (and the game's live part) only."""
    found = await _board_session(key)
    if found is None:
        raise Http404
    session_id, version, language = found
    try:  # the version the board was drawn at, as the table's stream takes it
        shown = inputs.optional_number(request.GET.get("shown"), label="shown")
    except Refused as refusal:
        return HttpResponseBadRequest(refusal.message)

    async def stream():
        yield event("version", json.dumps({"version": version}), version)
        pushed = None

        async def push(new):
            nonlocal pushed
            shared = await cache.shared(session_id, new, language)
            if pushed is not None and shared.version <= pushed:
                return ""
            # What every phone sees alike, the game's live part included; no undo button.
            text = shared.push(pushed, leave_out=("undo",))
            pushed = shared.version
            return text

        if shown is not None and shown < version:  # opened anew after missing moves
            yield await push(version)
        # The board shows the join code while seats are free.
        async for new in _versions(session_id, version, seats=True):
            if new is None:
                yield ": keepalive\n\n"
            elif new is live.SEATS:
                yield SEATS_EVENT
            elif text := await push(new):
                yield text

    return _stream_response(stream())
