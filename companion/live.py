"""The broker: tells every open event stream of a session that it changed.

The services announce a change inside their transaction (`announce`); the broker publishes it
once the transaction commits, so a change that rolls back is never told. What is published is
small: the session, its new version, and whether its seats changed. Each stream then asks
companion.fragments for what that version shows (companion/streams.py).

Two backends, chosen by settings.COMPANION_BROKER:
- LocalBroker: one server process (SQLite, the tests): publishing wakes this process's streams.
- PostgresBroker: any number of server processes. Publishing sends a NOTIFY; every process
  listens on one connection of its own, on a thread, and wakes its streams when it hears one.
"""

import asyncio
import contextlib
import logging
import threading
from collections import defaultdict
from functools import cache, partial

from django.conf import settings
from django.db import connection, transaction
from django.utils.module_loading import import_string

log = logging.getLogger(__name__)

# Put on a stream's queue, beside the versions, when a phone took a seat (or the host freed one):
# a seat taken is no new version (the other phones' open forms stay good), but the host's invite
# bar and a seatless phone's seat choice follow it.
SEATS = "seats"


class LocalBroker:
    """Subscriptions of this process's streams: each an asyncio.Queue on its event loop."""

    def __init__(self):
        self._lock = threading.Lock()
        self._queues = defaultdict(set)  # session id -> {(loop, queue)}

    def subscribe(self, session_id, queue):
        with self._lock:
            self._queues[session_id].add((asyncio.get_running_loop(), queue))

    def unsubscribe(self, session_id, queue):
        with self._lock:
            subscribers = self._queues.get(session_id, set())
            subscribers.difference_update({entry for entry in subscribers if entry[1] is queue})
            if not subscribers:
                self._queues.pop(session_id, None)

    def publish(self, session_id, version, seats=False):
        self.wake(session_id, version, seats)

    def wake(self, session_id, version, seats=False):
        """Put the version (and SEATS) on the queue of each of this process's streams of the
        session, from any thread."""
        items = [version] + ([SEATS] if seats else [])
        with self._lock:
            subscribers = list(self._queues.get(session_id, ()))
        for loop, queue in subscribers:
            # A closed loop means those streams are going away: nothing to tell them.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(partial(_put, queue, items))

    def stop(self):
        """Nothing of this process's to close (the PostgreSQL broker closes its listener)."""

    def sessions(self):
        with self._lock:
            return list(self._queues)

    def stats(self):
        """What this process holds open: for the health check and the tests."""
        with self._lock:
            return {"streams": sum(len(queues) for queues in self._queues.values()),
                    "sessions": len(self._queues)}


def _put(queue, items):
    for item in items:
        queue.put_nowait(item)


class PostgresBroker(LocalBroker):
    CHANNEL = "companion"

    def __init__(self):
        super().__init__()
        self._listener = None
        self._stopping = threading.Event()

    def subscribe(self, session_id, queue):
        self._ensure_listener()
        super().subscribe(session_id, queue)

    def publish(self, session_id, version, seats=False):
        # Whole numbers only: NOTIFY takes its payload as a literal, not as a parameter.
        payload = f"{int(session_id)}:{int(version)}:{int(bool(seats))}"
        with connection.cursor() as cursor:
            cursor.execute(f"NOTIFY {self.CHANNEL}, '{payload}'")

    def heard(self, payload):
        session_id, version, seats = (int(part) for part in payload.split(":"))
        self.wake(session_id, version, bool(seats))

    def stats(self):
        return {**super().stats(),
                "listener": bool(self._listener and self._listener.is_alive())}

    def _ensure_listener(self):
        with self._lock:
            if self._listener is not None and self._listener.is_alive():
                return
            self._listener = threading.Thread(target=self._listen_forever, daemon=True,
                                              name="companion-live")
            self._listener.start()

    def _listen_forever(self):
        import psycopg

        backoff = 0.5
        while not self._stopping.is_set():
            try:
                with psycopg.connect(**_conninfo(), autocommit=True,
                                     application_name="companion-live") as conn:
                    conn.execute(f"LISTEN {self.CHANNEL}")
                    backoff = 0.5
                    self._resync(conn)
                    while not self._stopping.is_set():
                        # The timeout only lets the loop see a stop; notifications come at once.
                        for notify in conn.notifies(timeout=1.0):
                            self.heard(notify.payload)
            except Exception:  # noqa: BLE001 - the listener must outlive a database restart
                log.exception("live: the LISTEN connection failed; reconnecting")
                self._stopping.wait(backoff)
                backoff = min(backoff * 2, 10)

    def _resync(self, conn):
        """After (re)connecting, tell every stream the current version: it may have missed
        some while the connection was down."""
        session_ids = self.sessions()
        if session_ids:
            rows = conn.execute("SELECT id, version FROM companion_session WHERE id = ANY(%s)",
                                [session_ids]).fetchall()
            for session_id, version in rows:
                self.wake(session_id, version)

    def stop(self):
        """Close this process's LISTEN connection (tests, before their database is dropped)."""
        with self._lock:
            listener, self._listener = self._listener, None
        if listener is not None:
            self._stopping.set()
            listener.join(5)
            self._stopping.clear()


def _conninfo():
    db = settings.DATABASES["default"]
    params = {"dbname": db["NAME"], "user": db.get("USER"), "password": db.get("PASSWORD"),
              "host": db.get("HOST"), "port": db.get("PORT")}
    return {key: value for key, value in params.items() if value}


@cache
def broker():
    """This process's broker, of the class settings.COMPANION_BROKER names."""
    return import_string(settings.COMPANION_BROKER)()


def announce(session_id, version, *, seats=False):
    """Called by the services inside their transaction: published when it commits."""
    transaction.on_commit(partial(broker().publish, session_id, version, seats))
