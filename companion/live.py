"""The broker: tells every open event stream of a session that it has a new version.

- PostgreSQL: the move's transaction runs NOTIFY, so the announcement leaves only if the move
  commits, and every server process (one LISTEN connection each, on a thread of its own) hears it.
- SQLite (one process): the announcement is handed over right after the commit.

Streams subscribe an asyncio.Queue; `deliver` puts versions on it from any thread.

A move's announcement carries the fragments its request rendered ahead (`ahead`: see
fragments.render_ahead), compressed into the NOTIFY's payload when they fit in it: then no server
process renders that version again from the database for its phones (`on_ahead`, set by the
streams, takes them before the streams are told). The process whose request wrote a move in one
statement is handed its version and fragments by that request (`deliver_here`), and its listener
leaves the move's NOTIFY alone.
"""

import asyncio
import base64
import contextlib
import json
import logging
import threading
import zlib
from collections import OrderedDict, defaultdict
from functools import partial

from django.conf import settings
from django.db import connection, transaction

log = logging.getLogger(__name__)
CHANNEL = "companion"
# PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; fragments that do not fit stay behind
# (each server process then renders that version itself).
PAYLOAD_LIMIT = 7900

_lock = threading.Lock()
_subscribers: dict[int, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue]]] = defaultdict(set)
_listener: threading.Thread | None = None
_stopping = threading.Event()
_streams_open = 0


def uses_notify():
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def subscribe(session_id: int, queue: asyncio.Queue) -> None:
    global _streams_open
    if uses_notify():
        ensure_listener()
    with _lock:
        _subscribers[session_id].add((asyncio.get_running_loop(), queue))
        _streams_open += 1
    watch(session_id)


# The tables some phone watches, in any server process: a move of one of them has its fragments
# rendered ahead (a table no phone watches, a script's or a test's, renders nothing). A stream
# that opens tells every process (`watching`, then the listener's `watch`); the oldest are
# forgotten past WATCHED_KEPT.
WATCHED_KEPT = 2_000
_watched: OrderedDict[int, None] = OrderedDict()


def watch(session_id: int) -> None:
    with _lock:
        _watched[session_id] = None
        _watched.move_to_end(session_id)
        while len(_watched) > WATCHED_KEPT:
            _watched.popitem(last=False)


def watched(session_id: int) -> bool:
    with _lock:
        return session_id in _watched


def watching(session_id: int) -> None:
    """Tell every server process that a phone watches the session (its stream opened here)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"w:{session_id}"])


def unsubscribe(session_id: int, queue: asyncio.Queue) -> None:
    global _streams_open
    with _lock:
        subscribers = _subscribers.get(session_id, set())
        for entry in [entry for entry in subscribers if entry[1] is queue]:
            subscribers.discard(entry)
            _streams_open -= 1
        if not subscribers:
            _subscribers.pop(session_id, None)


def stats():
    """What this process holds open: for tests and the health check."""
    with _lock:
        return {"streams": _streams_open, "sessions": len(_subscribers),
                "listener": bool(_listener and _listener.is_alive())}


def _put(queues, item):
    for queue in queues:
        queue.put_nowait(item)


# Set by the streams: render_ahead(session, move) -> the fragments to carry (or None), and
# on_ahead(session_id, version, ahead) to keep them before the streams hear of the version
# (`ahead` as render_ahead made it, or packed: see unpack).
render_ahead = None
on_ahead = None


def deliver(session_id: int, version: int, ahead=None) -> None:
    """Hand `version` to this process's streams of the session, from any thread, with the
    fragments rendered ahead for it when they came along."""
    if ahead is not None and on_ahead is not None:
        try:
            on_ahead(session_id, version, ahead)
        except Exception:  # noqa: BLE001 - the streams then render the version themselves
            log.exception("live: the fragments carried with %s:%s were not kept",
                          session_id, version)
    _wake(session_id, version)


def _wake(session_id, item) -> None:
    """Put `item` on the queue of each of this process's streams of the session, from any
    thread: one wake-up of each event loop for all its streams of the session."""
    loops = defaultdict(list)
    with _lock:
        for loop, queue in _subscribers.get(session_id, ()):
            loops[loop].append(queue)
    for loop, queues in loops.items():
        # A closed loop means those streams are going away: nothing to tell them.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(partial(_put, queues, item))


# Put on a stream's queue, as versions are, when a phone took a seat (or the host freed one): the
# table's pages (the host's invite bar and seat list, a seatless phone's choice) and the board's
# join code follow. A seat taken is not a new version: the other phones' open forms stay good.
SEATS = "seats"


def deliver_seats(session_id: int) -> None:
    """Tell this process's streams of the session, from any thread, that its seats changed."""
    _wake(session_id, SEATS)


def announce_seats(session_id: int) -> None:
    """Called by the services inside the transaction that gave a phone a seat: every server
    process's streams hear of it when it commits."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"s:{session_id}"])
    else:
        transaction.on_commit(partial(deliver_seats, session_id))


def announce(session_id: int, version: int, ahead=None) -> None:
    """Called by the services inside the move's transaction; `ahead`: the fragments of this
    version rendered by the request (a JSON-able dict), carried to every server process."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)",
                           [CHANNEL, notice(session_id, version, ahead)])
    else:
        transaction.on_commit(partial(deliver, session_id, version, ahead))


