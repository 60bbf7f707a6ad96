"""Plays logged after the fact: a game played away from the app, its standings from its scores."""

import datetime
from collections import ChainMap
from contextlib import nullcontext

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from companion import engine, inputs, plugins, stats
from companion.bgstats_backup import KEPT_NAME_LENGTH, PLAY_EXPANSIONS_MOST
from companion.errors import (
    Invalid,
)
from companion.language import say
from companion.models import Result, Seat, Session
from companion.services.sessions import played_title, saved_with_a_code, seat_players

LOG_WINS = Session.WINS
LOG_MINUTES_MAX = 24 * 60
# No play is older: a date before it is a typing slip (year 1 made a game last 2,025 years in
# statistics and a date BG Stats cannot read in the share link).
EARLIEST_PLAY = datetime.datetime(1900, 1, 1, tzinfo=datetime.UTC)
LOG_NOTE_MAX = 1000
LOG_NUMBER_MAX = 1e9  # a score or a length past it is a slip of the keyboard


def _log_number(value, *, label, field):
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        message = _("%(label)s is a number, not %(value)s.") % {"label": label,
                                                               "value": str(value)[:20]}
        raise Invalid(message, fields={field: [message]})
    if abs(value) > LOG_NUMBER_MAX:
        message = _("%(label)s is at most a billion, more or less.") % {"label": label}
        raise Invalid(message, fields={field: [message]})
    return value


def play_standings(*, names, scores, winners, win):
    """The final standings of a logged play (rows as engine.standings_of gives them) from each
    seat's score (None when not given) and whether it was named a winner.

    Scored games rank by score (highest or lowest first); winners named there go first (a
    tie-break the scores do not show). Cooperative: everyone shares rank 1 and wins or loses
    together. No points: the winners named are first, the others second."""
    given = [score is not None for score in scores]
    named = any(winners)
    if win == "none":
        if any(given):
            message = _("A game with no points takes no scores: tick the winners instead.")
            raise Invalid(message, fields={"players": [message]})
        if not named:
            message = _("Tick the winner, or the winners.")
            raise Invalid(message, fields={"players": [message]})
    elif win != "coop":
        if any(given) and not all(given):
            message = _("Give every player a score, or none.")
            raise Invalid(message, fields={"players": [message]})
        if not any(given) and not named:
            message = _("Give the final scores, or tick the winners.")
            raise Invalid(message, fields={"players": [message]})
    # Shown as 0 where nobody scored; kept as no score (`unscored`) for the statistics.
    rows = [{"seat": seat, "name": name, "score": float(score or 0),
             "details": {} if score is not None else {"scored": False}}
            for seat, (name, score) in enumerate(zip(names, scores, strict=True))]
    if win == "coop":
        keys = [0 for _row in rows]
    else:
        sign = 1 if win == "low" else -1
        keys = [(named and not winner, sign * row["score"] if win != "none" else 0)
                for row, winner in zip(rows, winners, strict=True)]
    for row, key, winner in zip(rows, keys, winners, strict=True):
        row["rank"] = 1 + sum(1 for other in keys if other < key)
        if win == "coop":
            row["winner"] = named
        else:
            row["winner"] = winner if named else row["rank"] == 1
        row["leader"] = row["rank"] == 1
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))


def marked_standings(*, names, scores, winners, ranks, win):
    """The final standings of a play as a file marks them (a BG Stats import): its winners
    exactly, whatever the scores say (a tie nobody won, a cooperative play lost or won by one),
    and its ranks when it gives every seat one, else ranked by its winners, then its scores."""
    rows = [{"seat": seat, "name": name, "score": float(score or 0),
             "details": {} if score is not None else {"scored": False}, "winner": winner}
            for seat, (name, score, winner) in enumerate(zip(names, scores, winners,
                                                             strict=True))]
    if all(isinstance(rank, int) and not isinstance(rank, bool) and rank > 0
           for rank in ranks):
        keys = list(ranks)
    else:
        sign = 1 if win == "low" else -1
        keys = [(not row["winner"], 0 if win in ("coop", "none") or score is None
                 else sign * row["score"], score is None)
                for row, score in zip(rows, scores, strict=True)]
    for row, key in zip(rows, keys, strict=True):
        row["rank"] = 1 + sum(1 for other in keys if other < key)
        row["leader"] = row["rank"] == 1
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))


