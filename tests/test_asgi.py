"""What a server process does when it starts (companion/asgi.py)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_server_process_leaves_what_it_loaded_out_of_the_garbage_collections():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "companion.settings"}
    out = subprocess.run(
        [sys.executable, "-c", "import gc, companion.asgi; "
                               "print(gc.get_freeze_count(), *gc.get_threshold())"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True).stdout
    frozen, first, *_ = map(int, out.split())
    # Django, every view and every game are loaded before the freeze.
    assert frozen > 50_000
    assert first == 10_000
