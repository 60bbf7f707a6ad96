"""Rate limits on what a guesser or a password tryer repeats, kept in a cache every server process
shares (settings.CACHES["limits"]: the database by default, Redis with CACHE_URL), counted with
django-ratelimit. Play is never limited: only failed joins, failed sign-ins, registrations, names
tried that were taken and the number of phones a session takes.

Each limit is a setting (settings.LIMITS, "count/period"), documented in the README.
"""

import unicodedata
from contextlib import contextmanager

from django.conf import settings
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from companion.errors import NameTaken, NotFound, Refused


class Limited(Refused):
    status, code = 429, "rate_limited"

    def __init__(self, message, *, retry_after):
        super().__init__(message)
        self.retry_after = max(1, int(retry_after))


def _client(group, request):
    return request.META.get(settings.RATELIMIT_IP_META_KEY, "") or "unknown"


def _usage(request, name, key, increment):
    return get_usage(request, group=f"companion.{name}", key=key or _client,
                     rate=settings.LIMITS[name], increment=increment)


def limit_check(request, *, name, key=None, message):
    """Limited when `name` has been counted its allowed number of times in its period, for this
    client (or for `key`, e.g. an account): checked before the attempt."""
    usage = _usage(request, name, key and (lambda group, request: key), increment=False)
    if usage is not None and usage["count"] >= usage["limit"]:
        raise Limited(message, retry_after=usage["time_left"])


def limit_count(request, *, name, key=None):
    """Count one more of `name` (a failure, a registration) for this client or `key`."""
    _usage(request, name, key and (lambda group, request: key), increment=True)


def join_check(request):
    limit_check(request, name="join_failures", message=_(
        "Too many codes that open no game were tried from here: wait a while and check the "
        "code with the host."))


def join_failed(request):
    limit_count(request, name="join_failures")


@contextmanager
def join_counted(request):
    """A join by a code (a table's, a group's): refused past the limit, and a code that opens
    nothing (NotFound, raised within) counted as a failed join."""
    join_check(request)
    try:
        yield
    except NotFound:
        join_failed(request)
        raise


def _account(username):
    """The account a typed name signs in to, as the sign-in form reads it (NFKC: "ｖｉｃｔｉｍ"
    is "victim") and in any case: each spelling of one account counted its own wrong
    passwords."""
    text = username if isinstance(username, str) else ""
    return unicodedata.normalize("NFKC", text).strip().casefold()


def sign_in_check(request, username):
    """Checked before the password: a locked account stays locked whatever password comes."""
    message = _("Too many wrong passwords: wait a while before signing in again.")
    limit_check(request, name="login_failures_account", key=_account(username), message=message)
    limit_check(request, name="login_failures_client", message=message)


def sign_in_failed(request, username):
    limit_count(request, name="login_failures_account", key=_account(username))
    limit_count(request, name="login_failures_client")


@contextmanager
def registering(request):
    """Around making an account, on the API and the sign-up page alike. Before: a client that
    made its allowed number of accounts, or tried its allowed number of names that were taken,
    is refused before the name is looked up. A refusal for a taken name is counted, since the
    answer tells a taken name from a free one (uncounted, anyone could list every account's
    name). After: only accounts count (a password refused as too common, tried again, is not
    one; counted before, ten such tries locked a person out for an hour)."""
    limit_check(request, name="registrations", message=_(
        "Too many accounts were made from here: wait a while before making another."))
    limit_check(request, name="names_taken", message=_(
        "Too many names that are taken were tried from here: wait a while before trying "
        "another."))
    try:
        yield
    except NameTaken:
        limit_count(request, name="names_taken")
        raise
    limit_count(request, name="registrations")
