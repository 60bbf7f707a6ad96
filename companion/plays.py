"""Log a play that was not played in the app: one screen, one row per player (the page of
services.play_log; the API's POST /api/plays/ takes the same fields)."""

import math

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from companion import inputs, plugins, stats
from companion.errors import Invalid, Refused
from companion.models import Session
from companion.scopes import roster_of
from companion.services import LOG_WINS, play_log

# Rows shown at once; more fold away under "More players" (the page stays one screen for four).
ROWS_SHOWN = 4
ROWS = 12
WIN_LABELS = {"high": gettext_lazy("Highest score wins"),
              "low": gettext_lazy("Lowest score wins"),
              "coop": gettext_lazy("Cooperative: tick if won"),
              "none": gettext_lazy("No points: tick the winners")}


def typed_game_of(text):
    """(slug, title) for what was typed as the game: one of the games by its name or slug, else
    the name of a game played on the score pad."""
    text = (text or "").strip()
    for game in plugins.all_rules():
        if game.title is None and text.lower() in (game.name.lower(), game.slug):
            return game.slug, ""
    return "", text


def _score(raw, row):
    raw = (raw or "").strip().replace(",", ".").replace("−", "-")
    if not raw:
        return None
    try:
        value = float(raw) if raw.isascii() else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise Invalid(_("Row %(row)s: a score is a number, such as 12 or -3, not %(raw)s.")
                      % {"row": row, "raw": raw[:20]})
    return int(value) if value.is_integer() else value


def _minutes(raw):
    """The length as typed. A whole number below zero goes to play_log as it is, whose sentence
    says the range (the page's own said "a whole number, not -5")."""
    text = (raw or "").strip().replace("−", "-")
    if text.startswith("-") and inputs.whole_number(text[1:]) is not None:
        return -inputs.whole_number(text[1:])
    return inputs.optional_number(raw, label=_("The length"))


def players_of(post):
    """The rows of the form that name a player, as play_log takes them."""
    names, scores = post.getlist("name"), post.getlist("score")
    winners = set(post.getlist("winner"))
    players = []
    for index, name in enumerate(names[:ROWS]):
        score = scores[index] if index < len(scores) else ""
        won = str(index) in winners
        if not name.strip():
            if score.strip() or won:
                raise Invalid(_("Row %(row)s has a score or a tick but no name.")
                              % {"row": index + 1})
            continue
        players.append({"name": name, "score": _score(score, index + 1), "winner": won})
    return players


@login_required
def play_new(request):
    error = None
    post = request.POST if request.method == "POST" else None
    if post is not None:
        game, title = typed_game_of(post.get("game"))
        try:
            session = play_log(
                owner=request.user, game=game, title=title,
                played_at=post.get("played_at") or None,
                minutes=_minutes(post.get("minutes")),
                location=post.get("location") or "", players=players_of(post),
                note=post.get("note") or "",
                win=(post.get("win") or "high") if title else "high")
        except Refused as refusal:
            error = refusal.message
        else:
            return redirect("history-session", pk=session.pk)
    elif request.GET.get("game"):  # "Start from its last play", or the game's page
        post = _last_play_defaults(request.user, request.GET)
    names = post.getlist("name") if post else []
    scores = post.getlist("score") if post else []
    winners = set(post.getlist("winner")) if post else set()
    rows = [{"index": index, "name": names[index] if index < len(names) else "",
             "score": scores[index] if index < len(scores) else "",
             "winner": str(index) in winners} for index in range(ROWS)]
    context = {
        "error": error, "post": post,
        "today": timezone.localdate().isoformat(),
        "games": [game.name for game in plugins.all_rules() if game.title is None]
        + [title for _slug, title in stats.named_games(owner=request.user)],
        "roster": roster_of(owner=request.user).only("name"),
        "locations": stats.locations(owner=request.user),
        "wins": [(value, WIN_LABELS[value]) for value in LOG_WINS],
        "rows": rows[:ROWS_SHOWN], "more_rows": rows[ROWS_SHOWN:],
        "more_open": any(row["name"] for row in rows[ROWS_SHOWN:]),
    }
    return render(request, "companion/play_log.html", context, status=400 if error else 200)


@login_required
def play_last(request):
    """The offer to start from the chosen game's last play (an htmx request of the form), or
    nothing for a game not played before."""
    last = _last_play(request.user, request.GET.get("game"))
    return render(request, "companion/play_log.html#last-play", {
        "last": {"names": [seat.name for seat in last.seats.all()]} if last else None})


def _last_play(owner, typed):
    """The last finished play of the game typed (by its name, any case), or None."""
    game, title = typed_game_of(typed)
    if not (game or title):
        return None
    return (Session.objects.filter(owner=owner, game=game or plugins.titled_game().slug,
                                   title__iexact=title, status=Session.Status.FINISHED)
            .order_by("-created_at", "-id").prefetch_related("seats").first())


def _last_play_defaults(owner, given):
    """The form's values as `given` (the form sent back by "Start from its last play", or the
    game's page's link), with the way of winning and the players of the last play of that game
    (when asked, or when no player is named yet): logging Pandemic again starts from the last
    Pandemic."""
    values = given.copy()
    last = _last_play(owner, given.get("game"))
    asked = given.get("last") or not any(name.strip() for name in given.getlist("name"))
    if last is not None and asked:
        values["win"] = last.win
        values.setlist("name", [seat.name for seat in last.seats.all()])
    return values


urlpatterns = [
    path("plays/new/", play_new, name="play-log"),
    path("plays/new/last/", play_last, name="play-log-last"),
]
