"""A session's life outside its moves: set-up, language, the host's seat, the rematch, and the
results kept in step with its state."""


from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from companion import engine, inputs, live, plugins, stats
from companion.colours import colour_checked, colours_default
from companion.errors import (
    Conflict,
    Forbidden,
    Invalid,
)
from companion.language import say
from companion.models import Group, Guest, Player, Result, ResultTally, Seat, Session
from companion.scopes import roster_of, scope_of


def _roster_player(*, owner, group=None, name):
    """The roster player of that name (any case), added if new: the host's own roster, or the
    group's (added by `owner`, whichever member hosts). Two games opened at once with the same
    new name add it once: the second finds the first's."""
    roster = roster_of(owner=owner, group=group)
    player = roster.filter(name__iexact=name).first()
    if player is not None:
        return player
    try:
        with transaction.atomic():
            return Player.objects.create(owner=owner, group=group, name=name)
    except IntegrityError:
        return roster.get(name__iexact=name)


def seat_players(*, owner, players, rules, known=None, group=None):
    """[(name, Player)] from plain names or {"name", "player": id}, found in the host's own
    roster or the `group`'s (scopes.roster_of); new names join that roster,
    but for {"name", "anonymous": True}: a seat of nobody's (None), as BG Stats' anonymous
    player is not one person.
    The count is checked against the game's (`rules`) first, before any name is looked up.
    `known`: players found already, by ("id", id) and ("name", exact name), and where those
    found here are kept (an import's plays name the same players again and again)."""
    known = {} if known is None else known
    if not isinstance(players, list) or not players:
        message = _("Name the players.")
        raise Invalid(message, fields={"players": [message]})
    rules.check_seat_count(len(players))
    seats, seen = [], set()
    for entry in players:
        if isinstance(entry, str):
            entry = {"name": entry}
        if not isinstance(entry, dict):
            message = _("Each player is a name, or {\"name\", \"player\"}.")
            raise Invalid(message, fields={"players": [message]})
        name = inputs.text(entry.get("name") or "", field="players", label=_("A player's name"),
                           max_length=Seat._meta.get_field("name").max_length)
        player_id = entry.get("player")
        player = None
        if player_id is not None and (isinstance(player_id, bool)
                                      or not isinstance(player_id, int)):
            message = _("A player's id is a whole number, not %(id)s.") % {
                "id": str(player_id)[:20]}
            raise Invalid(message, fields={"players": [message]})
        if player_id is not None:
            player = known.get(("id", player_id))
            if player is None:
                player = roster_of(owner=owner, group=group).filter(pk=player_id).first()
            if player is None:
                message = _("You have no player with id %(id)s.") % {"id": player_id}
                raise Invalid(message, fields={"players": [message]})
            known[("id", player_id)] = player
            name = name or player.name
        if not name:
            message = _("Every player needs a name.")
            raise Invalid(message, fields={"players": [message]})
        if name.lower() in seen:
            message = _("%(name)s is named twice: give each seat its own name.") % {"name": name}
            raise Invalid(message, fields={"players": [message]})
        seen.add(name.lower())
        if entry.get("anonymous") is True:  # an import's seat of nobody's
            seats.append((name, None))
            continue
        if player is None:
            player = known.get(("name", name)) or _roster_player(owner=owner, group=group,
                                                                 name=name)
            known[("name", name)] = player
        seats.append((name, player))
    return seats


def played_title(*, owner, title, group=None):
    """A named game's title as the host (or the group) first wrote it, whatever the case now
    ("carcassonne" is the Carcassonne played before): one game in statistics, not one per
    spelling."""
    scope = scope_of(group=group) if group is not None else scope_of(owner=owner)
    return (Session.objects.filter(scope.sessions(),
                                   title__iexact=title).order_by("id")
            .values_list("title", flat=True).first() or title)


def group_hosted(*, owner, group):
    """The group (a Group or its id) a session of `owner`'s is opened for, when `owner` is one of
    its members; None for no group. Anyone else is refused, whether the group exists or not."""
    if group in (None, ""):
        return None
    group_id = inputs.row_id(group)
    found = (Group.objects.filter(pk=group_id, memberships__user=owner).first()
             if group_id is not None else None)
    if found is None:
        message = _("You are not a member of that group: only its members open its games.")
        raise Forbidden(message, fields={"group": [message]})
    return found


