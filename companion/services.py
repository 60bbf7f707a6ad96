"""The only writers. Every change to a session goes through here, from the API and the pages alike.

Keyword-only functions named <thing>_<action>. Each one is a single transaction: a refusal
(any errors.Refused, the rules' RuleViolation included) leaves nothing behind.
"""

import datetime
import hashlib
import json
from collections import ChainMap
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from companion import engine, inputs, live, stats
from companion.errors import (
    Conflict,
    Forbidden,
    Invalid,
    KeyReused,
    NameTaken,
    NeedsConfirmation,
    NotFound,
    Refused,
    Stale,
)
from companion.language import say
from companion.limits import Limited
from companion.models import Guest, Move, Player, Result, ResultTally, Seat, Session
from companion.payloads import move_payload


@dataclass(frozen=True)
class Actor:
    """Who acts: the host (a user), who may sit at a seat of the session, or a guest device of
    the session, which holds at most one seat."""

    user: object | None = None
    guest: Guest | None = None
    host_seat: int | None = None

    @classmethod
    def host(cls, session):
        return cls(user=session.owner, host_seat=session.host_seat)

    @property
    def seat(self):
        """The seat this device is: what it sees (the viewer) and whose moves are its own."""
        return self.guest.seat if self.guest else self.host_seat

    @property
    def is_host(self):
        return self.user is not None

    @property
    def rules_actor(self):
        """The acting seat as the rules see it: None for the host, who may act for any seat."""
        return None if self.is_host else self.seat


# Accounts and roster -------------------------------------------------------------------------

def user_register(*, username, password):
    """A new host account; returns its API token."""
    User = get_user_model()
    username = inputs.text(username, field="username", label=_("The user name"),
                           max_length=User._meta.get_field("username").max_length)
    if not username:
        message = _("Choose a user name.")
        raise Invalid(message, fields={"username": [message]})
    if User.objects.filter(username__iexact=username).exists():
        raise NameTaken(username)
    candidate = User(username=username)
    try:
        password_validation.validate_password(password or "", candidate)
    except ValidationError as error:
        raise Invalid(" ".join(error.messages), fields={"password": error.messages}) from None
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password)
            token = Token.objects.create(user=user)
    except IntegrityError:  # the same name registered at the same moment (any case)
        raise NameTaken(username) from None
    return user, token.key


def token_for(*, user):
    token, _created = Token.objects.get_or_create(user=user)
    return token.key


def player_create(*, owner, name):
    name = inputs.text(name, field="name", label=_("The name"),
                       max_length=Player._meta.get_field("name").max_length)
    if not name:
        message = _("A player needs a name.")
        raise Invalid(message, fields={"name": [message]})
    if Player.objects.filter(owner=owner, name__iexact=name).exists():
        message = _("You already have a player called %(name)s.") % {"name": name}
        raise Invalid(message, fields={"name": [message]})
    try:
        with transaction.atomic():
            return Player.objects.create(owner=owner, name=name)
    except IntegrityError:
        raise Invalid(_("You already have a player called %(name)s.") % {"name": name}) from None


# Sessions ------------------------------------------------------------------------------------

def _roster_player(*, owner, name):
    """The host's roster player of that name (any case), added if new. Two games opened at once
    with the same new name add it once: the second finds the first's."""
    player = Player.objects.filter(owner=owner, name__iexact=name).first()
    if player is not None:
        return player
    try:
        with transaction.atomic():
            return Player.objects.create(owner=owner, name=name)
    except IntegrityError:
        return Player.objects.get(owner=owner, name__iexact=name)


def _seat_players(*, owner, players, known=None):
    """[(name, Player)] from plain names or {"name", "player": id}; new names join the roster.
    `known`: players found already, by ("id", id) and ("name", exact name), and where those
    found here are kept (an import's plays name the same players again and again)."""
    known = {} if known is None else known
    if not isinstance(players, list) or not players:
        message = _("Name the players.")
        raise Invalid(message, fields={"players": [message]})
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
                player = Player.objects.filter(owner=owner, pk=player_id).first()
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
        if player is None:
            player = known.get(("name", name)) or _roster_player(owner=owner, name=name)
            known[("name", name)] = player
        seats.append((name, player))
    return seats


def _played_title(*, owner, title):
    """A named game's title as the host first wrote it, whatever the case now ("carcassonne" is
    the Carcassonne played before): one game in statistics, not one per spelling."""
    return (Session.objects.filter(owner=owner, title__iexact=title).order_by("id")
            .values_list("title", flat=True).first() or title)


