"""The broker: tells every open event stream of a session that it has a new version.

- PostgreSQL: the move's transaction runs NOTIFY, so the announcement leaves only if the move
  commits, and every server process (one LISTEN connection each, on a thread of its own) hears it.
- SQLite (one process): the announcement is handed over right after the commit.

Streams subscribe an asyncio.Queue; `deliver` puts versions on it from any thread.
"""

import asyncio
import contextlib
import logging
import threading
from collections import defaultdict
from functools import partial

from django.conf import settings
from django.db import connection, transaction

log = logging.getLogger(__name__)
CHANNEL = "companion"

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


def _put(queue, version):
    queue.put_nowait(version)


def deliver(session_id: int, version: int) -> None:
    """Hand `version` to this process's streams of the session, from any thread."""
    with _lock:
        targets = list(_subscribers.get(session_id, ()))
    for loop, queue in targets:
        # A closed loop means that stream is going away: nothing to tell it.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(partial(_put, queue, version))


def announce(session_id: int, version: int) -> None:
    """Called by the services inside the move's transaction."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{session_id}:{version}"])
    else:
        transaction.on_commit(partial(deliver, session_id, version))


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
                        session_id, _, version = notify.payload.partition(":")
                        deliver(int(session_id), int(version))
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