def notice(session_id: int, version: int, ahead=None) -> str:
    """The NOTIFY's payload: the version, with the fragments packed when they fit."""
    payload = f"{session_id}:{version}"
    if ahead is not None:
        packed = f"{payload}:{pack(ahead)}"
        if len(packed) <= PAYLOAD_LIMIT:
            payload = packed
    return payload


def pack(ahead) -> str:
    """The fragments as NOTIFY's payload can carry them: their language, then the whole as JSON,
    compressed, in base64. Level 3, not zlib's default 6: Knights' 15 KB pack in 60 µs instead
    of 140, 11% larger (3.3 KB), far from the payload's limit."""
    raw = json.dumps(ahead, separators=(",", ":")).encode()
    return f"{ahead['language']}:" + base64.b64encode(zlib.compress(raw, 3)).decode("ascii")


def packed_language(text: str) -> str:
    """The language of packed fragments, read without unpacking them."""
    return text.partition(":")[0]


def unpack(text: str):
    return json.loads(zlib.decompress(base64.b64decode(text.partition(":")[2])))


def heard(payload: str) -> None:
    """A NOTIFY's payload: a session watched ("w:<id>"), its seats changed ("s:<id>"), or a new
    version (see parse)."""
    if payload.startswith("w:"):
        watch(int(payload[2:]))
        return
    if payload.startswith("s:"):
        deliver_seats(int(payload[2:]))
        return
    session_id, version, packed = parse(payload)
    if not _unmark(session_id, version):  # else the request that wrote it delivers it here
        deliver(session_id, version, packed)


# The versions a request of this process is writing in one statement that commits with its
# NOTIFY (services._move_write_at_once): the request hands each to this process's streams itself
# (deliver_here), with the fragments as it rendered them, and this process's listener leaves its
# NOTIFY alone rather than unpack what the process holds already. Marked before the statement
# runs, as the NOTIFY may be heard before the statement returns. Bounded, in case.
_here: OrderedDict[tuple[int, int], None] = OrderedDict()
HERE_KEPT = 1_000


def expect_here(session_id: int, version: int) -> None:
    """Before the statement: its NOTIFY is left to deliver_here or written_elsewhere."""
    with _lock:
        _here[(session_id, version)] = None
        while len(_here) > HERE_KEPT:
            _here.popitem(last=False)


def deliver_here(session_id: int, version: int, ahead=None) -> None:
    """The statement wrote and committed `version`: to this process's streams at once (every
    other process hears of it from the NOTIFY)."""
    deliver(session_id, version, ahead)


def written_elsewhere(session_id: int, version: int) -> None:
    """The statement wrote nothing (another request wrote `version` first) or failed. If this
    process's listener left a NOTIFY of that version alone meanwhile, it was another process's:
    delivered now (its fragments stayed behind: the streams render them)."""
    if not _unmark(session_id, version):
        deliver(session_id, version)


def _unmark(session_id: int, version: int) -> bool:
    """Take off the mark expect_here put; whether it was there."""
    with _lock:
        if (session_id, version) in _here:
            del _here[(session_id, version)]
            return True
        return False


def parse(payload: str):
    """(session id, version, the fragments carried, still packed, or None) from a NOTIFY's
    payload: a process that shows no phone that session does not unpack them."""
    session_id, _, rest = payload.partition(":")
    version, _, packed = rest.partition(":")
    return int(session_id), int(version), packed or None


# The PostgreSQL listener ---------------------------------------------------------------------

def _conninfo():
    db = settings.DATABASES["default"]
    params = {"dbname": db["NAME"], "user": db.get("USER") or None,
              "password": db.get("PASSWORD") or None, "host": db.get("HOST") or None,
              "port": db.get("PORT") or None}
    return {key: value for key, value in params.items() if value}


def _listen_forever():
    import psycopg

    backoff = 0.5
    while not _stopping.is_set():
        try:
            with psycopg.connect(**_conninfo(), autocommit=True,
                                 application_name="companion-live") as conn:
                conn.execute(f"LISTEN {CHANNEL}")
                backoff = 0.5
                _resync(conn)
                while not _stopping.is_set():
                    # The timeout only lets the loop see a stop; notifications arrive at once.
                    for notify in conn.notifies(timeout=1.0):
                        heard(notify.payload)
        except Exception:  # noqa: BLE001 - the listener must outlive a database restart
            log.exception("live: the LISTEN connection failed; reconnecting")
            _stopping.wait(backoff)
            backoff = min(backoff * 2, 10)


def _resync(conn):
    """After (re)connecting, tell every stream the current version: it may have missed some."""
    with _lock:
        session_ids = list(_subscribers)
    if not session_ids:
        return
    rows = conn.execute("SELECT id, version FROM companion_session WHERE id = ANY(%s)",
                        [session_ids]).fetchall()
    for session_id, version in rows:
        deliver(session_id, version)


def stop_listener():
    """Close this process's LISTEN connection (tests, before their database is dropped)."""
    global _listener
    with _lock:
        listener, _listener = _listener, None
    if listener is not None:
        _stopping.set()
        listener.join(5)
        _stopping.clear()


def ensure_listener():
    global _listener
    with _lock:
        if _listener is not None and _listener.is_alive():
            return
        _listener = threading.Thread(target=_listen_forever, name="companion-live",
                                     daemon=True)
        _listener.start()
