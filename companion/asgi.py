import logging
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")

application = get_asgi_application()

from django.conf import settings  # noqa: E402 - read once the app is set up

if settings.STATIC_HASHED and not settings.STATIC_COLLECTED:
    logging.getLogger("companion").warning(
        "No static files collected in %s: they are served from the apps' folders, under plain "
        "names. Run `manage.py collectstatic` (make run does) to serve them hashed and "
        "compressed.", settings.STATIC_ROOT)
