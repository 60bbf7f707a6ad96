"""The ASGI handler: Django's, with each plain (synchronous) view served in one hop to a thread.

Django's own ASGI handler serves a synchronous view through several hops between the event loop
and a thread it starts for the request: the synchronous middleware on that thread, back to the
loop for the asynchronous `HtmxMiddleware` and the URL, to the thread again for the view, and back
(asgiref's ThreadSensitiveContext starts a new thread, and another to join it, for every request).
Each hop waits for the GIL behind whatever else the worker is running, so on a busy server a move's
answer waited more for its hops than for its own work (bench/README.md, "One hop").

Here a request for a synchronous view is read on the loop, handed to a thread of a pool that runs
the whole synchronous middleware chain and the view (Django's `get_response`, as under WSGI), and
its answer is sent from the loop: one hop there and one back. The event streams (the asynchronous
views) are served by Django's ASGI handler, as before.
"""

import asyncio
import contextvars
import functools
import os
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import iscoroutinefunction
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import FileResponse
from django.urls import Resolver404, resolve, set_script_prefix

# Threads for the synchronous views of one server process. A move's view waits on PostgreSQL for
# about a fifth of its time, so three keep the GIL busy; more only contend for it. With eight, a
# burst of moves ran eight views at once, each waiting for the GIL after every query: their
# handovers cost the worker CPU, which made the next burst longer: at 175 moves/s of Knights a
# POST spent 46 ms in its worker with eight threads, 19 with three (bench/README.md, "Three
# threads", with the knees: better with three in most runs, within the bench's noise in one).
SYNC_THREADS = int(os.environ.get("SYNC_THREADS", "3"))


class Handler(ASGIHandler):
    def __init__(self):
        super().__init__()  # the asynchronous middleware chain, for the event streams
        self._sync_chain = _SyncChain()
        self._threads = ThreadPoolExecutor(SYNC_THREADS, thread_name_prefix="companion-view")

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or _async_view(_path_in_app(scope)):
            return await super().__call__(scope, receive, send)
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        loop = asyncio.get_running_loop()
        # The request's context (contextvars) goes with it to the thread, as asgiref does.
        run = functools.partial(contextvars.copy_context().run, self._answer, scope, body_file)
        try:
            response = await loop.run_in_executor(self._threads, run)
            if isinstance(response, FileResponse):
                await self._send_file(response, loop, send)
            elif isinstance(response, _Read):
                await send(_start(response.response))
                for chunk in response.chunks:
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
                await send({"type": "http.response.body"})
            else:
                await self.send_response(response, send)
        finally:
            body_file.close()

    async def _send_file(self, response, loop, send):
        """A file sent from the loop, each block read on a thread: a phone that reads slowly
        keeps this coroutine waiting, not a thread (three such phones held every thread, and
        with them every page, while the bigger files of the API's docs trickled out)."""
        response.block_size = self.chunk_size
        blocks = iter(response)
        try:
            await send(_start(response))
            while (block := await loop.run_in_executor(self._threads, next, blocks, None)):
                await send({"type": "http.response.body", "body": block, "more_body": True})
            await send({"type": "http.response.body"})
        finally:
            await loop.run_in_executor(self._threads, response.close)

    def _answer(self, scope, body_file):
        """On a thread: the response, closed (its request_finished returns this thread's
        database connection), for the loop to send; a file still open (the loop reads it);
        another streamed body read whole (_Read)."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self._sync_chain.get_response(request)
            response._handler_class = self.__class__
        if not response.streaming:
            response.close()
            return response
        if isinstance(response, FileResponse):
            return response  # sent from the loop (_send_file)
        # Another streamed body (the results CSV) is read whole here, where its view ran and
        # its database connection is, and sent from the loop: sent from here, a phone that
        # read slowly held this thread once the server's write buffer was full.
        try:
            return _Read(response, [chunk for part in response
                                    for chunk, _last in self.chunk_bytes(part)])
        finally:
            response.close()


class _SyncChain(BaseHandler):
    """The middleware chain loaded for synchronous calls: the whole of it on one thread."""

    def __init__(self):
        super().__init__()
        self.load_middleware(is_async=False)


class _Read:
    """A streamed response's body, read on its view's thread, for the loop to send."""

    __slots__ = ("response", "chunks")

    def __init__(self, response, chunks):
        self.response, self.chunks = response, chunks


def _start(response):
    """The response's first message, its headers and cookies as Django's ASGI handler sends them."""
    headers = []
    for header, value in response.items():
        headers.append((header.encode("ascii") if isinstance(header, str) else bytes(header),
                        value.encode("latin1") if isinstance(value, str) else bytes(value)))
    for cookie in response.cookies.values():
        headers.append((b"Set-Cookie", cookie.output(header="").encode("ascii").strip()))
    return {"type": "http.response.start", "status": response.status_code, "headers": headers}


def _path_in_app(scope):
    path, root = scope["path"], scope.get("root_path", "")
    return path[len(root):] if root and path.startswith(root) else path


@functools.lru_cache(maxsize=4096)
def _async_view(path):
    """Whether the URL's view is asynchronous (an event stream): the URLconf says, not a list."""
    try:
        return iscoroutinefunction(resolve(path).func)
    except Resolver404:
        return False
