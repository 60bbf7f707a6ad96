"""The app served for real (uvicorn) during tests: in a thread of the test process, or as separate
server processes sharing the test database (the live broker across processes)."""

import os
import socket
import subprocess
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ThreadServer:
    """uvicorn in a thread of this process, on the test database."""

    def __init__(self):
        import uvicorn
        from django.test.utils import modify_settings

        from companion.asgi import application

        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        config = uvicorn.Config(application, log_level="warning", lifespan="off",
                                timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]},
                                       daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{port}"
        # pytest-django's live-server helper enables and disables this around each test.
        self._live_server_modified_settings = modify_settings(
            ALLOWED_HOSTS={"append": "127.0.0.1"})

    def stop(self):
        from companion import live

        self.server.should_exit = True
        self.thread.join(5)
        live.broker().stop()


class ProcessServer:
    """A separate uvicorn process on the test database (the live broker across processes needs
    PostgreSQL; what only reads and writes the database, such as rate limits, works on the SQLite
    test file too). `env` adds settings of its own, `unset` takes some away; `log`: a file its
    output goes to."""

    def __init__(self, database_url, workers=1, env=None, log=None, unset=()):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE":
               "companion.settings", "PYTHONPATH": str(ROOT), **(env or {})}
        for name in unset:
            env.pop(name, None)
        self.process = subprocess.Popen(
            # Started as `make run` and production start it.
            [str(ROOT / "bin" / "serve"), "--host", "127.0.0.1", "--port", str(self.port),
             "--workers", str(workers), "--log-level", "warning", "--lifespan", "off"],
            cwd=ROOT, env=env,
            **({"stdout": log.open("w"), "stderr": subprocess.STDOUT} if log else {}),
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/health/", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server process did not start")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def database_url_of(connection):
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def worker_run(database_url, env=None):
    """The background worker (bin/worker, as `make run` starts it) as a process of its own on the
    test database, until nothing is left queued."""
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE":
           "companion.settings", "PYTHONPATH": str(ROOT), **(env or {})}
    subprocess.run([str(ROOT / "bin" / "worker"), "--batch", "--no-startup-delay",
                    "--verbosity", "0"], cwd=ROOT, env=env, check=True, timeout=120)
