"""History and statistics pages: a host's sessions, a session's timeline with its step-through,
a player's page and a game's page. The same views serve a group's history (/groups/<id>/history/,
`group_id`), read through its scopes.Scope, for its members only. Only the host's own data (or
the group's): anything else is 404, as if it did not exist. Filters and the step-through answer
htmx with the one partial they change."""

import csv
import datetime

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from companion import charts, inputs, play_figures, plugins, services, stats
from companion.access import group_or_404
from companion.bad_input import bad_input_page
from companion.engine import Refused, RuleViolation
from companion.models import Player, Session
from companion.scopes import roster_of, scope_of

PAGE_SIZE = 20


def _date(raw):
    try:
        return datetime.date.fromisoformat(raw) if raw else None
    except ValueError:
        return None


def _scope(request, group_id):
    """(scope, group) of the page: the host's own, or a group of theirs (404 to anyone else)."""
    if group_id is None:
        return scope_of(owner=request.user), None
    try:
        group = group_or_404(request.user, group_id)
    except Refused as refusal:
        raise Http404(refusal.message) from None
    return scope_of(group=group), group


def _whose(scope):
    """The selectors' keywords for the scope."""
    return {"owner": scope.owner, "group": scope.group}


def _player(request, scope, pk):
    """A player of the scope's roster; on a host's own pages also a player of one of the host's
    groups (its sessions, in the host's history, seat them)."""
    if scope.group is not None:
        players = roster_of(group=scope.group)
    else:
        players = Player.objects.filter(
            Q(owner=request.user, group=None) | Q(group__memberships__user=request.user))
    player = players.filter(pk=pk).first()
    if player is None:
        raise Http404(_("There is no such player, or they are not yours."))
    return player


def _game(slug):
    try:
        return plugins.rules_of(slug)
    except RuleViolation:
        raise Http404(_("There is no such game.")) from None


def _partial(request, template, name):
    """The whole page, or for an htmx request aimed at `name` only that partial."""
    if request.htmx and request.htmx.target == name:
        return f"{template}#{name}"
    return template


def _named(scope):
    """The host's (or group's) named games as the history page lists them: {"key", "slug",
    "title"}."""
    return [{"key": stats.game_key(slug, title), "slug": slug, "title": title}
            for slug, title in stats.named_games(**_whose(scope))]


def _filter_text(request, name):
    """A text filter of the query string; text no session could hold matches nothing."""
    raw = request.GET.get(name) or ""
    return "" if inputs.has_control(raw) else raw.strip()[:60]


