"""One settings file, read from the environment. SQLite by default; DATABASE_URL for PostgreSQL.

The defaults serve `make run` on a home network; production sets SECRET_KEY, ALLOWED_HOSTS,
CSRF_TRUSTED_ORIGINS, DATABASE_URL and SECURE=1 (see the README).
"""

import os
import secrets
import warnings
from datetime import timedelta
from pathlib import Path

import dj_database_url

from games import INSTALLED_APPS as GAME_APPS

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name, default):
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def envlist(name, default):
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def local_secret_key(path):
    """A key of this machine's own, made once and kept beside the code (never committed): a
    server started without SECRET_KEY never signs cookies with a key anyone could read."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(descriptor, "w") as file:
        file.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


SECRET_KEY = os.environ.get("SECRET_KEY") or local_secret_key(BASE_DIR / ".secret_key")
DEBUG = envbool("DEBUG", False)
# Phones on the home network reach `make run` by the machine's LAN address: allow any host unless
# production narrows it.
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "*")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")
CSRF_FAILURE_VIEW = "companion.views.csrf_failed"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "csp",
    "template_partials",
    "django_tasks",
    "django_tasks_db",
    "companion",
    # The games (games/__init__.py), each declaring what it brings in its apps.py.
    *GAME_APPS,
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "companion.middleware.CompressedPages",
    "companion.middleware.refuse_control_characters",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "companion.middleware.permissions_policy",
    "django_htmx.middleware.HtmxMiddleware",
    "companion.middleware.DatabaseUnavailable",
]

ROOT_URLCONF = "companion.urls"
ASGI_APPLICATION = "companion.asgi.application"
WSGI_APPLICATION = "companion.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=0,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A test database per test run, so that two runs on one server do not drop each other's.
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}
    # psycopg 3's pool: each process keeps a few warm connections instead of one per request.
    if envbool("DB_POOL", True):
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": int(os.environ.get("DB_POOL_MIN", "2")),
            "max_size": int(os.environ.get("DB_POOL_MAX", "20")),
            "timeout": 10,
        }
    # Parameters bound by the server, and a statement run five times on a connection prepared:
    # PostgreSQL then plans a move's two statements once per connection, not on every move
    # (planning was three quarters of their time in the database). DB_PREPARE=0 turns this
    # off, for a pooler in transaction mode (PgBouncer) that cannot keep prepared statements.
    if envbool("DB_PREPARE", True):
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            {"server_side_binding": True, "prepare_threshold": 5})
else:
    # Writers queue for the lock (for up to SQLITE_BUSY_SECONDS; past it the request answers
    # 503, companion.middleware.DatabaseUnavailable) instead of failing at once with "database
    # is locked" when two phones post together; with write-ahead logging, readers never wait
    # for a writer.
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "transaction_mode": "IMMEDIATE",
        "timeout": float(os.environ.get("SQLITE_BUSY_SECONDS", "20")),
        "init_command": "PRAGMA journal_mode=WAL;",
    })
    # Tests use a file, not memory: the browser tests' ASGI server reads it from its own threads.
    # One per test run, so that runs side by side do not share it.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# How a committed change reaches the event streams (companion/live.py): through PostgreSQL's
# NOTIFY to every server process, or within the one process SQLite is served by.
COMPANION_BROKER = os.environ.get("COMPANION_BROKER") or (
    "companion.live.PostgresBroker"
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    else "companion.live.LocalBroker")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# The user name in any case (companion/backends.py), the password as Django checks it.
AUTHENTICATION_BACKENDS = ["companion.backends.AnyCaseBackend"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# A phone's language: the switch in the header (this cookie, kept a year), else the browser's
# Accept-Language. The API answers in the language of Accept-Language.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True
# One date format on every page: "24 Nov 2026" and "24 Nov 2026, 14:05" (companion/formats/).
FORMAT_MODULE_PATH = ["companion.formats"]

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
# `collectstatic` (which `make run` runs) writes every static file under a name carrying a hash of
# its content, with gzip and brotli copies beside it; WhiteNoise serves the copy the browser
# accepts and marks hashed names immutable for ten years: a phone fetches each file once.
# Tests run without collectstatic (a manifest storage refuses a name missing from its manifest):
# under pytest (PYTEST_VERSION, set by pytest and inherited by the servers the tests start) the
# plain names are served from the apps' folders. STATIC_HASHED=0/1 decides it by hand.
STATIC_HASHED = envbool("STATIC_HASHED", "PYTEST_VERSION" not in os.environ)
# Until `collectstatic` has run, the plain names are served from the apps' folders (asgi.py says
# so in the log once).
STATIC_COLLECTED = (STATIC_ROOT / "staticfiles.json").exists()
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "companion.static_storage.StaticStorage"
                    if STATIC_HASHED else "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Only the hashed copies are kept (and compressed): half the work for collectstatic.
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
WHITENOISE_USE_FINDERS = not (STATIC_HASHED and STATIC_COLLECTED)
# Files served from the apps' folders (tests, DEBUG) are looked at again on each request: a file
# edited while the server runs would otherwise go out with its old length.
WHITENOISE_AUTOREFRESH = DEBUG or WHITENOISE_USE_FINDERS

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "knox.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "companion.api.errors.exception_handler",
    # The API speaks JSON (api.md); a form body is 415.
    "DEFAULT_PARSER_CLASSES": ["companion.api.parsers.CheckedJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
# API tokens (django-rest-knox): one per signed-in device, kept as a hash, ended by signing out,
# from the list of devices, or by TOKEN_IDLE_DAYS without a request.
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=float(os.environ.get("TOKEN_IDLE_DAYS", "30"))),
    "AUTO_REFRESH": True,
    "AUTH_HEADER_PREFIX": "Token",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Companion API",
    "DESCRIPTION": (
        "Scorekeeper and rules assistant for tabletop games.\n\n"
        "## Who may do what\n\n"
        "The host signs in with a token and may sit at one seat (`host_seat`) or only keep the "
        "table. Every other phone joins with the session's code (`POST /api/join/`), gets a "
        "guest token (`X-Guest-Token`) and claims one seat. The server decides, for the API and "
        "the pages alike:\n\n"
        "- a seat's phone plays its own seat's moves and the table's shared moves (turn a card, "
        "roll for the table, end a phase); a guest with no seat plays none;\n"
        "- a move for another seat comes from that seat's phone or from the host; a seat's "
        "secret choice (a sealed placement) only from its own phone while a phone holds it; a "
        "role's step (Arthur's draw, Merlin's reveal) from the phone of the seat holding the "
        "role that round, or from the host;\n"
        "- moves that end the game for everyone are the host's;\n"
        "- a phone may undo its own moves and those about its seat while the game is on; "
        "undoing another seat's move, or any undo after the end, is the host's.\n\n"
        "Anything else is answered 403 with a sentence saying whose move it is.\n\n"
        "## Who starts\n\n"
        "A game with a first player names its option for it in `GET /api/games/` "
        "(`first_option`: `first`, or Knights' `merlin`, Merlin in the first round). Creating a "
        "session, `first` (or that option) is a seat, or `\"draw\"`: the set-up draws the seat "
        "from the game's secret seed, as it rolls the dice, so a replay or an import of the "
        "export draws the same one; the options keep `\"draw\"`, the table's log tells who was "
        "drawn, and the Session's `first` is the seat that starts.\n\n"
        "## Languages\n\n"
        "Every answer's sentences (`detail` of an error, `fields`, a move's `summary`) are in "
        "the language of the request's `Accept-Language`: English (`en`, the default) or "
        "Spanish (`es`). `Content-Language` says which. The data (types, fields, names) is the "
        "same in both."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # A game adds the names of choice sets its moves share (GameConfig.enum_names).
    # A session's status, named apart from the games' own "status" fields (Alatriste's jail...).
    "ENUM_NAME_OVERRIDES": {"SessionStatusEnum": "companion.models.Session.Status"},
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "companion.api.schema.live_events",
                             "companion.api.schema.accept_language",
                             "companion.api.schema.negotiation_errors",
                             "companion.api.schema.limits_and_outages",
                             "companion.api.schema.request_constraints"],
}

# Background work (a BG Stats import) waits in the database for the worker `make run` starts
# beside the server (bin/worker: manage.py db_worker).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

# Caches: the default one is each process's own memory (statistics); rate limits need one that
# every server process shares: a table of the database, or Redis when CACHE_URL names one.
CACHE_URL = os.environ.get("CACHE_URL", "")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "limits": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
        if CACHE_URL.startswith(("redis://", "rediss://"))
        else {"BACKEND": "django.core.cache.backends.db.DatabaseCache",
              "LOCATION": "companion_limits"}
    ),
}
RATELIMIT_USE_CACHE = "limits"
# The client's address; behind a proxy that sets it, e.g. HTTP_X_REAL_IP.
RATELIMIT_IP_META_KEY = os.environ.get("CLIENT_IP_HEADER", "REMOTE_ADDR")
# "count/period" (s, m, h, d; "10/15m" is ten per quarter hour). Failed joins: a code is one of
# 31^6; with 1,000 games open, one guess in 887,504 finds one: at 60 an hour, 1.7 years.
LIMITS = {
    "join_failures": os.environ.get("LIMIT_JOIN_FAILURES", "60/h"),
    "login_failures_account": os.environ.get("LIMIT_LOGIN_FAILURES_ACCOUNT", "10/15m"),
    "login_failures_client": os.environ.get("LIMIT_LOGIN_FAILURES_CLIENT", "30/15m"),
    "registrations": os.environ.get("LIMIT_REGISTRATIONS", "10/h"),
    "names_taken": os.environ.get("LIMIT_NAMES_TAKEN", "20/h"),
}
GUESTS_PER_SESSION = int(os.environ.get("GUESTS_PER_SESSION", "30"))

# Content-Security-Policy: scripts, styles, fonts and images from this server only, nothing
# inline (django-csp). The camera is ours to ask for (scanning a join code), nothing else.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
PERMISSIONS_POLICY = ("camera=(self), microphone=(), geolocation=(), payment=(), usb=(), "
                      "interest-cohort=()")

# Production behind HTTPS: SECURE=1 turns on the cookie and transport settings check --deploy asks.
SECURE = envbool("SECURE", False)
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_SSL_REDIRECT = SECURE and envbool("SSL_REDIRECT", True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if SECURE else None
SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", "31536000" if SECURE else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE
SECURE_HSTS_PRELOAD = SECURE
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# WhiteNoise hands Django's ASGI handler a file iterator; Django warns that it reads it in a thread.
# That is fine for our few small static files.
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous")
# Development and tests serve static files from the apps' folders (WHITENOISE_USE_FINDERS).
warnings.filterwarnings("ignore", message="No directory at: .*staticfiles")