def _log_start(played_at, minutes):
    """When the play began: a day's noon (now, less its length, for today), or the time given."""
    now = timezone.now()
    if played_at is None or played_at == "":
        played_at = timezone.localdate()
    if isinstance(played_at, str):
        try:
            played_at = datetime.date.fromisoformat(played_at)
        except ValueError:
            message = _("The date is a day like 2026-11-24, not %(raw)s.") % {
                "raw": played_at[:20]}
            raise Invalid(message, fields={"played_at": [message]}) from None
    if isinstance(played_at, datetime.datetime):
        start = played_at if timezone.is_aware(played_at) else timezone.make_aware(played_at)
    elif isinstance(played_at, datetime.date):
        if played_at == timezone.localdate():
            start = now - datetime.timedelta(minutes=minutes or 0)
        else:
            start = timezone.make_aware(datetime.datetime.combine(played_at,
                                                                  datetime.time(12, 0)))
    else:
        message = _("The date is a day like 2026-11-24.")
        raise Invalid(message, fields={"played_at": [message]})
    if start > now:
        message = _("That day is still to come: log a play once it is played.")
        raise Invalid(message, fields={"played_at": [message]})
    if start < EARLIEST_PLAY:
        message = _("That day is before 1900: give the day the play was played.")
        raise Invalid(message, fields={"played_at": [message]})
    return start


def _logged_game(game, title):
    """The API's contract says "game": a slug or a game's name. One of ours by its name ("Don
    Quixote", any case) is its slug; any other name, with no title given, is a named game's
    title ("Carcassonne"), as if sent as the title."""
    games = plugins.all_rules()
    if not game or game in {rules.slug for rules in games}:
        return game, title
    named = {rules.name.casefold(): rules.slug for rules in games}
    if game.casefold() in named:
        return named[game.casefold()], title
    if plugins.titled_game() and not (isinstance(title, str) and title.strip()):
        return "", game
    return game, title


def play_log(*, owner, **play):
    """A play not played in the app, entered afterwards: a finished session (logged) with its
    seats and Result rows and no moves (play_prepare says what it takes). Its state is the game's
    set-up with the play under "logged" (the note, the length, the final standings), so that
    every page opening it works; the pages show the logged standings in place of the panel."""
    with transaction.atomic():
        [session] = plays_write(plays=[play_prepare(owner=owner, **play)])
    return session


def play_prepare(*, owner, game="", title="", played_at=None, minutes=None, location="",
                 players=None, note="", win="high", known=None, marked=False, kept=None,
                 source_key=""):
    """A logged play checked and made ready to write (plays_write), or Invalid: its session,
    seats and results, unsaved. The roster players it names are found, or made in a savepoint
    that a refusal rolls back. `game` is one of the games' slugs, or empty (or the named game's
    slug) with `title` naming the game played; `players` are {"name", "player"?, "score"?,
    "winner"?, "team"?}.

    `known`: the titles and players an import's earlier plays found (see seat_players); what
    this play finds joins it only once the play is ready. `marked`: the winners and ranks are
    a file's, kept as they are (marked_standings; each player may carry its "rank"). `kept`:
    what a BG Stats play keeps beyond these ({"board", "expansions", "bgg_id"}), kept with the
    play to show and export. `source_key`: the play of the file it comes from."""
    learned = {}
    lookups = ChainMap(learned, {} if known is None else known)
    rules, title = _logged_rules(owner=owner, game=game, title=title, win=win,
                                 lookups=lookups, learned=learned)
    minutes = _logged_minutes(minutes)
    start = _log_start(played_at, minutes)
    location = inputs.text(location, field="location", label=_("The place"),
                           max_length=Session._meta.get_field("location").max_length)
    note = inputs.text(note, field="note", label=_("The note"), max_length=LOG_NOTE_MAX)
    seats, scores, winners, teams = _logged_players(players, rules=rules)
    kept = _logged_kept(kept)
    # A savepoint only where a new roster player may be made: in an import, most plays name
    # players found already, and a savepoint is two round trips to the database.
    with transaction.atomic() if _may_add_players(seats, lookups) else nullcontext():
        seated = seat_players(owner=owner, players=seats, rules=rules, known=lookups)
        names = [name for name, _player in seated]
        rows = (marked_standings(names=names, scores=scores, winners=winners, win=win,
                                 ranks=[entry.get("rank") if isinstance(entry, dict) else None
                                        for entry in players])
                if marked else play_standings(names=names, scores=scores, winners=winners,
                                              win=win))
    for row in rows:
        if teams[row["seat"]]:
            row["team"] = teams[row["seat"]]
    play = _logged_session(owner=owner, rules=rules, title=title, win=win, start=start,
                           minutes=minutes, location=location, note=note, seated=seated,
                           rows=rows, kept=kept, source_key=source_key)
    if known is not None:
        known.update(learned)
    return play


