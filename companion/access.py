"""Who may see and play a session. Every view asks here; templates never decide access.

- the host (the session's owner) and the session's guests may see it and play;
- a guest token of another session: 403;
- anyone else, other hosts included: 404, as if the session did not exist.
"""

import functools
import json

from django.db import connection
from django.db.models import FilteredRelation, Q
from django.db.models.sql import Query
from django.utils.translation import gettext as _

from companion.errors import Forbidden, NotFound, Refused
from companion.models import Guest, Move, Seat, Session
from companion.services import Actor

GUEST_HEADER = "X-Guest-Token"


def guest_cookie_name(session_id):
    return f"guest{session_id}"


def _guest_token(request, session_id, *, cookies):
    token = request.headers.get(GUEST_HEADER)
    if not token and cookies:
        token = request.COOKIES.get(guest_cookie_name(session_id))
    return token


def request_user(request):
    """The signed-in user: from the session cookie, or an API token (for the plain Django views
    that serve the API's event stream; DRF views have resolved it already)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return user
    scheme, _, key = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "token" and key:
        from rest_framework.authtoken.models import Token

        token = Token.objects.select_related("user").filter(key=key.strip()).first()
        if token is not None and token.user.is_active:
            return token.user
    return None


def session_access(request, session_id, *, cookies=False, queryset=None):
    """(session, actor) for whoever may act on the session, or NotFound / Forbidden.

    The API reads the guest token from its header only; pages (cookies=True) also from the cookie
    the join page set.
    """
    queryset = queryset if queryset is not None else Session.objects.all()
    token = _guest_token(request, session_id, cookies=cookies)
    if token:
        # A phone's guest comes joined to its session: one query for every request of a phone.
        queryset = queryset.annotate(phone=FilteredRelation(
            "guests", condition=Q(guests__token=token))).select_related("phone")
    session = queryset.filter(pk=session_id).first()
    guest = getattr(session, "phone", None) if token else None  # unset when no guest joins
    return session, _actor(request, session, guest, token)


def _actor(request, session, guest, token):
    """Who acts on `session` (None: not found), read with the guest whose token came, if any."""
    if session is None:
        raise NotFound(_("There is no such game, or it is not yours."))
    user = request_user(request)
    if user is not None and session.owner_id == user.pk:
        return Actor(user=user, host_seat=session.host_seat)
    if guest is not None:
        guest.session = session
        return Actor(guest=guest)
    if token and token == request.headers.get(GUEST_HEADER) \
            and Guest.objects.filter(token=token).exists():
        raise Forbidden(_("This guest token belongs to another game."))
    raise NotFound(_("There is no such game, or it is not yours."))


# A seat as the move's query carries it: its columns in the model's order, in a JSON array, the
# row Seat.from_db takes.
_JSON_ROWS = {"postgresql": "json_agg(json_build_array({}))",
              "sqlite": "json_group_array(json_array({}))"}


@functools.cache
def _play_sql(vendor):
    # Names from the models' metadata only; the values (token, id) are parameters.
    session = Session._meta
    columns = ", ".join(f's."{field.column}"' for field in session.concrete_fields)
    seat = ", ".join(f't."{field.column}"' for field in Seat._meta.concrete_fields)
    return (f'SELECT {columns}, '  # noqa: S608
            f'COALESCE((SELECT MAX(m."seq") FROM "{Move._meta.db_table}" m '
            f'WHERE m."session_id" = s."id"), 0) AS last_seq, '
            f'(SELECT {_JSON_ROWS[vendor].format(seat)} FROM "{Seat._meta.db_table}" t '
            f'WHERE t."session_id" = s."id") AS seat_rows, '
            f'g."id" AS phone_pk, g."seat" AS phone_seat '
            f'FROM "{session.db_table}" s LEFT JOIN "{Guest._meta.db_table}" g '
            f'ON g."session_id" = s."id" AND g."token" = %s WHERE s."id" = %s')


def _seats(session):
    """The seats the move's query carried (`seat_rows`), as the ORM would read them, in order."""
    rows = session.seat_rows
    if isinstance(rows, str):  # SQLite's JSON is text; PostgreSQL's comes decoded
        rows = json.loads(rows)
    names = [field.attname for field in Seat._meta.concrete_fields]
    seats = [Seat.from_db(session._state.db, names, row) for row in rows or ()]
    return sorted(seats, key=lambda seat: seat.index)


@functools.cache
def _session_converters(vendor):
    """The ORM's converters of a session's columns on this database (JSON text to data; on
    SQLite also text to dates and booleans), {index: (functions, column)}, found once."""
    compiler = connection.ops.compiler("SQLCompiler")(Query(Session), connection,
                                                     connection.alias)
    return compiler.get_converters([field.get_col(Session._meta.db_table)
                                    for field in Session._meta.concrete_fields])


def _session_read(row):
    """The session of the move's query's row, as the ORM reads it, with the query's four
    columns more as attributes (last_seq, seat_rows, phone_pk, phone_seat)."""
    fields = Session._meta.concrete_fields
    values = list(row[:len(fields)])
    for index, (functions, column) in _session_converters(connection.vendor).items():
        for function in functions:
            values[index] = function(values[index], column, connection)
    session = Session.from_db(connection.alias, [field.attname for field in fields], values)
    session.last_seq, session.seat_rows, session.phone_pk, session.phone_seat = row[len(fields):]
    return session


def session_access_to_play(request, session_id):
    """session_access for a phone's move through the API, in one plain query built once: the
    session with the seq of its newest move (`last_seq`, see services.with_last_seq), its seats
    (`session.seats.all()` reads no more) and the guest whose token came. The ORM would build its
    queries anew for every move, which cost more than running them, and would read the seats in
    a second round trip. The row is read by position: a RawQuerySet had the cursor describe its
    columns and matched them to the fields on every move (Knights: 0.41 ms of CPU for this read,
    0.28 without)."""
    token = _guest_token(request, session_id, cookies=False)
    with connection.cursor() as cursor:
        cursor.execute(_play_sql(connection.vendor), [token, int(session_id)])
        row = cursor.fetchone()
    session = _session_read(row) if row is not None else None
    guest = None
    if session is not None:
        if session.phone_pk is not None:
            guest = Guest.from_db(session._state.db, ["id", "session_id", "token", "seat"],
                                  [session.phone_pk, session.pk, token, session.phone_seat])
        seats = session.seats.all()
        seats._result_cache = _seats(session)
        seats._prefetch_done = True
        session._prefetched_objects_cache = {"seats": seats}
    return session, _actor(request, session, guest, token)


def owned_or_404(queryset, user, **lookup):
    obj = queryset.filter(owner_id=getattr(user, "pk", None), **lookup).first()
    if obj is None:
        raise NotFound(_("There is no such thing, or it is not yours."))
    return obj


def page_access(request, session_id, *, queryset=None, game=None):
    """session_access for the pages: the guest's cookie counts, and any refusal is a 404 page, as
    if the session did not exist. `game`: a game's own page (a preview, a running total) finds
    only that game's tables: another game's state is not what it reads."""
    from django.http import Http404

    if game is not None:
        queryset = (queryset if queryset is not None else Session.objects.all()).filter(game=game)
    try:
        return session_access(request, session_id, cookies=True, queryset=queryset)
    except Refused:
        raise Http404(_("There is no such game, or it is not yours.")) from None
