"""At the door, before and after every view: text with control characters or a number of
hundreds of digits in a query string or a form is refused (PostgreSQL refuses a NUL in any text,
int() more than 4,300 digits, so such a value would otherwise end as a 500 deep inside a query or
a game's rules); every answer says which browser features the pages may use."""

from django.conf import settings
from django.http import JsonResponse
from django.middleware.gzip import GZipMiddleware
from django.utils import translation
from django.utils.translation import gettext as _

from companion.bad_input import bad_input_page
from companion.inputs import has_control, has_long_number, long_number_message


def _fields(request):
    yield from request.GET.lists()
    if request.method == "POST" and request.content_type in (
            "application/x-www-form-urlencoded", "multipart/form-data"):
        yield from request.POST.lists()


def _refusal(request, key, values):
    """The sentence refusing a field, or None."""
    field = key.replace("\x00", "")[:40] or "?"
    control = has_control(key) or any(has_control(value) for value in values)
    if not control and not (has_long_number(key) or any(has_long_number(v) for v in values)):
        return None
    if control:
        return _("%(field)s: text may not contain control characters.") % {"field": field}
    return f"{field}: {long_number_message()}"


def refuse_control_characters(get_response):
    def middleware(request):
        # This runs before LocaleMiddleware (a NUL must not reach the session's query), so a
        # refusal is said here in the language that middleware would choose.
        for key, values in _fields(request):
            with translation.override(translation.get_language_from_request(request)):
                message = _refusal(request, key, values)
                if message is None:
                    continue
                if request.path.startswith("/api/"):
                    return JsonResponse({"detail": message, "code": "invalid",
                                         "fields": {key: [message]}}, status=400)
                return bad_input_page(request, message)
        return get_response(request)

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
