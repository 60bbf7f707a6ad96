"""The app's settings, with the game docs/adding-a-game.md adds (tests/coins): its one line, as a
product game's is in games/__init__.py."""

from companion.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.coins"]  # noqa: F405

# Background work runs at once, in the request that queues it; tests of the worker itself
# (tests/api/test_bgstats_imports.py) queue in the database and start bin/worker.
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
