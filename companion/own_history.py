"""A player's own history, its pages: "Keep this in my history" on a table's phone (signing in
or making an account in the same card), an account's own page (/me/: its plays and statistics
at every host's table), unlinking, and a host merging two roster players. Each posts to the
same services as the API (companion/services/links.py) and works without JavaScript."""

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from companion import own_stats, services
from companion.access import table_access
from companion.errors import NotFound, Refused
from companion.history import PAGE_SIZE, player_figures_context, player_page
from companion.models import Player

KEEP_TEMPLATE = "companion/_keep.html"


def keep_card(request, session, actor, *, error=None, username=""):
    """What a table's "Keep this in my history" card shows this phone: None where it has nothing
    to keep (the game still on, no seat held, a seat of nobody's in the roster, or kept in
    another account's history); else {"seat", "kept", "signed_in", "error", "username"}. One
    query, on a finished table's page only."""
    card = None
    index = actor.seat if actor is not None else None
    seats = list(session.seats.all())
    if session.is_finished and index is not None and index < len(seats) \
            and (actor.guest is not None or actor.is_host) and seats[index].player_id:
        account = Player.objects.filter(pk=seats[index].player_id).values_list(
            "account_id", flat=True).first()
        user = request.user if request.user.is_authenticated else None
        kept = user is not None and account == user.pk
        if account is None or kept or error:
            card = {"seat": seats[index], "kept": kept, "signed_in": user is not None,
                    "error": error, "username": username}
    return card


def keep_tag(card):
    """The part of the table page's ETag that the card changes: signed in, kept."""
    if card is None:
        return ""
    return f"-keep{int(card['signed_in'])}{int(card['kept'])}"


@require_POST
def keep(request, pk):
    """The card's form: signed in, one button; else a name and a password to sign in with, or
    to make an account with ("account": "new"), then the claim. Back to the table."""
    from companion.views.accounts import account_signed_in
    from companion.views.tables import table_context

    session, actor = table_access(request, pk)
    username = request.POST.get("username", "")
    signed_in_now = False
    try:
        account = request.user if request.user.is_authenticated else None
        if account is None:
            account = account_signed_in(request, username=username,
                                        password=request.POST.get("password", ""),
                                        new=request.POST.get("account") == "new")
            signed_in_now = True
        services.seat_claim(session=session, account=account, guest=actor.guest)
    except Refused as refusal:
        card = keep_card(request, session, actor, error=refusal.message,
                         username=username if isinstance(username, str) else "")
        if request.htmx:
            return render(request, KEEP_TEMPLATE, {"keep": card, "session": session},
                          status=refusal.status)
        return render(request, "companion/table.html",
                      table_context(request, session, actor, keep=card), status=refusal.status)
    if request.htmx and not signed_in_now:
        return render(request, KEEP_TEMPLATE, {"keep": keep_card(request, session, actor),
                                               "session": session})
    if request.htmx:
        # Signed in now: the page is drawn again whole, with its new header and the new
        # sign-in's CSRF token (the one its forms hold was rotated by the sign-in). Not a 302:
        # the browser would follow it inside the request and htmx swap the page into the card.
        return HttpResponseClientRedirect(reverse("table", args=[session.pk]))
    return redirect("table", pk=session.pk)


@login_required
def me(request):
    """An account's own page: the statistics of a host's player page, counted over every
    roster player linked to it at every host's table; its plays; its links, each to undo."""
    figures = own_stats.account_stats(account=request.user, history=True)
    page = Paginator(own_stats.account_plays(account=request.user), PAGE_SIZE).get_page(
        request.GET.get("page"))
    links = own_stats.linked_players(account=request.user).select_related("owner").order_by(
        "owner__username", "name")
    context = {**player_figures_context(figures, name=request.user.get_username()),
               "links": False, "page": page, "linked": links}
    return render(request, "companion/me.html", context)


@login_required
@require_POST
def unlink(request, pk):
    try:
        player = services.player_reached(pk=pk, user=request.user)
        services.player_unlink(player=player, user=request.user)
    except NotFound as refusal:
        raise Http404(refusal.message) from None
    return redirect("players" if request.POST.get("next") == "players" else "me")


@login_required
@require_POST
def merge(request, pk):
    """The player page's "Merge into…": the name kept is the chosen player's, or this one's."""
    try:
        player = services.player_reached(pk=pk, user=request.user)
        kept = services.player_merge(
            player=player, into=request.POST.get("into", ""), actor=request.user,
            name=player.name if request.POST.get("keep_name") == "this" else None)
    except NotFound as refusal:  # not a player of a roster this account keeps
        raise Http404(refusal.message) from None
    except Refused as refusal:
        return player_page(request, player, group=player.group, merge_error=refusal.message,
                           status=refusal.status)
    if kept.group_id:
        return redirect("group-history-player", kept.group_id, kept.pk)
    return redirect("history-player", pk=kept.pk)


urlpatterns = [
    path("s/<int:pk>/keep/", keep, name="keep"),
    path("me/", me, name="me"),
    path("players/<int:pk>/unlink/", unlink, name="player-unlink"),
    path("players/<int:pk>/merge/", merge, name="player-merge"),
]
