"""At the door, before and after every view: text with control characters or a number of
hundreds of digits in a query string or a form is refused (PostgreSQL refuses a NUL in any text,
int() more than 4,300 digits, so such a value would otherwise end as a 500 deep inside a query or
a game's rules); a view that cannot have the database answers 503; every answer says which
browser features the pages may use."""

import logging

from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.db import OperationalError
from django.http import JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.middleware.gzip import GZipMiddleware
from django.utils import translation
from django.utils.translation import gettext as _
from psycopg_pool import PoolTimeout

from companion.bad_input import bad_input_page
from companion.inputs import has_control, has_long_number, long_number_message

logger = logging.getLogger(__name__)


def _fields(request):
    yield from request.GET.lists()
    if request.method == "POST" and request.content_type in (
            "application/x-www-form-urlencoded", "multipart/form-data"):
        yield from request.POST.lists()


def _refused_field(request):
    """(the field's name, what is wrong with it: "control" or "long") of the first field
    refused, else None. Raises what Django raises on a form it cannot read."""
    for key, values in _fields(request):
        if has_control(key) or any(has_control(value) for value in values):
            return key, "control"
        if has_long_number(key) or any(has_long_number(value) for value in values):
            return key, "long"
    return None


def _refusal(key, wrong):
    field = key.replace("\x00", "")[:40] or "?"
    if wrong == "control":
        return _("%(field)s: text may not contain control characters.") % {"field": field}
    return f"{field}: {long_number_message()}"


def refuse_control_characters(get_response):
    def middleware(request):
        try:
            refused = _refused_field(request)
        except (MultiPartParserError, SuspiciousOperation):
            # A form body that cannot be read (no boundary, too many fields, too large): said
            # here, in the reader's language, rather than left to Django (in English, logged
            # with a traceback).
            refused = None, "unreadable"
        if refused is None:
            return get_response(request)
        key, wrong = refused
        # This runs before LocaleMiddleware (a NUL must not reach the session's query), so the
        # refusal is said here in the language that middleware would choose.
        language = translation.get_language_from_request(request)
        with translation.override(language):
            if wrong == "unreadable":
                message = _("This request could not be read: it is malformed or too large.")
            else:
                message = _refusal(key, wrong)
            if request.path.startswith("/api/"):
                body = {"detail": message, "code": "invalid"}
                if key is not None:
                    body["fields"] = {key: [message]}
                response = JsonResponse(body, status=400)
            else:
                response = bad_input_page(request, message)
        response["Content-Language"] = language
        return response

    return middleware


def permissions_policy(get_response):
    def middleware(request):
        response = get_response(request)
        response.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response

    return middleware


class CompressedPages(GZipMiddleware):
    """Pages and API answers gzip-compressed for a phone on slow Wi-Fi (static files come
    precompressed from WhiteNoise); an event stream never: each event must leave at once, not
    wait in a compressor's buffer. The CSRF token in a page is masked anew for every answer
    (Django's defence against BREACH)."""

    def process_response(self, request, response):
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)


RETRY_SECONDS = 2


class DatabaseUnavailable:
    """A view that could not have the database (SQLite locked past its busy timeout, PostgreSQL
    gone or the pool empty past its wait) answers 503 with Retry-After and a sentence, not a
    500. Its transaction was rolled back: nothing is half-applied, and a phone may send the
    same move again."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, OperationalError | PoolTimeout):
            return None
        logger.warning("database unavailable for %s: %s", request.path, exception)
        message = _("The table's records cannot be reached this moment: wait a few seconds and "
                    "send it again.")
        if request.path.startswith("/api/"):
            response = JsonResponse({"detail": message, "code": "unavailable"}, status=503)
        else:
            response = bad_input_page(request, message)
            response.status_code = 503
        response["Retry-After"] = str(RETRY_SECONDS)
        return response