def _may_add_players(seats, lookups):
    """Whether seating `seats` (as _logged_players gives them) may add a roster player: unless
    every one is found already (by id or by exact name) or is nobody's (anonymous)."""
    return not all(seat.get("anonymous") is True or ("id", seat.get("player")) in lookups
                   or ("name", seat.get("name")) in lookups for seat in seats)


def plays_write(*, plays):
    """Write prepared plays (play_prepare): their sessions, then all their seats and results,
    an insert each for all of them (an import writes hundreds at once). One play's join code
    that clashes draws another; among many, the IntegrityError is the caller's, as is a source
    key this host has already. Returns the sessions."""
    sessions = [session for session, _seats, _results in plays]
    if len(sessions) == 1:
        saved_with_a_code(sessions[0])
    else:
        Session.objects.bulk_create(sessions)
    for session, seats, results in plays:  # their session's id, now that it has one
        for row in (*seats, *results):
            row.session = session
    Seat.objects.bulk_create(seat for _session, seats, _results in plays for seat in seats)
    Result.objects.bulk_create(result for _session, _seats, results in plays
                               for result in results)
    return sessions


def _logged_rules(*, owner, game, title, win, lookups, learned):
    """The rules of the game played and its name (as the host wrote it before, if they did),
    checked against each other and against the way it is won."""
    if not isinstance(game, str):
        raise Invalid(_("The game is the slug of a game, or empty for a named game."),
                      fields={"game": [_("The game is the slug of a game.")]})
    game, title = _logged_game(game.strip(), title)
    title = inputs.text(title, field="title", label=_("The game's name"),
                        max_length=Session._meta.get_field("title").max_length)
    if title:  # "carcassonne" is the Carcassonne played before: one game in statistics
        if ("title", title) not in lookups:
            learned[("title", title)] = played_title(owner=owner, title=title)
        title = lookups[("title", title)]
    titled = plugins.titled_game()
    game = game.strip() or (titled.slug if title and titled else "")
    if not game:
        message = _("Name the game played.")
        raise Invalid(message, fields={"game": [message]})
    rules = plugins.rules_of(game)
    if rules.title is not None and not title:
        message = _("Name the game played, for example Carcassonne.")
        raise Invalid(message, fields={"title": [message]})
    if rules.title is None and title:
        message = _("%(game)s is a game of its own: leave the name empty.") % {
            "game": say(rules.name)}
        raise Invalid(message, fields={"title": [message]})
    _logged_win_checked(rules, win)
    return rules, title


def _logged_win_checked(rules, win):
    if win not in LOG_WINS:
        message = _("A game is won by the highest score (high), the lowest (low), together "
                    "(coop) or with no points (none), not %(raw)s.") % {"raw": str(win)[:20]}
        raise Invalid(message, fields={"win": [message]})
    if rules.title is None and win != "high":
        message = _("%(game)s is won by the highest score.") % {"game": say(rules.name)}
        raise Invalid(message, fields={"win": [message]})


