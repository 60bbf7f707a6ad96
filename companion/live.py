"""The broker: announces a session's new version to every open event stream.

In one process (SQLite, tests) announcements go straight to the subscribers' queues.
"""

import asyncio
import threading
from collections import defaultdict

_lock = threading.Lock()
_subscribers: dict[int, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue]]] = defaultdict(set)


def subscribe(session_id: int, queue: asyncio.Queue) -> None:
    with _lock:
        _subscribers[session_id].add((asyncio.get_running_loop(), queue))


def unsubscribe(session_id: int, queue: asyncio.Queue) -> None:
    with _lock:
        subscribers = _subscribers.get(session_id, set())
        for entry in [entry for entry in subscribers if entry[1] is queue]:
            subscribers.discard(entry)
        if not subscribers:
            _subscribers.pop(session_id, None)


def deliver(session_id: int, version: int) -> None:
    """Hand `version` to this process's streams of the session (from any thread)."""
    with _lock:
        targets = list(_subscribers.get(session_id, ()))
    for loop, queue in targets:
        loop.call_soon_threadsafe(queue.put_nowait, version)


def announce(session_id: int, version: int) -> None:
    """Called after a move or undo commits."""
    deliver(session_id, version)