def session_create(*, owner, game, players, options=None, seed=None, location="",
                   host_seat=None, language=None):
    """A new game. `language` is the table's (the board speaks it); by default the host's."""
    rules = engine.get(game)
    language = _language_checked(language)
    if options is not None and not isinstance(options, dict):
        raise Invalid(_("The options are an object: {\"name\": value}."))
    location = inputs.text(location, field="location", label=_("The place"),
                           max_length=Session._meta.get_field("location").max_length)
    with transaction.atomic():
        seats = _seat_players(owner=owner, players=players)
        rules.check_seat_count(len(seats))
        resolved = rules.resolve_options(options, len(seats))
        title = rules.title(resolved) if rules.title else ""
        if title and rules.titled_options \
                and (played := _played_title(owner=owner, title=title)) != title:
            resolved = rules.resolve_options(
                {**resolved, **rules.titled_options(played, resolved["win"])}, len(seats))
            title = played
        session = Session(owner=owner, game=rules.slug, options=resolved, location=location,
                          title=title,
                          host_seat=_host_seat_checked(host_seat, len(seats)),
                          language=language)
        if seed:
            session.seed = seed
        session.state = engine.initial_state(rules, [name for name, _ in seats], resolved,
                                             session.seed)
        _save_with_a_code(session)
        Seat.objects.bulk_create(
            Seat(session=session, index=i, name=name, player=player)
            for i, (name, player) in enumerate(seats)
        )
    return session


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


def _save_with_a_code(session):
    """Save a new session; a join code clash is rare: then another code is drawn."""
    for _attempt in range(5):
        try:
            with transaction.atomic():
                session.save()
            return
        except IntegrityError:
            session.code = Session._meta.get_field("code").default()
    session.save()  # five clashes in a row: let the database say why


def _seat_checked(seat, seat_count, *, field="seat"):
    """`seat` when it is one of the table's (a whole number from 0), else Invalid."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seat_count:
        message = _("There is no seat %(seat)s: seats run from 0 to %(last)s.") % {
            "seat": seat, "last": seat_count - 1}
        raise Invalid(message, fields={field: [message]})
    return seat


def _host_seat_checked(seat, seat_count):
    return None if seat is None else _seat_checked(seat, seat_count, field="host_seat")


def session_host_seat(*, session, seat):
    """The host sits at `seat` (None: the host only keeps the table). A seat a phone holds is
    that phone's."""
    with transaction.atomic():
        session = _locked(session)
        seat = _host_seat_checked(seat, session.seats.count())
        if seat is not None and session.guests.filter(seat=seat).exists():
            raise Conflict(_("That seat is already claimed by another phone."))
        session.host_seat = seat
        session.version += 1
        session.save(update_fields=["host_seat", "version", "updated_at"])
        _announce(session, seats=True)
    return session


def _locked(session):
    return Session.objects.select_for_update().get(pk=session.pk)


def _move_seat(data, actor):
    seat = data.get("seat") if isinstance(data, dict) else None
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else actor.seat


def _seat_name(session, seat):
    # seats.all(): the seats the view fetched with the session, if it did (no query then).
    names = {row.index: row.name for row in session.seats.all()}
    return names.get(seat, _("seat %(seat)s") % {"seat": seat})


def _phone_seats(session):
    return set(session.guests.filter(seat__isnull=False).values_list("seat", flat=True))


def move_authorize(*, session, rules, type, data, actor):
    """Forbidden unless `actor` may make this move: the one place that decides, for the API and
    the pages alike. A seat's phone plays its own seat's moves and the table's; a move for
    another seat comes from that seat's phone or the host (a seat's own secret choice only from
    its phone while a phone holds it); moves that end the game for everyone are the host's."""
    level, seats = engine.move_authority(rules, type, data, session.state)
    if actor.is_host:
        if level == engine.OWN:
            held = _phone_seats(session) - {session.host_seat}
            for seat in seats:
                if seat in held:
                    name = _seat_name(session, seat)
                    raise Forbidden(_("Only %(name)s's own phone may make this move: %(name)s "
                                      "has joined with a phone.") % {"name": name})
        return
    if actor.seat is None:
        raise Forbidden(_("Choose your seat first: a phone plays for its own seat."))
    phones = _move_phones(level, seats)
    if phones is None or actor.seat in phones:
        return
    if level == engine.HOST:
        raise Forbidden(_("Only the host may do this: it changes the game for everyone."))
    name = _seat_name(session, seats[0])
    if level == engine.OWN:
        raise Forbidden(_("Only %(name)s's own phone may make this move.") % {"name": name})
    fighters = list(dict.fromkeys(seats))
    if len(fighters) == 2:  # a fight: either fighter's phone enters it
        raise Forbidden(_("This is a move of %(one)s or %(other)s: it comes from one of their "
                          "phones or the host's.") % {
                              "one": name, "other": _seat_name(session, fighters[1])})
    raise Forbidden(_("This is %(name)s's move: it comes from %(name)s's phone or the "
                      "host's.") % {"name": name})


def _move_phones(level, seats):
    """The seats whose phones may make a move of this authority: None for any seated phone."""
    if level == engine.HOST:
        return ()
    if level in (engine.OWN, engine.SEAT):
        return tuple(seats)
    return None


def move_phones(*, session, rules, type, data):
    """The seats whose phones may make this move now, as move_authorize decides for a phone
    (None: any seated phone; none: the host's alone). The page hides from a phone what it would
    only be refused (a Redo), the refusal itself still decided above."""
    level, seats = engine.move_authority(rules, type, data, session.state)
    return _move_phones(level, seats)


