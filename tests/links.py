"""Tables with phones for the tests of a player's own history (claims, links, merges): tiny
games played to their end (the named people, dora and bob_account among them, are the
conftest's)."""

from companion import services
from companion.models import Player
from tests.conftest import api_client
from tests.factories import session_for


def table(host, players=("Dora", "Vanessa"), *, phone_seat=0, points=((0, 10), (1, 5), (0, 10)),
          host_seat=None):
    """A tiny game at `host`'s table with a phone joined at `phone_seat` (None: no phone), the
    host playing `points` ((seat, points): the defaults finish it, seat 0 winning). (session,
    phone)."""
    session = session_for(host, players=players)
    if host_seat is not None:
        session = services.session_host_seat(session=session, seat=host_seat)
    phone = (services.guest_join(code=session.code, seat=phone_seat)
             if phone_seat is not None else None)
    for seat, value in points:
        services.move_play(session=session, type="add", data={"seat": seat, "points": value},
                           actor=services.Actor(user=host))
    session.refresh_from_db()
    return session, phone


def client_of(account, phone):
    """An API client with both: the account's token and the phone's guest token."""
    client = api_client(user=account)
    client.credentials(HTTP_AUTHORIZATION=client._credentials["HTTP_AUTHORIZATION"],
                       HTTP_X_GUEST_TOKEN=phone.token)
    return client


def linked(session, seat, account):
    """The roster player of `session`'s `seat`, linked to `account` (by its phone's claim)."""
    player = session.seats.get(index=seat).player
    Player.objects.filter(pk=player.pk).update(account=account)
    player.refresh_from_db()
    return player
