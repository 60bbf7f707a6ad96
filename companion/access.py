"""Who may see and play a session. Every view asks here; templates never decide access.

- the host (the session's owner) and the session's guests may see it and play;
- a guest token of another session: 403;
- anyone else, other hosts included: 404, as if the session did not exist.

A group's pages and answers are its members': anyone else gets 404, as for a session.
"""

from django.db.models import FilteredRelation, Prefetch, Q
from django.utils.translation import gettext as _

from companion.actors import Actor
from companion.errors import Forbidden, NotFound, Refused
from companion.models import Group, Guest, Seat, Session

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
    from knox.auth import TokenAuthentication
    from rest_framework.exceptions import AuthenticationFailed

    try:
        found = TokenAuthentication().authenticate(request)
    except AuthenticationFailed:
        return None
    return found[0] if found else None


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


def owned_or_404(queryset, user, **lookup):
    obj = queryset.filter(owner_id=getattr(user, "pk", None), **lookup).first()
    if obj is None:
        raise NotFound(_("There is no such thing, or it is not yours."))
    return obj


def sessions_with_seats():
    """Sessions read with their seats in order (a second query), as every table's page shows."""
    return Session.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.order_by("index")))


def table_access(request, session_id):
    """page_access for the table's pages, the session read with its seats."""
    return page_access(request, session_id, queryset=sessions_with_seats())


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


def groups_of(user):
    """The groups `user` is a member of, by name, each with its owner."""
    return Group.objects.filter(memberships__user=user).select_related("owner")


def group_or_404(user, group_id):
    """The group `group_id` when `user` is one of its members (its owner read with it); anyone
    else: NotFound, as if it did not exist."""
    group = (Group.objects.filter(pk=group_id, memberships__user_id=getattr(user, "pk", None))
             .select_related("owner").first())
    if group is None:
        raise NotFound(_("There is no such group, or you are not in it."))
    return group