def undo_authorize(*, session, move, actor):
    """Forbidden unless `actor` may undo `move`, the last active move: the host may always; a
    guest's phone its own moves and those about its seat while the game is on."""
    if actor.is_host:
        return
    why = _undo_kept_for_host(session, move, engine.get(session.game))
    if why:
        raise Forbidden(why)
    phones = _undo_movers(move)
    if ("guest", actor.guest.pk) in phones or ("seat", actor.seat) in phones:
        return
    who = _seat_name(session, move.seat) if move.seat is not None else _("another phone")
    raise Forbidden(_("Only the host may undo a move of %(who)s.") % {"who": who})


def _undo_kept_for_host(session, move, rules):
    """Why only the host may undo `move` (a sentence), or None."""
    if session.is_finished:
        return _("The game is over: only the host may undo now.")
    return (rules.host_undoes and rules.host_undoes({"type": move.type, "data": move.data},
                                                    session.state)) or None


def undo_phones(*, session, move, rules):
    """The phones besides the host's that may undo `move`, the last active one, as
    undo_authorize decides: ("seat", n) for its seat's, ("guest", id) for the one that made it;
    none when only the host may."""
    return () if _undo_kept_for_host(session, move, rules) else _undo_movers(move)


def _undo_movers(move):
    """The phones of the move's seat and the one that made it, which may undo it while the game
    is its players' to undo."""
    phones = []
    if move.seat is not None:
        phones.append(("seat", move.seat))
    if move.actor_guest_id is not None:
        phones.append(("guest", move.actor_guest_id))
    return tuple(phones)


def _check_version(session, expected_version):
    if expected_version is not None and int(expected_version) != session.version:
        raise Stale(
            _("Someone at the table changed this: the session is at version %(now)s, not "
              "%(expected)s.") % {"now": session.version, "expected": expected_version},
            session=session,
        )


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


def _settle(session, rules, *, finished_at=None):
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


def _announce(session, *, seats=False):
    """Every phone of the session is told of its new version once the transaction commits."""
    live.announce(session.pk, session.version, seats=seats)


