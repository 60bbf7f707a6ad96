import pytest

from tests.servers import ThreadServer


@pytest.fixture(scope="module")
def server():
    """The app in uvicorn, on a thread of this process, for one test module."""
    server = ThreadServer()
    yield server
    server.stop()
