"""Joining a table: by its code or QR, taking or freeing a seat."""

import io

import segno
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from companion import inputs, limits, services
from companion.access import guest_cookie_name, sessions_with_seats, table_access
from companion.errors import Refused
from companion.lan import public_base
from companion.models import Session
from companion.views.accounts import refused_page

GUEST_COOKIE_AGE = 60 * 60 * 24 * 30


def guest_seated(request, guest):
    """To the table, this phone now known as `guest` of its session (its cookie set)."""
    response = redirect("table", pk=guest.session_id)
    response.set_cookie(guest_cookie_name(guest.session_id), guest.token,
                        max_age=GUEST_COOKIE_AGE, httponly=True, samesite="Lax",
                        secure=request.is_secure())
    return response


def join(request):
    code = Session.typed_code(request.GET.get("code"))
    if code and Session.is_code(code):
        return redirect("join-code", code=code)
    if code:
        return join_code(request, code)
    return render(request, "companion/join.html", {})


def join_code(request, code):
    code = Session.typed_code(code)
    try:
        limits.join_check(request)
    except Refused as refusal:
        return refused_page(request, "companion/join.html", {"code": code[:20]}, refusal)
    session = None
    if Session.is_code(code):
        session = sessions_with_seats().filter(code=code, status=Session.Status.ACTIVE).first()
        if session is None:
            # A finished game's code, shared before its rematch: the rematch's seats.
            rematch = (Session.objects.filter(code=code, rematch__status=Session.Status.ACTIVE)
                       .values_list("rematch__code", flat=True).first())
            if rematch:
                return redirect("join-code", code=rematch)
    if session is None:
        limits.join_failed(request)
        code = "".join(letter for letter in code[:20] if letter.isprintable())
        return render(request, "companion/join.html",
                      {"error": _("No game is open with the code %(code)s.") % {"code": code},
                       "code": code}, status=404)
    claimed = set(session.guests.exclude(seat=None).values_list("seat", flat=True))
    context = {"session": session, "claimed": claimed}
    if request.method == "POST":
        try:
            seat = inputs.optional_number(request.POST.get("seat"), label=_("The seat"))
            guest = services.guest_join(code=code, seat=seat)
        except Refused as refusal:
            return refused_page(request, "companion/join_seat.html", context, refusal)
        return guest_seated(request, guest)
    return render(request, "companion/join_seat.html", context)


def qr_response(request, session):
    url = public_base(request) + reverse("join-code", args=[session.code])
    # A file of its own (an <img>), so it needs its namespace: without it the image is 0 px wide.
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, dark="#1b1b1b", light="#ffffff",
                                    xmldecl=False, svgns=True)
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    # The code and the address do not change for a session: a repeat visit loads it from cache.
    response["Cache-Control"] = "private, max-age=86400"
    return response


def join_qr(request, pk):
    session, _actor = table_access(request, pk)
    return qr_response(request, session)
