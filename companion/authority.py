"""Who may do what: the one place that decides, from the actor and the move's seat, for the
API and the pages alike (services refuse with these sentences; pages only hide what would be
refused)."""


from django.utils.translation import gettext as _

from companion import engine, plugins
from companion.errors import (
    Forbidden,
)


def move_seat(data, actor):
    seat = data.get("seat") if isinstance(data, dict) else None
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else actor.seat


def session_seat_name(session, seat):
    # seats.all(): the seats the view fetched with the session, if it did (no query then).
    names = {row.index: row.name for row in session.seats.all()}
    return names.get(seat, _("seat %(seat)s") % {"seat": seat})


def _phone_seats(session):
    return set(session.guests.filter(seat__isnull=False).values_list("seat", flat=True))


def move_authorize(*, session, rules, type, data, actor):
    """Forbidden unless `actor` may make this move: the one place that decides, for the API and
    the pages alike. A seat's phone plays its own seat's moves and the table's; a move for
    another seat comes from that seat's phone or the host (a seat's own secret choice only from
    its phone while a phone holds it); moves that end the game for everyone are the host's."""
    level, seats = engine.move_authority(rules, type, data, session.state)
    if actor.is_host:
        if level == engine.OWN:
            held = _phone_seats(session) - {session.host_seat}
            for seat in seats:
                if seat in held:
                    name = session_seat_name(session, seat)
                    raise Forbidden(_("Only %(name)s's own phone may make this move: %(name)s "
                                      "has joined with a phone.") % {"name": name})
        return
    if actor.seat is None:
        raise Forbidden(_("Choose your seat first: a phone plays for its own seat."))
    phones = _move_phones(level, seats)
    if phones is None or actor.seat in phones:
        return
    if level == engine.HOST:
        raise Forbidden(_("Only the host may do this: it changes the game for everyone."))
    name = session_seat_name(session, seats[0])
    if level == engine.OWN:
        raise Forbidden(_("Only %(name)s's own phone may make this move.") % {"name": name})
    fighters = list(dict.fromkeys(seats))
    if len(fighters) == 2:  # a fight: either fighter's phone enters it
        raise Forbidden(_("This is a move of %(one)s or %(other)s: it comes from one of their "
                          "phones or the host's.") % {
                              "one": name, "other": session_seat_name(session, fighters[1])})
    raise Forbidden(_("This is %(name)s's move: it comes from %(name)s's phone or the "
                      "host's.") % {"name": name})


def _move_phones(level, seats):
    """The seats whose phones may make a move of this authority: None for any seated phone."""
    if level == engine.HOST:
        return ()
    if level in (engine.OWN, engine.SEAT):
        return tuple(seats)
    return None


def move_phones(*, session, rules, type, data):
    """The seats whose phones may make this move now, as move_authorize decides for a phone
    (None: any seated phone; none: the host's alone). The page hides from a phone what it would
    only be refused (a Redo), the refusal itself still decided above."""
    level, seats = engine.move_authority(rules, type, data, session.state)
    return _move_phones(level, seats)


def redo_authorize(*, move, actor):
    """Forbidden when `actor` may not play the undone `move` again for who undid it: what the
    host undid is the host's decision, which a phone does not overturn. (Whose move it is, the
    move's own authority decides as for any move: move_authorize.)"""
    if move.undone_by_host and not actor.is_host:
        raise Forbidden(_("The host undid this move: only the host may redo it."))


def redo_phones(*, session, rules, move):
    """The seats whose phones may redo the undone `move`, as redo_authorize and move_authorize
    decide (None: any seated phone; none: the host's alone)."""
    if move.undone_by_host:
        return ()
    return move_phones(session=session, rules=rules, type=move.type, data=move.data)


def undo_authorize(*, session, move, actor):
    """Forbidden unless `actor` may undo `move`, the last active move: the host may always; a
    guest's phone its own moves and those about its seat while the game is on."""
    if actor.is_host:
        return
    why = _undo_kept_for_host(session, move, plugins.rules_of(session.game))
    if why:
        raise Forbidden(why)
    phones = _undo_movers(move)
    if ("guest", actor.guest.pk) in phones or ("seat", actor.seat) in phones:
        return
    who = session_seat_name(session, move.seat) if move.seat is not None else _("another phone")
    raise Forbidden(_("Only the host may undo a move of %(who)s.") % {"who": who})


def _undo_kept_for_host(session, move, rules):
    """Why only the host may undo `move` (a sentence), or None."""
    if session.is_finished:
        return _("The game is over: only the host may undo now.")
    return (rules.host_undoes and rules.host_undoes({"type": move.type, "data": move.data},
                                                    session.state)) or None


def undo_phones(*, session, move, rules):
    """The phones besides the host's that may undo `move`, the last active one, as
    undo_authorize decides: ("seat", n) for its seat's, ("guest", id) for the one that made it;
    none when only the host may."""
    return () if _undo_kept_for_host(session, move, rules) else _undo_movers(move)


def _undo_movers(move):
    """The phones of the move's seat and the one that made it, which may undo it while the game
    is its players' to undo."""
    phones = []
    if move.seat is not None:
        phones.append(("seat", move.seat))
    if move.actor_guest_id is not None:
        phones.append(("guest", move.actor_guest_id))
    return tuple(phones)
