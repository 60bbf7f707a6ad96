import gc
import os

import django
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does

from companion.handler import Handler  # noqa: E402 - needs the apps loaded

# Django's ASGI handler, with each synchronous view served in one hop (companion/handler.py).
application = Handler()

# A server process holds some hundred thousand objects that live as long as it does (Django, every
# view and game, the compiled URLconf), and each move makes and drops thousands more. With the
# default thresholds the cyclic collector walked the long-lived ones again and again: a tenth of a
# worker's CPU under the bench's phones and moves, in pauses of up to 140 ms. Those loaded now are
# frozen (left out of every collection), and a collection waits for 10,000 new objects instead of
# 700: 3.5% of the CPU, pauses under 50 ms (bench/README.md, "The garbage collector, and parts
# found once").
get_resolver().url_patterns  # noqa: B018 - imports every view, and through them every game
gc.collect()
gc.freeze()
gc.set_threshold(10_000, 10, 10)
