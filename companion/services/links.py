"""A roster player's link to the account of the person it is ("Keep this in my history"), its
unlinking, and two roster players merged into one.

A link is what lets an account read plays at other hosts' tables (companion.stats over its
linked players): it is made only by the phone that played the seat, signed in to that account.
"""

from django.db import transaction
from django.utils.translation import gettext as _

from companion import inputs
from companion.errors import Conflict, Forbidden, Invalid, NotFound
from companion.models import Group, Player, Result, Seat
from companion.scopes import roster_of


def roster_keeper(*, player, user):
    """Whether `user` keeps `player`'s roster: unlinks anyone there and merges its players.
    A host's own roster is the host's (`owner`); a group's roster player's `owner` is whoever
    of its members added it, and the group's owner keeps that roster."""
    if user is None:
        return False
    if player.group_id is not None:
        return Group.objects.filter(pk=player.group_id, owner=user).exists()
    return player.owner_id == user.pk


def _roster(player):
    """Which roster a player is in: a group's, or a host's own."""
    return ("group", player.group_id) if player.group_id else ("host", player.owner_id)


def _kept_or_404(player, user):
    if not roster_keeper(player=player, user=user):
        raise _no_such_player()


def _no_such_player():
    return NotFound(_("There is no such player, or they are not yours."))


def _reaches(player, user):
    """Whether `user` may reach `player` at all: keeps its roster, or is the account it is
    linked to. Any other account learns nothing of it."""
    return roster_keeper(player=player, user=user) or (
        user is not None and player.account_id == user.pk)


def player_reached(*, pk, user):
    """The roster player an address names (`pk`, its id), as `user` may reach it, for
    unlinking or merging (what each may do is player_unlink's and player_merge's to decide);
    else NotFound, in the same words as theirs."""
    player = Player.objects.filter(pk=pk).first()
    if player is None or not _reaches(player, user):
        raise _no_such_player()
    return player


def seat_claim(*, session, account, guest):
    """The phone `guest` (None: the host's own, signed in as `account`) played a seat of
    `session`: that seat's roster player is linked to `account`. (seat, player); a player linked
    to `account` already stays as it is."""
    if guest is None:
        if session.owner_id != account.pk or session.host_seat is None:
            raise Forbidden(_("This phone holds no seat at this table: there is nothing of "
                              "yours to keep."))
        index = session.host_seat
    else:
        if guest.session_id != session.pk or guest.seat is None:
            raise Forbidden(_("This phone holds no seat at this table: there is nothing of "
                              "yours to keep."))
        index = guest.seat
    with transaction.atomic():
        seat = Seat.objects.select_related("player").filter(session=session, index=index).first()
        if seat is None or seat.player is None:
            raise Invalid(_("This seat is nobody's in the host's list of players: there is "
                            "nothing to keep."))
        # Locked: two accounts claiming the one player at once, the second is told.
        player = Player.objects.select_for_update().get(pk=seat.player_id)
        if player.account_id == account.pk:
            return seat, player
        if player.account_id is not None:
            raise Conflict(_("%(name)s's seat is already kept in another account's history.")
                           % {"name": seat.name})
        player.account = account
        player.save(update_fields=["account"])
    seat.player = player
    return seat, player


def player_unlink(*, player, user):
    """Unlink `player` from its account: by whoever keeps its roster, or by that account. Any
    other account learns nothing of it (NotFound)."""
    if not _reaches(player, user):
        raise _no_such_player()
    Player.objects.filter(pk=player.pk).update(account=None)
    player.account = None
    return player


def player_merge(*, player, into, actor, name=None):
    """`player` merged into `into`, both of one roster that `actor` keeps: every seat and result
    of `player` becomes `into`'s, `player` is deleted, `into` keeps its name or takes `name`.
    `into` keeps a link that either had. `into` may be an id (as the API and the form send it):
    one that is not a player of the same roster is refused as across rosters."""
    _kept_or_404(player, actor)
    into_id = inputs.row_id(into)
    if into_id == player.pk:
        message = _("A player is merged into another player, not into themself.")
        raise Invalid(message, fields={"into": [message]})
    name = _kept_name(name)
    with transaction.atomic():
        # Both locked, in id order (two merges of the same pair at once do not deadlock).
        both = {row.pk: row for row in Player.objects.select_for_update().filter(
            pk__in=[player.pk, into_id or 0]).order_by("pk")}
        player, into = both.get(player.pk), both.get(into_id)
        if player is None:
            raise _no_such_player()
        if into is None or _roster(into) != _roster(player):
            message = _("Two players are merged only within one roster: player %(id)s is not "
                        "in %(name)s's, and nothing was merged across rosters.") % {
                "id": str(into_id if into_id is not None else into)[:20], "name": player.name}
            raise Invalid(message, fields={"into": [message]})
        if player.account_id and into.account_id and player.account_id != into.account_id:
            raise Conflict(_("%(one)s and %(other)s are kept in two different accounts' "
                             "histories: unlink one of them first.")
                           % {"one": player.name, "other": into.name})
        if Seat.objects.filter(player=into, session__seats__player=player).exists():
            raise Conflict(_("%(one)s and %(other)s sat at the same table: they are two people, "
                             "not one.") % {"one": player.name, "other": into.name})
        roster = roster_of(owner=into.owner_id, group=into.group_id)
        if name is not None and roster.filter(name__iexact=name).exclude(
                pk__in=[player.pk, into.pk]).exists():
            message = _("You already have a player called %(name)s.") % {"name": name}
            raise Invalid(message, fields={"name": [message]})
        # The results keep their host, game and details: the tallies (ResultTally, per host and
        # game) count the same rows as before.
        Seat.objects.filter(player=player).update(player=into)
        Result.objects.filter(player=player).update(player=into)
        account = into.account_id or player.account_id
        player.delete()
        fields = []
        if account != into.account_id:
            into.account_id = account
            fields.append("account")
        if name is not None and name != into.name:
            into.name = name
            fields.append("name")
        if fields:
            into.save(update_fields=fields)
    return into


def _kept_name(name):
    """The name the merged player keeps: None (into's own), or the one given."""
    if name is None:
        return None
    name = inputs.text(name, field="name", label=_("The name"),
                       max_length=Player._meta.get_field("name").max_length)
    return name or None
