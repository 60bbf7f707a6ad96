"""An account's own history: the plays and statistics of every roster player linked to it, at
every host's table (Player.account), counted as one person's."""

from django.db.models import Exists, OuterRef, Prefetch, Subquery

from companion import play_figures
from companion.models import Player, Result, Seat, Session
from companion.stats import player_stats


def linked_players(*, account):
    """The roster players linked to `account`, at every host's table (and every group's): who
    the account's own statistics count as one person (player_stats' `players`)."""
    return Player.objects.filter(account=account)


def account_plays(*, account):
    """The finished sessions where a roster player linked to `account` sat, at every host's
    table, newest first, each with `own_seat` (the seat it sat at), its seats and winners
    prefetched as session_history has them."""
    own = Result.objects.filter(session=OuterRef("pk"), player__account=account)
    return (Session.objects.filter(Exists(own))
            .annotate(own_seat=Subquery(own.order_by("seat").values("seat")[:1]))
            .select_related("owner").order_by("-created_at", "-id").prefetch_related(
                Prefetch("seats", queryset=Seat.objects.order_by("index")),
                Prefetch("results", queryset=Result.objects.filter(winner=True).order_by("seat"),
                         to_attr="winners")))


def account_stats(*, account, history=False):
    """An account's own statistics, a player's (player_stats and play_figures' player_figures)
    over its linked players' results at every host's table; "player" is None."""
    players = linked_players(account=account)
    return {**player_stats(players=players, name=account.get_username(), history=history),
            **play_figures.player_figures(players=players)}
