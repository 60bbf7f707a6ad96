"""The read-only board, for a screen in the middle of the table."""


from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

from companion.access import sessions_with_seats
from companion.views.joining import qr_response
from companion.views.tables import free_seats, table_context, unweakened


def _board_session(key):
    session = sessions_with_seats().filter(board_key=key).first()
    if session is None:
        raise Http404(_("There is no such board."))
    return session


def board_qr(request, key):
    """The join code's QR on the board, while seats are free (the board is read-only)."""
    session = _board_session(key)
    if not free_seats(session):
        raise Http404(_("Every seat has a phone."))
    return qr_response(request, session)


def board(request, key):
    session = _board_session(key)
    # The board is the table's screen: it speaks the table's language, whoever opens it.
    etag = f'"{session.version}-{session.language}-board"'
    if unweakened(request.headers.get("If-None-Match")) == etag:
        response = HttpResponse(status=304)
    else:
        template = "companion/board.html"
        if request.htmx:
            template += "#live"
        with translation.override(session.language):
            response = render(request, template, table_context(request, session, None))
        response["Content-Language"] = session.language
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    # The whole page, or for htmx one partial of it: a cache keeps them apart.
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def board_follow(request, key):
    """Where the board of a finished table goes for the rematch: the new game's board (the
    phones' way, /s/<id>/next/, is a table's, which the board has no access to)."""
    session = _board_session(key)
    if session.rematch_id is None:
        return redirect("board", key=key)
    return redirect("board", key=session.rematch.board_key)
