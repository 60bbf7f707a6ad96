"""The error pages: a sentence in the reader's language, or JSON for the API's paths."""


from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views import defaults


def _api_error(request, status, detail, code):
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": detail, "code": code}, status=status)
    return None


def not_found(request, exception):
    return (_api_error(request, 404, _("There is nothing at this address."), "not_found")
            or defaults.page_not_found(request, exception))


def bad_request(request, exception):
    return (_api_error(request, 400, _("This request could not be read: it is malformed or too "
                                        "large."), "invalid")
            or defaults.bad_request(request, exception))


def csrf_failed(request, reason=""):
    """A form sent without its token, or with an old one (left open while its host signed in
    again elsewhere): a page of ours that says what to do, in the phone's language."""
    sentence = _("This form was open for too long, or you signed in again meanwhile: go back, "
                 "reload the page and send it again.")
    return (_api_error(request, 403, sentence, "forbidden")
            or render(request, "403_csrf.html", {"sentence": sentence}, status=403))


def server_error(request):
    return (_api_error(request, 500, _("Something went wrong on our side."), "error")
            or defaults.server_error(request))