def _logged_minutes(minutes):
    minutes = _log_number(minutes, label=_("The length"), field="minutes")
    if minutes is not None and (minutes != int(minutes) or not 0 < minutes <= LOG_MINUTES_MAX):
        message = _("The length is a whole number of minutes from 1 to %(max)s.") % {
            "max": LOG_MINUTES_MAX}
        raise Invalid(message, fields={"minutes": [message]})
    return int(minutes) if minutes is not None else None


def _logged_kept(kept):
    """What a BG Stats play keeps beyond a logged play's fields, checked against the bounds the
    backup's reader keeps them to: {"board", "expansions", "bgg_id"}, each left out when
    empty."""
    if not kept:
        return {}
    board = inputs.text(kept.get("board") or "", field="board", label=_("The board"),
                        max_length=KEPT_NAME_LENGTH)
    expansions = kept.get("expansions") or []
    if not isinstance(expansions, list) or len(expansions) > PLAY_EXPANSIONS_MOST:
        message = _("The expansions are a list of at most %(most)s names.") % {
            "most": PLAY_EXPANSIONS_MOST}
        raise Invalid(message, fields={"expansions": [message]})
    expansions = [inputs.text(name, field="expansions", label=_("An expansion"),
                              max_length=KEPT_NAME_LENGTH) for name in expansions]
    bgg_id = kept.get("bgg_id")
    return {key: value for key, value in (("board", board), ("expansions", expansions),
                                          ("bgg_id", bgg_id if engine.is_int(bgg_id) else None))
            if value}


def _logged_players(players, *, rules):
    """(seats, scores, winners, teams) of the players as entered: a name, or {"name",
    "player"?, "score"?, "winner"?, "team"?}; as many as the game seats."""
    if not isinstance(players, list) or not players:
        message = _("Name the players.")
        raise Invalid(message, fields={"players": [message]})
    rules.check_seat_count(len(players))
    seats, scores, winners, teams = [], [], [], []
    for entry in players:
        if isinstance(entry, str):
            entry = {"name": entry}
        if not isinstance(entry, dict):
            message = _("Each player is {\"name\", \"score\", \"winner\"}.")
            raise Invalid(message, fields={"players": [message]})
        scores.append(_log_number(entry.get("score"), label=_("A score"), field="players"))
        winner = entry.get("winner", False)
        if not isinstance(winner, bool):
            message = _("A player's winner is true or false.")
            raise Invalid(message, fields={"players": [message]})
        winners.append(winner)
        teams.append(inputs.text(entry.get("team") or "", field="players", label=_("A team"),
                                 max_length=KEPT_NAME_LENGTH))
        seats.append({key: entry[key] for key in ("name", "player", "anonymous")
                      if key in entry})
    return seats, scores, winners, teams


def _logged_session(*, owner, rules, title, win, start, minutes, location, note, seated, rows,
                    kept, source_key):
    """The finished session of a logged play, its seats and its Result rows, unsaved."""
    names = [name for name, _player in seated]
    named = rules.titled_options(title, win) if title else None
    options = rules.resolve_options(named, len(seated))
    finish = start + datetime.timedelta(minutes=minutes or 0)
    session = Session(owner=owner, game=rules.slug, options=options, location=location,
                      title=title, logged=True, status=Session.Status.FINISHED,
                      created_at=start, finished_at=finish, source_key=source_key)
    state = engine.initial_state(rules, names, options, session.seed)
    state["logged"] = {"note": note, "minutes": minutes, "win": win, "standings": rows, **kept}
    session.state = state
    seats = [Seat(session=session, index=i, name=name, player=player)
             for i, (name, player) in enumerate(seated)]
    results = [Result(session=session, seat=row["seat"], name=row["name"],
                      player_id=getattr(seated[row["seat"]][1], "pk", None), owner_id=owner.pk,
                      game=session.game, title=title, score=stats.result_score(row),
                      rank=row["rank"], winner=row["winner"], details={}, finished_at=finish)
               for row in rows]
    return session, seats, results
