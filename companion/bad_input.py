"""The page a browser gets for input refused where no page of its own can show the sentence
(before any view ran, or a query value a page cannot use): the sentence, on a page that fits a
phone, with the way back. The API gets its JSON refusal instead."""

from urllib.parse import urlsplit

from django.http import HttpResponseBadRequest
from django.template.loader import render_to_string
from django.utils import translation


def bad_input_page(request, message):
    html = render_to_string("400.html", {"message": message, "back": _back(request),
                                         "language": translation.get_language()})
    return HttpResponseBadRequest(html)


def _back(request):
    """The page the form or link was on, when it is one of ours (its path), else None."""
    referer = urlsplit(request.headers.get("Referer", ""))
    if referer.netloc and referer.netloc == request.get_host() and referer.path.startswith("/"):
        return referer.path + (f"?{referer.query}" if referer.query else "")
    return None