def move_fingerprint(move_type, fields):
    """What makes two posts "the same move" for an Idempotency-Key: the type and fields sent."""
    payload = json.dumps({"type": move_type, "data": fields}, sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()


def move_prior(*, session, key, fingerprint):
    """The move first posted with `key`, or None; KeyReused when that key came with another body."""
    if not key:
        return None
    prior = Move.objects.filter(session=session, idempotency_key=key).first()
    if prior is not None and prior.request_hash != fingerprint:
        raise KeyReused(_("This Idempotency-Key was already used for another move."))
    return prior


def move_line(rules, type, data, before, after):
    """A move's log line as its game made it: the English `summary` (what the API and the
    export carry) and the `message` every page says in its reader's language."""
    line = rules.summary({"type": type, "data": data}, before, after)
    return {"summary": str(line)[:300],
            "message": line.as_data() if isinstance(line, engine.Text) else None}


def _ends_the_game():
    return NeedsConfirmation(_("This ends the game for everyone at the table. Go ahead?"))


def move_play(*, session, type, data, actor, expected_version=None, key=None, answer=None,
              dice_of=None, confirmed=True):
    """Apply one move (its fields already checked by payloads.move_payload), or refuse it
    leaving the session exactly as it was. Returns the Move, its `session` the locked session
    as the move left it. The one writer of a move: the API and the pages both call it.

    With an Idempotency-Key `key`, a repeat of the same move returns the first Move marked
    `repeated`, and another move under the same key is refused (KeyReused). `answer(move)`, when
    given, is the reply a repeat gets back: it is kept with the move in the move's transaction.
    `dice_of`: the seq whose dice the move rolls (a redo's undone move; see Move.dice_of).
    `confirmed=False`: a host's move that would end the game for everyone is refused with
    NeedsConfirmation, for the page to ask first.
    """
    data = dict(data or {})
    fingerprint = move_fingerprint(type, data)
    with transaction.atomic():
        session = _locked(session)
        prior = move_prior(session=session, key=key, fingerprint=fingerprint)
        if prior is not None:
            prior.repeated = True
            return prior
        rules = engine.get(session.game)
        seq = session.last_seq + 1
        if not confirmed:
            _confirmation_asked(session, rules, type, data, actor, seq, expected_version)
        _check_version(session, expected_version)
        if session.is_finished:
            raise Conflict(_("This game is over: undo the last move to play on."))
        move_authorize(session=session, rules=rules, type=type, data=data, actor=actor)
        before = session.state
        after = engine.apply(rules, before, type, data, actor.rules_actor, session.seed, seq,
                             dice_of=dice_of)
        if not confirmed and _ends_for_everyone(rules, type, data, before, after, actor):
            raise _ends_the_game()
        move = Move.objects.create(
            session=session, seq=seq, type=type, data=data, seat=_move_seat(data, actor),
            actor_user=actor.user, actor_guest=actor.guest, actor_seat=actor.rules_actor,
            **move_line(rules, type, data, before, after),
            idempotency_key=key or None, request_hash=fingerprint, dice_of=dice_of,
        )
        session.state = after
        session.version += 1
        session.last_seq = seq
        _settle(session, rules)
        session.save(update_fields=["state", "version", "last_seq", "status", "finished_at",
                                    "updated_at"])
        move.session = session
        move.repeated = False
        if key and answer is not None:
            move.reply = answer(move)
            Move.objects.filter(pk=move.pk).update(reply=move.reply)
        _announce(session)
    return move


def _ends_for_everyone(rules, type, data, before, after, actor):
    """Whether this is the host's move that ends the game for the whole table (an End, the
    winners named, a last round), which the page asks about before it is played."""
    level, _seats = engine.move_authority(rules, type, data, before)
    return actor.is_host and level == engine.HOST and bool(rules.finished(after))


def _confirmation_asked(session, rules, type, data, actor, seq, expected_version):
    """A host's form drawn before other phones moved (the host's own controls are not redrawn
    for every move) that would end the game now is asked about over the table as it is: the
    page's "Yes" then answers for this version rather than being refused as stale."""
    if not actor.is_host or expected_version is None \
            or int(expected_version) == session.version or session.is_finished:
        return
    try:
        after = engine.apply(rules, session.state, type, data, None, session.seed, seq)
    except Refused:
        return  # refused as stale, below
    if _ends_for_everyone(rules, type, data, session.state, after, actor):
        raise _ends_the_game()


def move_undo(*, session, actor, expected_version=None):
    """Mark the last active move undone and rebuild the state by replay. Reopens a finished game."""
    with transaction.atomic():
        session = _locked(session)
        _check_version(session, expected_version)
        last = session.moves.filter(undone=False).order_by("-seq").first()
        if last is None:
            raise Conflict(_("There is nothing left to undo."))
        undo_authorize(session=session, move=last, actor=actor)
        last.undone = True
        last.undone_at = timezone.now()
        last.undone_by, last.undone_by_role = _undoer(session=session, actor=actor)
        last.save(update_fields=["undone", "undone_at", "undone_by", "undone_by_role"])
        rules = engine.get(session.game)
        session.state = session_replay(session=session, rules=rules)
        session.version += 1
        _settle(session, rules)
        session.save(update_fields=["state", "version", "status", "finished_at", "updated_at"])
        _announce(session)
    return session, last


def _undoer(*, session, actor):
    """Who undoes, as Move.undone_by and undone_by_role keep it: the seat's name, or the role
    (the host, a phone without a seat) that each reader's page says in its own language."""
    if actor.seat is not None:
        return _seat_name(session, actor.seat)[:60], ""
    return "", "host" if actor.is_host else "phone"


def move_redo(*, session, actor, seq, expected_version=None, key=None):
    """Play an undone move again, as a new move of `actor` (the rules and the authority check it
    as any move): the Redo beside "Ben undid: ...". It rolls the dice and draws the cards the
    undone move did (the table has them in front of it), not new ones."""
    undone = session.moves.filter(seq=seq, undone=True).first()
    if undone is None:
        raise Conflict(_("That move is not undone: there is nothing to redo."))
    return move_play(session=session, type=undone.type, data=undone.data, actor=actor,
                     expected_version=expected_version, key=key,
                     dice_of=undone.dice_of or undone.seq)


def session_rematch(*, session, actor):
    """A new game of the same game, players, seats and options (a fresh seed), which every phone
    of this table follows to: each seated phone gets its seat again. The host's; once per game."""
    if not actor.is_host:
        raise Forbidden(_("Only the host may start a rematch."))
    with transaction.atomic():
        session = _locked(session)
        if not session.is_finished:
            raise Conflict(_("This game is still on: finish it before a rematch."))
        if session.rematch_id is not None:
            return session.rematch
        players = [{"name": seat.name, "player": seat.player_id} if seat.player_id else seat.name
                   for seat in session.seats.order_by("index")]
        options = dict(session.options)
        new = session_create(owner=session.owner, game=session.game, players=players,
                             options=options, location=session.location,
                             host_seat=session.host_seat)
        Guest.objects.bulk_create(Guest(session=new, seat=guest.seat, came_from=guest)
                                  for guest in session.guests.filter(seat__isnull=False))
        session.rematch = new
        session.version += 1
        session.save(update_fields=["rematch", "version", "updated_at"])
        _announce(session)
    return new


def guest_follow(*, guest):
    """The guest of the rematch a guest's phone follows to: the one made for it at the rematch
    (its seat's), else a seatless one made now, once. Only that phone's: whoever holds its seat
    at the rematch now (a phone that joined it with the new code) keeps its own token."""
    new = guest.session.rematch
    if new is None:
        raise NotFound(_("There is no rematch of this game yet."))
    # Django's get_or_create: the same phone following twice at once makes one.
    return Guest.objects.get_or_create(came_from=guest, defaults={"session": new})[0]


def session_replay(*, session, rules=None, upto=None):
    """The state folded from the set-up over the active moves (up to seq `upto`)."""
    rules = rules or engine.get(session.game)
    moves = session.moves.filter(undone=False).order_by("seq")
    if upto is not None:
        moves = moves.filter(seq__lte=upto)
    names = list(session.seats.order_by("index").values_list("name", flat=True))
    return engine.replay(rules, names, session.options, session.seed,
                         [move.as_replay() for move in moves])


# Guests --------------------------------------------------------------------------------------

def guest_join(*, code, seat=None):
    code = Session.typed_code(code)
    session = None
    if Session.is_code(code):
        session = Session.objects.filter(code=code, status=Session.Status.ACTIVE).first()
    if session is None:
        raise NotFound(_("No game is open with the code %(code)s.")
                       % {"code": code[:20] or "(empty)"})
    with transaction.atomic():
        session = _locked(session)  # two phones joining at once count each other
        if session.guests.count() >= settings.GUESTS_PER_SESSION:
            # A phone taking a seat is a player: the phone without a seat that joined first
            # makes room (anyone with the code could fill a table with seatless phones).
            spare = session.guests.filter(seat=None).order_by("created_at", "pk").first() \
                if seat is not None else None
            if spare is None:
                raise Limited(_("This game already has %(count)s phones: one of them can show "
                                "the table.") % {"count": settings.GUESTS_PER_SESSION},
                              retry_after=3600)
            spare.delete()
        guest = Guest.objects.create(session=session)
        if seat is not None:
            guest_seat_claim(guest=guest, seat=seat)
    return guest


def guest_seat_free(*, session, actor, seat):
    """The host frees the seat a phone holds (that phone lost, flat, or swapped for another):
    the phone stays at the table without a seat, and the seat is free for the next phone to
    claim. Until then the host plays the seat's moves, its secret ones too."""
    if not actor.is_host:
        raise Forbidden(_("Only the host may free a phone's seat."))
    with transaction.atomic():
        session = _locked(session)
        if seat is None:
            message = _("Choose the seat to free.")
            raise Invalid(message, fields={"seat": [message]})
        _seat_checked(seat, session.seats.count())
        if not session.guests.filter(seat=seat).update(seat=None):
            raise Conflict(_("No phone holds %(name)s's seat.") % {
                "name": _seat_name(session, seat)})
        session.version += 1
        session.save(update_fields=["version", "updated_at"])
        _announce(session, seats=True)
    return session


def guest_seat_claim(*, guest, seat):
    session = guest.session
    if session.is_finished:
        raise Conflict(_("This game is over: its seats stay as they were."))
    _seat_checked(seat, session.seats.count())
    rules = engine.get(session.game)
    if guest.seat is not None and seat != guest.seat and rules.pending \
            and rules.pending(session.state):
        # A seat's phone sees that seat's secrets: moving to a seat whose choice the host
        # sealed (no phone held it), and back, a phone would seal its own knowing that one.
        raise Conflict(_("A phone keeps its seat while a choice is hidden (a sealed placement, "
                         "a draw): at another seat it would see that seat's."))
    if seat == session.host_seat:
        raise Conflict(_("That seat is the host's."))
    if Guest.objects.filter(session=session, seat=seat).exclude(pk=guest.pk).exists():
        raise Conflict(_("That seat is already claimed by another phone."))
    guest.seat = seat
    try:
        with transaction.atomic():
            guest.save(update_fields=["seat"])
            # No new version: the other phones' open forms stay good.
            live.announce(session.pk, session.version, seats=True)
    except IntegrityError:
        raise Conflict(_("That seat is already claimed by another phone.")) from None
    return guest


# Import --------------------------------------------------------------------------------------

IMPORT_MOVES_MAX = 5000


def _import_entry(move, *, rules, seat_count, owner):
    """One move of an export, checked field by field (an undone move too: its type must be one
    of the game's and its fields of the right shape), as {"seq", "type", "data", ...}."""
    def damaged(what):
        return Invalid(_("This export is damaged: %(what)s.") % {"what": what})

    def number(value, low, high):
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high

    if not isinstance(move, dict):
        raise damaged(_("a move is not an object"))
    seq, move_type, fields = move.get("seq"), move.get("type"), move.get("data")
    if not number(seq, 1, 10 * IMPORT_MOVES_MAX):
        raise damaged(_("a move's number is missing or out of range"))
    if not isinstance(move_type, str) or move_type not in rules.moves:
        raise damaged(_("move %(seq)s is not a move of %(game)s") % {"seq": seq,
                                                                     "game": say(rules.name)})
    if not isinstance(fields, dict):
        raise damaged(_("move %(seq)s has no fields") % {"seq": seq})
    for name in ("seat", "actor_seat"):
        if move.get(name) is not None and not number(move[name], 0, seat_count - 1):
            raise damaged(_("move %(seq)s names a seat that is not at the table") % {"seq": seq})
    if not isinstance(move.get("undone", False), bool):
        raise damaged(_("move %(seq)s: undone is true or false") % {"seq": seq})
    try:
        move_payload(game=rules.slug, move_type=move_type, fields=fields, owner=owner.pk)
    except Refused as refusal:
        raise damaged(_("move %(seq)s: %(why)s") % {"seq": seq, "why": refusal.message}) \
            from None
    dice_of = move.get("dice_of")
    if dice_of is not None and not number(dice_of, 1, seq - 1):
        raise damaged(_("move %(seq)s rolls the dice of a move that is not before it")
                      % {"seq": seq})
    summary = move.get("summary")
    return {"seq": seq, "type": move_type, "data": fields, "undone": move.get("undone", False),
            "seat": move.get("seat"), "actor": move.get("actor_seat"), "dice_of": dice_of,
            "summary": summary if isinstance(summary, str) else "",
            "created_at": _export_time(move.get("created_at"),
                                       what=_("the time of move %(seq)s") % {"seq": seq})}


def _export_time(value, *, what):
    """A time an export keeps (ISO 8601, as session_export writes it), or None when it keeps
    none; a time that is not one, or that is still to come, refuses the import."""
    if value is None:
        return None
    try:
        moment = datetime.datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        moment = None
    if moment is None:
        raise Invalid(_("This export is damaged: %(what)s is not a date and time.")
                      % {"what": what})
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, datetime.UTC)
    if moment > timezone.now():
        raise Invalid(_("This export is damaged: %(what)s is still to come.") % {"what": what})
    if moment < EARLIEST_PLAY:
        raise Invalid(_("This export is damaged: %(what)s is before 1900.") % {"what": what})
    return moment