def session_create(*, owner, game, players, options=None, seed=None, location="",
                   host_seat=None, language=None, first=None, group=None):
    """A new game. `language` is the table's (the board speaks it); by default the host's.
    `first`: who starts, a seat or engine.DRAW, for a game with a first player (the option
    its rules name, Game.first); None leaves it to the options. `group`: a group of the host's
    (a Group or its id): the seats are its roster's, and the game counts in its history."""
    rules = plugins.rules_of(game)
    group = group_hosted(owner=owner, group=group)
    language = _language_checked(language)
    if options is not None and not isinstance(options, dict):
        raise Invalid(_("The options are an object: {\"name\": value}."))
    if first is not None:
        options = _first_in_options(rules, options, first)
    location = inputs.text(location, field="location", label=_("The place"),
                           max_length=Session._meta.get_field("location").max_length)
    with transaction.atomic():
        seats = seat_players(owner=owner, group=group, players=players, rules=rules)
        colours = _colours_given(players)
        resolved = rules.resolve_options(options, len(seats))
        title = rules.title(resolved) if rules.title else ""
        if title and rules.titled_options \
                and (played := played_title(owner=owner, group=group, title=title)) != title:
            resolved = rules.resolve_options(
                {**resolved, **rules.titled_options(played, resolved["win"])}, len(seats))
            title = played
        session = Session(owner=owner, group=group, game=rules.slug, options=resolved,
                          location=location,
                          title=title,
                          host_seat=_host_seat_checked(host_seat, len(seats)),
                          language=language)
        if seed:
            session.seed = seed
        session.state = engine.initial_state(rules, [name for name, _ in seats], resolved,
                                             session.seed)
        saved_with_a_code(session)
        Seat.objects.bulk_create(
            Seat(session=session, index=i, name=name, player=player, colour=colour)
            for i, ((name, player), colour) in enumerate(zip(seats, colours, strict=True))
        )
    return session


def _colours_given(players):
    """Each seat's colour: the one its entry gives ({"name", "colour"}), else a distinct one."""
    given = [colour_checked(entry["colour"], field="players")
             if isinstance(entry, dict) and entry.get("colour") not in (None, "") else None
             for entry in players]
    chosen = [colour for colour in given if colour]
    if len(chosen) != len(set(chosen)):
        message = _("Two seats have the same colour: give each seat its own.")
        raise Invalid(message, fields={"players": [message]})
    return colours_default(given)


def seat_colour_set(*, session, actor, seat, colour):
    """A seat's colour, set by its own phone or by the host; another seat's colour is not taken.
    Every phone is told (a new version: the scoreboard and the log show it)."""
    with transaction.atomic():
        session = session_locked(session)
        seats = list(session.seats.all())
        seat = seat_checked(seat, len(seats))
        if not actor.is_host and actor.seat != seat:
            raise Forbidden(_("Only this seat's phone or the host may change its colour."))
        colour = colour_checked(colour)
        other = next((row for row in seats if row.index != seat and row.shown_colour == colour),
                     None)
        if other is not None:
            raise Conflict(_("%(name)s has that colour already: choose another.")
                           % {"name": other.name})
        if seats[seat].shown_colour == colour:  # a second tap: nothing changes, nobody is told
            return session
        Seat.objects.filter(session=session, index=seat).update(colour=colour)
        session.version += 1
        session.save(update_fields=["version", "updated_at"])
        session_announce(session)
    return session


def _first_in_options(rules, options, first):
    """The options with who starts in the game's own option for it (Knights: "merlin")."""
    if rules.first is None:
        message = _("%(game)s has no first player: leave out who starts.") % {
            "game": say(rules.name)}
        raise Invalid(message, fields={"first": [message]})
    options = dict(options or {})
    if options.get(rules.first, first) != first:
        message = _("Who starts is given twice, as first and as the option %(option)s: give it "
                    "once.") % {"option": rules.first}
        raise Invalid(message, fields={"first": [message]})
    options[rules.first] = first
    return options


def _language_checked(language):
    if language in (None, ""):
        return translation.get_supported_language_variant(translation.get_language())
    known = dict(settings.LANGUAGES)
    if language not in known:
        raise Invalid(_("The language is one of %(known)s, not %(given)s.")
                      % {"known": ", ".join(known), "given": str(language)[:20]},
                      field="language")
    return language


def session_language_set(*, session, actor, language):
    """The host sets the table's language (what the board screen speaks)."""
    if not actor.is_host:
        raise Forbidden(_("Only the host sets the table's language."))
    session.language = _language_checked(language)
    Session.objects.filter(pk=session.pk).update(language=session.language)
    return session


def saved_with_a_code(instance):
    """Save a new session or group, whose `code` is drawn at random; a clash is rare: then
    another code is drawn."""
    for _attempt in range(5):
        try:
            with transaction.atomic():
                instance.save()
            return instance
        except IntegrityError:
            instance.code = type(instance)._meta.get_field("code").default()
    instance.save()  # five clashes in a row: let the database say why
    return instance


def seat_checked(seat, seat_count, *, field="seat"):
    """`seat` when it is one of the table's (a whole number from 0), else Invalid."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seat_count:
        message = _("There is no seat %(seat)s: seats run from 0 to %(last)s.") % {
            "seat": seat, "last": seat_count - 1}
        raise Invalid(message, fields={field: [message]})
    return seat


def _host_seat_checked(seat, seat_count):
    return None if seat is None else seat_checked(seat, seat_count, field="host_seat")


def session_host_seat(*, session, seat):
    """The host sits at `seat` (None: the host only keeps the table). A seat a phone holds is
    that phone's."""
    with transaction.atomic():
        session = session_locked(session)
        seat = _host_seat_checked(seat, session.seats.count())
        if seat is not None and session.guests.filter(seat=seat).exists():
            raise Conflict(_("That seat is already claimed by another phone."))
        session.host_seat = seat
        session.version += 1
        session.save(update_fields=["host_seat", "version", "updated_at"])
        session_announce(session, seats=True)
    return session