@login_required
def history(request, group_id=None):
    scope, group = _scope(request, group_id)
    roster = list(roster_of(**_whose(scope)).only("id", "name"))
    games = plugins.all_rules()
    named = _named(scope)
    # ?game= is a game's slug, or the key of a named game ("pad:Carcassonne", as the list
    # offers it); ?title= names the game played too.
    keys = {game.slug for game in games} | {row["key"] for row in named}
    key = request.GET.get("game") or ""
    key = key if key in keys else ""
    game, title = stats.split_key(key)
    if request.GET.get("title") and game:
        title = _filter_text(request, "title")
        key = stats.game_key(game, title)
    location = _filter_text(request, "location")
    raw_player = request.GET.get("player") or ""
    player = next((p for p in roster if str(p.pk) == raw_player), None)
    since, until = _date(request.GET.get("since")), _date(request.GET.get("until"))
    sessions = stats.session_history(**_whose(scope), game=game or None,
                                     title=title if title else None, player=player,
                                     since=since, until=until, location=location or None)
    page = Paginator(sessions, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {"page": page, "games": games, "named": named, "roster": roster, "game": key,
               # A game that serves named games (the score pad) has no figures of its own:
               # its named games are listed instead.
               "games_with_figures": [game for game in games if game.title is None],
               "player": player, "since": since, "until": until, "location": location,
               "locations": stats.locations(**_whose(scope)), "query": query.urlencode(),
               "group": group,
               "time_played": _time(play_figures.minutes_played(sessions=sessions))}
    return render(request, _partial(request, "companion/history/list.html", "results"), context)


def _time(minutes):
    return stats.length_text(60 * minutes) if minutes else None


TIMELINE_PAGE = 100


def together(session, standings):
    """A finished cooperative game's outcome for the whole table: "won" or "lost" (None for
    any other game): a lost one is no first place for anyone."""
    if not (session.is_finished and session.win == "coop"):
        return None
    return "won" if any(row["winner"] for row in standings) else "lost"


@login_required
def session_detail(request, pk, group_id=None):
    scope, group = _scope(request, group_id)
    session = Session.objects.filter(scope.sessions(), pk=pk).first()
    if session is None:
        raise Http404(_("There is no such game, or it is not yours."))
    timeline = stats.session_timeline(session=session)
    if session.logged:  # entered afterwards: no moves to step through, its final standings
        standings = stats.logged_standings(session)
        return render(request, "companion/history/session.html", {
            "session": session, "rules": timeline["rules"], "seats": timeline["seats"],
            "group": group, "logged": session.state["logged"], "step_standings": standings,
            "together": together(session, standings), "timeline": [], "steps": 0, "upto": 0,
            # A play without points shows no score column at all.
            "scored": any((row.get("details") or {}).get("scored") is not False
                          for row in standings)})
    entries = timeline["entries"]
    active = [entry["move"].seq for entry in entries if entry["standings"] is not None]
    last = active[-1] if active else 0
    try:
        upto = inputs.optional_number(request.GET.get("upto"), label=_("The move"))
    except Refused as refusal:
        return bad_input_page(request, refusal.message)
    upto = last if upto is None else upto
    upto = min(upto, entries[-1]["move"].seq) if entries else 0
    position = sum(1 for seq in active if seq <= upto)
    # A long game's log in pages; the page shown is the one holding the step shown.
    pages = Paginator(entries, TIMELINE_PAGE)
    at = next((index for index, entry in enumerate(entries) if entry["move"].seq >= upto), 0)
    try:
        number = inputs.optional_number(request.GET.get("page"), label=_("The page"))
    except Refused as refusal:
        return bad_input_page(request, refusal.message)
    page = pages.get_page(number or at // TIMELINE_PAGE + 1)
    context = {
        "session": session, "group": group, "rules": timeline["rules"],
        "timeline": page.object_list,
        "page": page, "setup_line": timeline["start"]["line"] if page.number == 1 else None,
        "seats": timeline["seats"],
        "upto": upto, "step_standings": stats.standings_at(timeline, upto),
        "previous": max((seq for seq in active if seq < upto), default=0 if upto else None),
        "next": min((seq for seq in active if seq > upto), default=None),
        "position": position, "steps": len(active),
        "upto_move": next((entry["move"] for entry in entries if entry["move"].seq == upto), None),
        "chart": charts.session_progression(stats.score_progression(timeline),
                                            game_name=session.game_name),
    }
    return render(request, _partial(request, "companion/history/session.html", "step"), context)


@login_required
def player_detail(request, pk, group_id=None):
    scope, group = _scope(request, group_id)
    return player_page(request, _player(request, scope, pk), group=group)


def player_page(request, player, *, group=None, merge_error=None, status=200):
    """A roster player's page, in a host's history or a group's (`group`); `merge_error`: the
    sentence of a merge refused (its form's)."""
    figures = {**stats.player_stats(player=player, history=True),
               **play_figures.player_figures(player=player)}
    context = {"player": player, "group": group,
               **player_figures_context(figures, name=player.name),
               "links": True, "merge_error": merge_error,
               # The players it may be merged into, for whoever keeps its roster: the roster's.
               "others": roster_of(owner=player.owner_id, group=player.group_id)
                         .exclude(pk=player.pk).only("id", "name")
               if services.roster_keeper(player=player, user=request.user) else ()}
    return render(request, "companion/history/player.html", context, status=status)


def player_figures_context(figures, *, name):
    """What companion/history/_player_figures.html shows of a player's statistics (player_stats
    with its history, and play_figures' figures), a roster player's or an account's."""
    names = {game.slug: game.name for game in plugins.all_rules()}
    games = []
    for key, row in figures["games"].items():
        slug, title = stats.split_key(key)
        games.append({"slug": slug, "title": title, "name": stats.game_label(key, names), **row})
    games.sort(key=lambda row: row["name"].lower())
    recent = list(reversed(figures["history"][-10:]))
    for row in recent:
        row["game_name"] = row["title"] or names.get(row["game"], row["game"])
    return {"name": name, "stats": figures, "games": games, "recent": recent,
            "win_percent": round(100 * figures["win_rate"]),
            "chart": charts.player_results(figures["history"], player_name=name),
            **_when(figures, name=name), "by_count_wins": True}


def _when(figures, *, name):
    """What companion/history/figures.html shows of play_figures' figures."""
    coop = figures["coop"]
    return {
        "figures": figures,
        "time_played": _time(figures["minutes_played"]),
        "by_year": play_figures.by_year(figures["by_month"]),
        "first_played": _date(figures["first_played"]),
        "last_played": _date(figures["last_played"]),
        "coop_percent": round(100 * coop["won"] / coop["plays"]) if coop else None,
        "by_count": [{"seats": seats, **row, "percent": round(100 * row["wins"] / row["plays"])}
                     for seats, row in sorted(figures["by_player_count"].items(),
                                              key=lambda item: int(item[0]))],
        "by_month_chart": charts.plays_by_month(figures["by_month"], name=name),
    }


@login_required
def game_detail(request, slug, group_id=None):
    """A game's page; ?title= names a named game (the score pad's "Carcassonne"), a game of its
    own with its own figures."""
    scope, group = _scope(request, group_id)
    game = _game(slug)
    title = _filter_text(request, "title") if game.title is not None else ""
    if game.title is not None and not title:
        # Every play of it is a named game's ("Carcassonne"): its plays, each named.
        where = reverse("group-history", args=[group.pk]) if group else reverse("history")
        return redirect(f"{where}?game={game.slug}")
    figures = stats.game_stats(**_whose(scope), game=game.slug, title=title)
    context = {"game": game, "group": group, "title": title, "name": title or game.name,
               "key": stats.game_key(game.slug, title),
               "stats": figures, "extra": figures.get(game.slug),
               # The figures keep ISO dates (the API's); the page shows its one date format.
               "records": [{**row, "date": datetime.date.fromisoformat(row["date"])}
                           for row in figures["records"]],
               "stats_template": plugins.get(game.slug).stats_template,
               "length": {key: stats.length_text(value) if value is not None else None
                          for key, value in figures["length"].items()},
               "chart": charts.score_distribution(figures["distribution"],
                                                  game_name=title or game.name),
               **_when(play_figures.game_figures(**_whose(scope), game=game.slug,
                                                 title=title), name=title or game.name)}
    return render(request, "companion/history/game.html", context)


class _Echo:
    def write(self, value):
        return value


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value):
    """A text cell a spreadsheet would read as a formula (=, +, -, @, a tab) starts with a quote
    instead: a name typed as "=HYPERLINK(...)" stays a name. Numbers are written as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_response(owner=None, *, group=None):
    """A host's (or a group's) results as CSV, streamed row by row."""
    filename = (f"companion-group-{group.pk}-results.csv" if group is not None
                else "companion-results.csv")
    writer = csv.writer(_Echo())

    def lines():
        yield writer.writerow(stats.CSV_COLUMNS)
        for row in stats.results_rows(owner=owner, group=group):
            values = [spreadsheet_safe(value) for value in row]
            values[2] = values[2].isoformat()
            values[9] = "1" if values[9] else "0"
            yield writer.writerow(values)

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def results_csv(request, group_id=None):
    scope, _group = _scope(request, group_id)
    return csv_response(**_whose(scope))