def session_import(*, owner, data):
    """A new session from an export: its moves are replayed through the rules, so a broken or
    tampered export is refused whole and creates nothing."""
    if not isinstance(data, dict):
        raise Invalid(_("An import is the JSON of an export."))
    if data.get("logged") is True:  # no moves to replay: its play is logged again
        return _import_logged(owner=owner, data=data)
    moves = data.get("moves")
    seats = data.get("seats")
    if not isinstance(moves, list) or not isinstance(seats, list) or not seats:
        raise Invalid(_("This is not a Companion export: it needs its seats and its moves."))
    if len(moves) > IMPORT_MOVES_MAX:
        raise Invalid(_("An import holds %(max)s moves at most; this one has %(count)s.")
                      % {"max": IMPORT_MOVES_MAX, "count": len(moves)})
    seed = data.get("seed")
    # The dice rolled and the cards drawn are the seed's: without it the moves would replay to
    # another table (the contract: the replayed state equals the original's). The state the file
    # holds is not read: the replay makes it, so an export from an older version still imports.
    if seed is None:
        raise Invalid(_("This export is damaged: its seed is missing (the dice and the cards "
                        "of its moves come from it)."))
    if not (isinstance(seed, str) and seed.isascii() and seed.isalnum()
            and len(seed) <= Session._meta.get_field("seed").max_length):
        raise Invalid(_("This export is damaged: its seed is not one Companion makes."))
    try:
        names = [seat["name"] for seat in sorted(seats, key=lambda seat: seat["index"])]
    except (KeyError, TypeError):
        raise Invalid(_("This export is damaged: a seat is missing its fields.")) from None
    # When it was played: history and statistics keep the day it was played, not the import's.
    started = _export_time(data.get("created_at"), what=_("its start"))
    ended = _export_time(data.get("finished_at"), what=_("its end"))
    if started and ended and ended < started:
        raise Invalid(_("This export is damaged: it ends before it starts."))
    rules = engine.get(data.get("game"))
    entries = sorted((_import_entry(move, rules=rules, seat_count=len(names), owner=owner)
                      for move in moves),
                     key=lambda entry: entry["seq"])
    if len({m["seq"] for m in entries}) != len(entries):
        raise Invalid(_("This export is damaged: two moves share a number."))
    with transaction.atomic():
        session = session_create(owner=owner, game=data.get("game"), players=names,
                                 options=data.get("options") or {}, seed=data.get("seed"),
                                 location=data.get("location") or "")
        rules = engine.get(session.game)
        state = session.state
        rows = []
        for step in engine.steps(rules, state, session.seed, entries, tolerant=True):
            entry = step.move
            if step.refusal is not None:
                raise Invalid(
                    _("This export is damaged: move %(seq)s is refused by the rules "
                      "(%(why)s)") % {"seq": entry["seq"], "why": step.refusal.message})
            line = {"summary": (entry["summary"] or f"{entry['type']} (undone)")[:300]}
            if step.applied:
                line = move_line(rules, entry["type"], entry["data"], step.before, step.after)
                state = step.after
            # An undone move keeps no undone_at: it was undone at the table it came from, not
            # now, so the new table tells no one "Someone undid: …" (fragments._undone_recently).
            rows.append(Move(session=session, seq=entry["seq"], type=entry["type"],
                             data=entry["data"], seat=entry["seat"], actor_seat=entry["actor"],
                             **line, undone=entry["undone"], dice_of=entry["dice_of"]))
        Move.objects.bulk_create(rows)
        session.last_seq = max((row.seq for row in rows), default=0)
        session.state = state
        session.version = len(entries) + sum(1 for entry in entries if entry["undone"])
        _settle(session, rules, finished_at=ended)
        if started is not None:  # the session was inserted with now: saved with its start
            session.created_at = started
        session.save()
        _import_move_times(rows=rows, entries=entries)
    return session


