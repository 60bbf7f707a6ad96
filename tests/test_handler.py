"""The ASGI handler (companion/handler.py) in a real server: a file is sent whole from the event
loop, each block read on a thread, so phones that read slowly hold no thread of the views;
every page still answers while they trickle."""

import socket
from pathlib import Path

import drf_spectacular_sidecar
import httpx
import pytest

from companion import handler
from tests.servers import ThreadServer

pytestmark = pytest.mark.django_db(transaction=True)  # the server reads on threads of its own

# The biggest static file (3.9 MB, the API docs' source map): more than a socket's buffers hold.
BIG = "drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js.map"


@pytest.fixture(scope="module")
def server():
    server = ThreadServer()
    yield server
    server.stop()


def test_a_big_file_comes_whole(server):
    body = httpx.get(f"{server.url}/static/{BIG}", timeout=30).content
    assert body == (Path(drf_spectacular_sidecar.__file__).parent / "static" / BIG).read_bytes()


def test_phones_that_read_slowly_hold_no_thread_of_the_views(server):
    port = int(server.url.rsplit(":", 1)[1])
    slow = []
    try:
        for _ in range(handler.SYNC_THREADS + 1):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
            sock.connect(("127.0.0.1", port))
            sock.sendall(f"GET /static/{BIG} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            assert sock.recv(12).startswith(b"HTTP/1.1 200")  # its answer has begun
            slow.append(sock)  # ...and nothing more of it is read
        assert httpx.get(f"{server.url}/api/health/", timeout=10).status_code == 200
        assert httpx.get(f"{server.url}/login/", timeout=10).status_code == 200
    finally:
        for sock in slow:
            sock.close()
