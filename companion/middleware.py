"""At the door, before and after every view: text with control characters in a query string or a
form is refused (PostgreSQL refuses a NUL in any text, so such a value would otherwise end as a
500 deep inside a query); every answer says which browser features the pages may use."""

from django.conf import settings
from django.http import HttpResponseBadRequest, JsonResponse
from django.utils.translation import gettext as _

from companion.inputs import has_control


def _fields(request):
    yield from request.GET.lists()
    if request.method == "POST" and request.content_type in (
            "application/x-www-form-urlencoded", "multipart/form-data"):
        yield from request.POST.lists()


def refuse_control_characters(get_response):
    def middleware(request):
        for key, values in _fields(request):
            if has_control(key) or any(has_control(value) for value in values):
                message = _("%(field)s: text may not contain control characters.") % {
                    "field": key.replace("\x00", "") or "?"}
                if request.path.startswith("/api/"):
                    return JsonResponse({"detail": message, "code": "invalid",
                                         "fields": {key: [message]}}, status=400)
                return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return get_response(request)

    return middleware


def permissions_policy(get_response):
    def middleware(request):
        response = get_response(request)
        response.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response

    return middleware