def session_locked(session):
    return Session.objects.select_for_update().get(pk=session.pk)


def _results_write(session, rules):
    _results_remove(session, rules)
    players = dict(session.seats.values_list("index", "player_id"))
    rows = engine.standings_of(rules, session.state)
    Result.objects.bulk_create(
        Result(session=session, seat=row["seat"], name=row["name"],
               player_id=players.get(row["seat"]), owner_id=session.owner_id, game=session.game,
               title=session.title,
               score=stats.result_score(row), rank=row["rank"], winner=row["winner"],
               details=row.get("details") or {}, finished_at=session.finished_at)
        for row in rows
    )
    _tallies_change(session=session, rules=rules,
                    details=[row.get("details") or {} for row in rows], sign=1)


def _results_remove(session, rules):
    """Delete the session's Result rows, their tallies taken off first."""
    results = Result.objects.filter(session=session)
    if rules.tallies is not None:
        details = list(results.values_list("details", flat=True))
        if not details:
            return
        _tallies_change(session=session, rules=rules, details=details, sign=-1)
    results.delete()


TALLY_UPSERT = (
    "INSERT INTO {table} (owner_id, game, name, total, {count}) VALUES {values} "
    "ON CONFLICT (owner_id, game, name) DO UPDATE SET "
    "total = {table}.total + excluded.total, {count} = {table}.{count} + excluded.{count}"
)


def _tallies_change(*, session, rules, details, sign):
    """Add (sign 1) or take off (sign -1) the game's tallies of these results' details to the
    host's ResultTally rows: one upsert (PostgreSQL, SQLite 3.24+); rows left with no count are
    deleted. Names in order, so that two finishes of one host lock the rows in the same order."""
    if rules.tallies is None:
        return
    sums = {}
    for entry in details:
        for name, value in rules.tallies(entry).items():
            total, count = sums.get(name, (0.0, 0))
            sums[name] = (total + float(value), count + 1)
    if not sums:
        return
    quote = connection.ops.quote_name
    sql = TALLY_UPSERT.format(table=quote(ResultTally._meta.db_table), count=quote("count"),
                              values=", ".join(["(%s, %s, %s, %s, %s)"] * len(sums)))
    params = []
    for name, (total, count) in sorted(sums.items()):
        params += [session.owner_id, session.game, name, sign * total, sign * count]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    if sign < 0:
        ResultTally.objects.filter(owner_id=session.owner_id, game=session.game,
                                   count__lte=0).delete()


def session_settle(session, rules, *, finished_at=None):
    """Keep status, finished_at, the Result rows and their tallies in step with the state. A game
    that finishes here finishes now, or at `finished_at` (an import: when it was played)."""
    finished = rules.finished(session.state)
    if finished and not session.is_finished:
        session.status = Session.Status.FINISHED
        session.finished_at = finished_at or timezone.now()
        _results_write(session, rules)
    elif not finished and session.is_finished:
        session.status = Session.Status.ACTIVE
        session.finished_at = None
        _results_remove(session, rules)


def session_announce(session, *, seats=False):
    """Every phone of the session is told of its new version once the transaction commits."""
    live.announce(session.pk, session.version, seats=seats)


# session_rematch's `first` when none is given: who starts as in the game before.
AS_BEFORE = object()


def session_rematch(*, session, actor, first=AS_BEFORE):
    """A new game of the same game, players, seats and options (a fresh seed), which every phone
    of this table follows to: each seated phone gets its seat again. The host's; once per game.
    `first`: who starts the rematch (a seat, engine.DRAW, or None: the table decides, where the
    game allows it), as the game before by default: a draw is drawn again, from the new seed."""
    if not actor.is_host:
        raise Forbidden(_("Only the host may start a rematch."))
    with transaction.atomic():
        session = session_locked(session)
        if not session.is_finished:
            raise Conflict(_("This game is still on: finish it before a rematch."))
        if session.rematch_id is not None:
            return session.rematch
        players = [{"name": seat.name, "player": seat.player_id, "colour": seat.shown_colour}
                   if seat.player_id else {"name": seat.name, "colour": seat.shown_colour}
                   for seat in session.seats.order_by("index")]
        options = dict(session.options)
        if first is not AS_BEFORE:
            rules = plugins.rules_of(session.game)
            options.pop(rules.first, None)
            options = _first_in_options(rules, options, first)
        new = session_create(owner=session.owner, game=session.game, players=players,
                             options=options, location=session.location,
                             host_seat=session.host_seat, group=session.group_id)
        Guest.objects.bulk_create(Guest(session=new, seat=guest.seat, came_from=guest)
                                  for guest in session.guests.filter(seat__isnull=False))
        session.rematch = new
        session.version += 1
        session.save(update_fields=["rematch", "version", "updated_at"])
        session_announce(session)
    return new