def _import_move_times(*, rows, entries):
    """Each move's time as the export kept it, over the insert's (Move.created_at is set on
    insert, whatever the row held)."""
    timed = []
    for row, entry in zip(rows, entries, strict=True):  # a row for each entry, in their order
        if entry["created_at"] is not None:
            row.created_at = entry["created_at"]
            timed.append(row)
    if timed:
        Move.objects.bulk_update(timed, ["created_at"], batch_size=500)  # one CASE per 500


# Logged plays --------------------------------------------------------------------------------

# How a named game is won (the score pad's option "win"): the highest score, the lowest,
# together (cooperative) or with no points (the winners named). Our own games: the highest.
LOG_WINS = ("high", "low", "coop", "none")
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


def logged_standings(*, names, scores, winners, win):
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
    games = engine.all_games()
    if not game or game in {rules.slug for rules in games}:
        return game, title
    named = {rules.name.casefold(): rules.slug for rules in games}
    if game.casefold() in named:
        return named[game.casefold()], title
    if engine.titled_game() and not (isinstance(title, str) and title.strip()):
        return "", game
    return game, title


def play_log(*, owner, game="", title="", played_at=None, minutes=None, location="",
             players=None, note="", win="high", known=None):
    """A play not played in the app, entered afterwards: a finished session (logged) with its
    seats and Result rows and no moves. `game` is one of the games' slugs, or empty (or the
    named game's slug) with `title` naming the game played; `players` are {"name", "player"?,
    "score"?, "winner"?}. Its state is the game's set-up with the play under "logged" (the note,
    the length, the final standings), so that every page opening it works; the pages show the
    logged standings in place of the panel.

    `known`: the titles and players an import's earlier plays found (see _seat_players); what
    this play finds joins it only once the play is written (a refused play's new roster player
    is rolled back with it)."""
    learned = {}
    lookups = ChainMap(learned, {} if known is None else known)
    if not isinstance(game, str):
        raise Invalid(_("The game is the slug of a game, or empty for a named game."),
                      fields={"game": [_("The game is the slug of a game.")]})
    game, title = _logged_game(game.strip(), title)
    title = inputs.text(title, field="title", label=_("The game's name"),
                        max_length=Session._meta.get_field("title").max_length)
    if title:  # "carcassonne" is the Carcassonne played before: one game in statistics
        if ("title", title) not in lookups:
            learned[("title", title)] = _played_title(owner=owner, title=title)
        title = lookups[("title", title)]
    titled = engine.titled_game()
    game = game.strip() or (titled.slug if title and titled else "")
    if not game:
        message = _("Name the game played.")
        raise Invalid(message, fields={"game": [message]})
    rules = engine.get(game)
    if rules.title is not None and not title:
        message = _("Name the game played, for example Carcassonne.")
        raise Invalid(message, fields={"title": [message]})
    if rules.title is None and title:
        message = _("%(game)s is a game of its own: leave the name empty.") % {
            "game": say(rules.name)}
        raise Invalid(message, fields={"title": [message]})
    if win not in LOG_WINS:
        message = _("A game is won by the highest score (high), the lowest (low), together "
                    "(coop) or with no points (none), not %(raw)s.") % {"raw": str(win)[:20]}
        raise Invalid(message, fields={"win": [message]})
    if rules.title is None and win != "high":
        message = _("%(game)s is won by the highest score.") % {"game": say(rules.name)}
        raise Invalid(message, fields={"win": [message]})
    minutes = _log_number(minutes, label=_("The length"), field="minutes")
    if minutes is not None and (minutes != int(minutes) or not 0 < minutes <= LOG_MINUTES_MAX):
        message = _("The length is a whole number of minutes from 1 to %(max)s.") % {
            "max": LOG_MINUTES_MAX}
        raise Invalid(message, fields={"minutes": [message]})
    minutes = int(minutes) if minutes is not None else None
    start = _log_start(played_at, minutes)
    location = inputs.text(location, field="location", label=_("The place"),
                           max_length=Session._meta.get_field("location").max_length)
    note = inputs.text(note, field="note", label=_("The note"), max_length=LOG_NOTE_MAX)
    if not isinstance(players, list) or not players:
        message = _("Name the players.")
        raise Invalid(message, fields={"players": [message]})
    seats, scores, winners = [], [], []
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
        seats.append({key: entry[key] for key in ("name", "player") if key in entry})
    with transaction.atomic():
        seated = _seat_players(owner=owner, players=seats, known=lookups)
        rules.check_seat_count(len(seated))
        names = [name for name, _player in seated]
        rows = logged_standings(names=names, scores=scores, winners=winners, win=win)
        named = rules.titled_options(title, win) if title else None
        options = rules.resolve_options(named, len(seated))
        finish = start + datetime.timedelta(minutes=minutes or 0)
        session = Session(owner=owner, game=rules.slug, options=options, location=location,
                          title=title, logged=True, status=Session.Status.FINISHED,
                          finished_at=finish)
        state = engine.initial_state(rules, names, options, session.seed)
        state["logged"] = {"note": note, "minutes": minutes, "win": win,
                           "standings": rows}
        session.state = state
        _save_with_a_code(session)
        # created_at is set on insert; a logged play began when it was played.
        Session.objects.filter(pk=session.pk).update(created_at=start)
        session.created_at = start
        Seat.objects.bulk_create(
            Seat(session=session, index=i, name=name, player=player)
            for i, (name, player) in enumerate(seated)
        )
        Result.objects.bulk_create(
            Result(session=session, seat=row["seat"], name=row["name"],
                   player_id=seated[row["seat"]][1].pk, owner_id=owner.pk, game=session.game,
                   title=title, score=stats.result_score(row), rank=row["rank"],
                   winner=row["winner"], details={}, finished_at=finish)
            for row in rows
        )
    if known is not None:
        known.update(learned)
    return session


