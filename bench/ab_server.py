"""One revision's app, wrapped for bench/ab.py: the same counts from any revision, by public APIs.

    cd <the revision's worktree> && python -m uvicorn --factory ab_server:app \\
        --app-dir <this folder> --lifespan off ...

The app is `companion.asgi:application` of the worktree the server runs in (its folder comes first
on sys.path); nothing of it is patched. Around it:
- each HTTP request's kind (move POST, stream, other) sits in a context variable, which Django
  carries into the threads its views and the streams' reads run in;
- every connection Django opens gets an execute wrapper (the documented
  `connection.execute_wrapper` mechanism, added on `connection_created`) that counts the queries
  under the kind of the request they were made for;
- the commit of a move's row (an INSERT into "companion_move"): its instant on CLOCK_MONOTONIC,
  taken at once when the statement ran outside a transaction (it committed as it returned), else
  by `transaction.on_commit`; sent back to the bench in the header X-Bench-Commit;
- GET /__bench/counts answers the counts so far (JSON) without reaching the app.
"""

import contextvars
import json
import os
import re
import sys
import threading
import time
from pathlib import Path

# This folder is on sys.path only to import this module: the app's modules are the worktree's.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]
sys.path.insert(0, os.getcwd())

MOVE_INSERT = re.compile(r'INSERT\s+INTO\s+"?companion_move"?\s*\(', re.IGNORECASE)
COUNTS_PATH = "/__bench/counts"

_request = contextvars.ContextVar("ab_request", default=None)
_lock = threading.Lock()
_counts = {}


def _bump(key):
    with _lock:
        _counts[key] = _counts.get(key, 0) + 1


def kind_of(method, path):
    if method == "POST" and path.startswith("/api/sessions/") and path.endswith("/moves/"):
        return "move"
    if path.endswith("/stream/") or (path.startswith("/api/sessions/")
                                     and path.endswith("/events/")):
        return "stream"
    return "other"


def _counted(execute, sql, params, many, context):
    """The execute wrapper: a query counted under its request's kind (outside any request, e.g.
    a listener thread's: "background"), and a move's commit noted."""
    request = _request.get()
    _bump(f"queries:{request['kind'] if request else 'background'}")
    result = execute(sql, params, many, context)
    if request is not None and isinstance(sql, str) and MOVE_INSERT.search(sql):
        connection = context["connection"]

        def note():  # the last one: a write that found the session moved on is tried again
            request["commit"] = time.monotonic()

        if connection.in_atomic_block:
            from django.db import transaction

            transaction.on_commit(note, using=connection.alias)
        else:
            note()
    return result


def _wrap_connection(sender, connection, **kwargs):
    # A pooled connection is "created" again at each checkout, on the same wrapper object.
    if _counted not in connection.execute_wrappers:
        connection.execute_wrappers.append(_counted)


def app():
    """The factory uvicorn calls (--factory)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    from django.db.backends.signals import connection_created

    connection_created.connect(_wrap_connection, weak=False)  # before the app opens any
    from companion.asgi import application

    async def wrapped(scope, receive, send):
        if scope["type"] != "http":
            return await application(scope, receive, send)
        if scope["path"] == COUNTS_PATH:
            with _lock:
                body = json.dumps(_counts).encode()
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": body})
            return None
        request = {"kind": kind_of(scope["method"], scope["path"])}
        _bump(f"requests:{request['kind']}")

        async def send_with_commit(message):
            if message["type"] == "http.response.start" and "commit" in request:
                headers = [*message.get("headers", []),
                           (b"x-bench-commit", repr(request["commit"]).encode())]
                message = {**message, "headers": headers}
            await send(message)

        token = _request.set(request)
        try:
            return await application(scope, receive, send_with_commit)
        finally:
            _request.reset(token)

    return wrapped
