"""Guests: a phone joining a table, taking, freeing and following its seat."""


from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from companion import live, plugins
from companion.authority import session_seat_name
from companion.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
)
from companion.limits import Limited
from companion.models import Guest, Session
from companion.services.sessions import seat_checked, session_announce, session_locked


def guest_follow(*, guest):
    """The guest of the rematch a guest's phone follows to: the one made for it at the rematch
    (its seat's), else a seatless one made now, once. Only that phone's: whoever holds its seat
    at the rematch now (a phone that joined it with the new code) keeps its own token."""
    new = guest.session.rematch
    if new is None:
        raise NotFound(_("There is no rematch of this game yet."))
    # Django's get_or_create: the same phone following twice at once makes one.
    return Guest.objects.get_or_create(came_from=guest, defaults={"session": new})[0]


def guest_join(*, code, seat=None):
    code = Session.typed_code(code)
    session = None
    if Session.is_code(code):
        session = Session.objects.filter(code=code, status=Session.Status.ACTIVE).first()
    if session is None:
        raise NotFound(_("No game is open with the code %(code)s.")
                       % {"code": code[:20] or "(empty)"})
    with transaction.atomic():
        session = session_locked(session)  # two phones joining at once count each other
        if session.guests.count() >= settings.GUESTS_PER_SESSION:
            # A phone taking a seat is a player: the phone without a seat that joined first
            # makes room (anyone with the code could fill a table with seatless phones).
            spare = session.guests.filter(seat=None).order_by("created_at", "pk").first() \
                if seat is not None else None
            if spare is None:
                raise Limited(_("This game already has %(count)s phones: one of them can show "
                                "the table.") % {"count": settings.GUESTS_PER_SESSION},
                              retry_after=3600)
            spare.delete()
        guest = Guest.objects.create(session=session)
        if seat is not None:
            guest_seat_claim(guest=guest, seat=seat)
    return guest


def guest_seat_free(*, session, actor, seat):
    """The host frees the seat a phone holds (that phone lost, flat, or swapped for another):
    the phone stays at the table without a seat, and the seat is free for the next phone to
    claim. Until then the host plays the seat's moves, its secret ones too."""
    if not actor.is_host:
        raise Forbidden(_("Only the host may free a phone's seat."))
    with transaction.atomic():
        session = session_locked(session)
        if seat is None:
            message = _("Choose the seat to free.")
            raise Invalid(message, fields={"seat": [message]})
        seat_checked(seat, session.seats.count())
        if not session.guests.filter(seat=seat).update(seat=None):
            raise Conflict(_("No phone holds %(name)s's seat.") % {
                "name": session_seat_name(session, seat)})
        session.version += 1
        session.save(update_fields=["version", "updated_at"])
        session_announce(session, seats=True)
    return session


def guest_seat_claim(*, guest, seat):
    session = guest.session
    if session.is_finished:
        raise Conflict(_("This game is over: its seats stay as they were."))
    seat_checked(seat, session.seats.count())
    rules = plugins.rules_of(session.game)
    if guest.seat is not None and seat != guest.seat and rules.pending \
            and rules.pending(session.state):
        # A seat's phone sees that seat's secrets: moving to a seat whose choice the host
        # sealed (no phone held it), and back, a phone would seal its own knowing that one.
        raise Conflict(_("A phone keeps its seat while a choice is hidden (a sealed placement, "
                         "a draw): at another seat it would see that seat's."))
    if seat == session.host_seat:
        raise Conflict(_("That seat is the host's."))
    if Guest.objects.filter(session=session, seat=seat).exclude(pk=guest.pk).exists():
        raise Conflict(_("That seat is already claimed by another phone."))
    guest.seat = seat
    try:
        with transaction.atomic():
            guest.save(update_fields=["seat"])
            # No new version: the other phones' open forms stay good.
            live.announce(session.pk, session.version, seats=True)
    except IntegrityError:
        raise Conflict(_("That seat is already claimed by another phone.")) from None
    return guest