def _import_logged(*, owner, data):
    """A logged play from its export (session_import): logged again from its seats, its final
    standings and what its state keeps of the play; anything amiss refuses it whole."""
    def damaged(why):
        return Invalid(_("This export is damaged: %(why)s.") % {"why": why})

    state, seats, rows = data.get("state"), data.get("seats"), data.get("standings")
    logged = state.get("logged") if isinstance(state, dict) else None
    if not isinstance(logged, dict) or not isinstance(seats, list) or not isinstance(rows, list):
        raise damaged(_("its logged play is missing"))
    try:
        names = {seat["index"]: seat["name"] for seat in seats}
        by_seat = {row["seat"]: row for row in rows}
        players = [{"name": names[index], "winner": by_seat[index]["winner"],
                    "score": None if logged.get("win") == "none"
                    or stats.result_score(by_seat[index]) is None else by_seat[index]["score"]}
                   for index in range(len(seats))]
        played_at = datetime.datetime.fromisoformat(data["created_at"])
    except (KeyError, TypeError, ValueError):
        raise damaged(_("a seat or a standing is missing its fields")) from None
    if set(by_seat) != set(names):
        raise damaged(_("its standings are not its seats'"))
    try:
        return play_log(owner=owner, game=data.get("game") or "", title=data.get("title") or "",
                        played_at=played_at, minutes=logged.get("minutes"),
                        location=data.get("location") or "", players=players,
                        note=logged.get("note") or "", win=logged.get("win") or "high")
    except Refused as refusal:
        raise damaged(refusal.message.rstrip(".")) from None


