"""The installable app: the web app manifest and the service worker, both served by the app.

The service worker is a template (templates/pwa/sw.js) served from the root, /sw.js, so that its
scope is the whole site; it keeps the app shell (every static file, under the names the pages
use, hashed once collected) and the pages this phone opened, for when the connection drops.
"""

import functools
import hashlib
import json

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import etag, require_safe

# What the service worker keeps at once: what every page and the table page load (each game's
# own files are kept as they are loaded). The rest flows through the worker and is kept on the way.
SHELL = ["css/companion.css", "vendor/htmx-2.0.11.min.js", "vendor/htmx-ext-sse-2.2.4.min.js",
         "js/pwa.js", "js/table.js", "js/table_page.js", "js/own_move.js", "js/offline.js"]
THEME_COLOR = "#1b1b1b"  # the header's --ink (static/css/companion.css)
BACKGROUND_COLOR = "#fbf8f2"  # --paper


@require_safe
def manifest(request):
    data = {
        "id": "/",
        "name": _("Companion: scores and rules at the table"),
        "short_name": "Companion",
        "description": _("Scorekeeper and rules assistant for tabletop games."),
        "lang": request.LANGUAGE_CODE,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png",
             "purpose": "any"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "any"},
            {"src": static("icons/maskable-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json",
                            json_dumps_params={"ensure_ascii": False})
    # It names the icons by their hashed names: a day old at most.
    response["Cache-Control"] = "public, max-age=86400"
    return response


@functools.cache
def worker():
    """The shell's URLs (hashed names, once collected) and the worker's version: it changes with
    the content of any of the project's static files or of the worker itself, and a new version
    makes the phone's browser install the new worker, which drops the old copies."""
    root = settings.BASE_DIR / "static"
    digest = hashlib.sha256(get_template("pwa/sw.js").template.source.encode())
    for path in sorted(root.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return [static(name) for name in SHELL], digest.hexdigest()[:16]


def _worker_etag(request):
    return f"{worker()[1]}-{request.LANGUAGE_CODE}"


@require_safe
@etag(_worker_etag)
def service_worker(request):
    urls, version = worker()
    body = render_to_string("pwa/sw.js", {
        "version": version,
        "lang": request.LANGUAGE_CODE,
        "offline_title": _("Offline"),
        "offline_text": _("You are offline, and this page was not opened on this phone before. "
                          "It will open once the connection is back."),
        "shell_json": json.dumps(urls),
        "static_prefix": "/" + settings.STATIC_URL.lstrip("/"),
    }, request=request)
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # The browser asks for the worker again on visits; it never keeps it without asking.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