# Imported plays (BG Stats) -------------------------------------------------------------------

IMPORT_PLAYS_CHUNK = 500


def bgstats_import(*, owner, plays, progress=None):
    """Log the plays of a BG Stats backup (companion.bgstats.plan: [{"key", "label", "log":
    play_log's keywords}]) in one transaction. A play whose key this host already has is not
    logged again; a play play_log refuses is skipped with its sentence. `progress(done, total)`
    is called after each play. Returns {"added": [(label, session id)], "already": [label],
    "skipped": [(label, why)], "new_players": [name]}."""
    keys = [entry["key"] for entry in plays]
    summary = {"added": [], "already": [], "skipped": [], "new_players": []}
    with transaction.atomic():
        known = set()
        for start in range(0, len(keys), IMPORT_PLAYS_CHUNK):
            known.update(Session.objects.filter(
                owner=owner, source_key__in=keys[start:start + IMPORT_PLAYS_CHUNK])
                .values_list("source_key", flat=True))
        # This host's own plays, exported (bgstats.backup_of) and brought back, are theirs already.
        from companion.bgstats import session_key

        known.update(session_key(pk) for pk in Session.objects.filter(owner=owner, source_key="")
                     .values_list("id", flat=True))
        roster = set(Player.objects.filter(owner=owner).values_list("id", flat=True))
        found = {}  # the titles and players the plays name, looked up once for all of them
        for done, entry in enumerate(plays, start=1):
            if entry["key"] in known:
                summary["already"].append(entry["label"])
            else:
                try:  # play_log refuses before it writes, or inside its own savepoint
                    session = play_log(owner=owner, known=found, **entry["log"])
                    Session.objects.filter(pk=session.pk).update(source_key=entry["key"])
                except Refused as refusal:
                    summary["skipped"].append((entry["label"], refusal.message))
                else:
                    known.add(entry["key"])
                    summary["added"].append((entry["label"], session.pk))
            if progress is not None:
                progress(done, len(plays))
        summary["new_players"] = list(Player.objects.filter(owner=owner).exclude(id__in=roster)
                                      .order_by("name").values_list("name", flat=True))
    return summary
