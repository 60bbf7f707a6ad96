"""The only writers. Every change to a session goes through here, from the API and the pages alike.

Keyword-only functions named <thing>_<action>. Each one is a single transaction: a refusal
(any errors.Refused, the rules' RuleViolation included) leaves nothing behind.
"""

import hashlib
import json
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from companion import engine, inputs, live
from companion.errors import Conflict, Invalid, KeyReused, NotFound, Refused, Stale
from companion.limits import Limited
from companion.models import Guest, Move, Player, Result, ResultTally, Seat, Session
from companion.payloads import move_payload


@dataclass(frozen=True)
class Actor:
    """Who acts: the host (a user) or a guest device of the session."""

    user: object | None = None
    guest: Guest | None = None

    @property
    def seat(self):
        return self.guest.seat if self.guest else None

    @property
    def is_host(self):
        return self.user is not None


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
        message = _("The name %(name)s is taken: choose another.") % {"name": username}
        raise Invalid(message, fields={"username": [message]})
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
        message = _("The name %(name)s is taken: choose another.") % {"name": username}
        raise Invalid(message, fields={"username": [message]}) from None
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

def _seat_players(*, owner, players):
    """[(name, Player)] from plain names or {"name", "player": id}; new names join the roster."""
    if not isinstance(players, list) or not players:
        message = _("Name the players.")
        raise Invalid(message, fields={"players": [message]})
    seats, seen = [], set()
    for entry in players:
        if isinstance(entry, str):
            entry = {"name": entry}
        if not isinstance(entry, dict):
            raise Invalid(_("Each player is a name, or {\"name\", \"player\"}."))
        name = inputs.text(entry.get("name") or "", field="players", label=_("A player's name"),
                           max_length=200)
        player_id = entry.get("player")
        player = None
        if player_id is not None and (isinstance(player_id, bool)
                                      or not isinstance(player_id, int)):
            message = _("A player's id is a whole number, not %(id)s.") % {
                "id": str(player_id)[:20]}
            raise Invalid(message, fields={"players": [message]})
        if player_id is not None:
            player = Player.objects.filter(owner=owner, pk=player_id).first()
            if player is None:
                message = _("You have no player with id %(id)s.") % {"id": player_id}
                raise Invalid(message, fields={"players": [message]})
            name = name or player.name
        if not name:
            message = _("Every player needs a name.")
            raise Invalid(message, fields={"players": [message]})
        if len(name) > 60:
            raise Invalid(_("The name %(name)s… is too long (60 letters at most).")
                          % {"name": name[:20]})
        if name.lower() in seen:
            raise Invalid(_("%(name)s is named twice: give each seat its own name.")
                          % {"name": name})
        seen.add(name.lower())
        if player is None:
            player = Player.objects.filter(owner=owner, name__iexact=name).first()
            if player is None:
                player = Player.objects.create(owner=owner, name=name)
        seats.append((name, player))
    return seats


def session_create(*, owner, game, players, options=None, seed=None):
    rules = engine.get(game)
    if options is not None and not isinstance(options, dict):
        raise Invalid(_("The options are an object: {\"name\": value}."))
    with transaction.atomic():
        seats = _seat_players(owner=owner, players=players)
        rules.check_seat_count(len(seats))
        resolved = rules.resolve_options(options, len(seats))
        session = Session(owner=owner, game=rules.slug, options=resolved)
        if seed:
            session.seed = seed
        session.state = engine.initial_state(rules, [name for name, _ in seats], resolved,
                                             session.seed)
        for _attempt in range(5):  # a join code clash is rare; draw again
            try:
                with transaction.atomic():
                    session.save()
                break
            except IntegrityError:
                session.code = Session._meta.get_field("code").default()
        Seat.objects.bulk_create(
            Seat(session=session, index=i, name=name, player=player)
            for i, (name, player) in enumerate(seats)
        )
    return session


def _locked(session):
    return Session.objects.select_for_update().get(pk=session.pk)


def _move_seat(data, actor):
    seat = data.get("seat") if isinstance(data, dict) else None
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else actor.seat


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
               score=float(row["score"]), rank=row["rank"], winner=row["winner"],
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


def _settle(session, rules):
    """Keep status, finished_at, the Result rows and their tallies in step with the state."""
    finished = rules.finished(session.state)
    if finished and not session.is_finished:
        session.status = Session.Status.FINISHED
        session.finished_at = timezone.now()
        _results_write(session, rules)
    elif not finished and session.is_finished:
        session.status = Session.Status.ACTIVE
        session.finished_at = None
        _results_remove(session, rules)


def _announce(session):
    live.announce(session.pk, session.version)


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


def move_play(*, session, type, data, actor, expected_version=None, key=None, answer=None):
    """Apply one move (its fields already checked by payloads.move_payload), or refuse it
    leaving the session exactly as it was. Returns the Move.

    With an Idempotency-Key `key`, a repeat of the same move returns the first Move marked
    `repeated`, and another move under the same key is refused (KeyReused). `answer(move)`, when
    given, is the reply a repeat gets back: it is kept with the move in the move's transaction.
    """
    data = dict(data or {})
    fingerprint = move_fingerprint(type, data)
    with transaction.atomic():
        session = _locked(session)
        prior = move_prior(session=session, key=key, fingerprint=fingerprint)
        if prior is not None:
            prior.repeated = True
            return prior
        _check_version(session, expected_version)
        if session.is_finished:
            raise Conflict(_("This game is over: undo the last move to play on."))
        rules = engine.get(session.game)
        seq = (session.moves.aggregate(last=Max("seq"))["last"] or 0) + 1
        before = session.state
        after = engine.apply(rules, before, type, data, actor.seat, session.seed, seq)
        move = Move.objects.create(
            session=session, seq=seq, type=type, data=data, seat=_move_seat(data, actor),
            actor_user=actor.user, actor_guest=actor.guest, actor_seat=actor.seat,
            summary=rules.summary({"type": type, "data": data}, before, after)[:300],
            idempotency_key=key or None, request_hash=fingerprint,
        )
        session.state = after
        session.version += 1
        _settle(session, rules)
        session.save(update_fields=["state", "version", "status", "finished_at", "updated_at"])
        move.session = session
        move.repeated = False
        if key and answer is not None:
            move.reply = answer(move)
            Move.objects.filter(pk=move.pk).update(reply=move.reply)
        _announce(session)
    return move


def move_undo(*, session, actor, expected_version=None):
    """Mark the last active move undone and rebuild the state by replay. Reopens a finished game."""
    with transaction.atomic():
        session = _locked(session)
        _check_version(session, expected_version)
        last = session.moves.filter(undone=False).order_by("-seq").first()
        if last is None:
            raise Conflict(_("There is nothing left to undo."))
        last.undone = True
        last.undone_at = timezone.now()
        last.save(update_fields=["undone", "undone_at"])
        rules = engine.get(session.game)
        session.state = session_replay(session=session, rules=rules)
        session.version += 1
        _settle(session, rules)
        session.save(update_fields=["state", "version", "status", "finished_at", "updated_at"])
        _announce(session)
    return session, last


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
    code = (code or "").strip().upper() if isinstance(code, str) else ""
    session = None
    if Session.is_code(code):
        session = Session.objects.filter(code=code, status=Session.Status.ACTIVE).first()
    if session is None:
        raise NotFound(_("No game is open with the code %(code)s.")
                       % {"code": code[:20] or "(empty)"})
    with transaction.atomic():
        session = _locked(session)  # two phones joining at once count each other
        if session.guests.count() >= settings.GUESTS_PER_SESSION:
            raise Limited(_("This game already has %(count)s phones: one of them can show the "
                            "table.") % {"count": settings.GUESTS_PER_SESSION},
                          retry_after=3600)
        guest = Guest.objects.create(session=session)
        if seat is not None:
            guest_seat_claim(guest=guest, seat=seat)
    return guest


def guest_seat_claim(*, guest, seat):
    seats = guest.session.seats.count()
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        message = _("There is no seat %(seat)s: seats run from 0 to %(last)s.") % {
            "seat": seat, "last": seats - 1}
        raise Invalid(message, fields={"seat": [message]})
    if Guest.objects.filter(session=guest.session_id, seat=seat).exclude(pk=guest.pk).exists():
        raise Conflict(_("That seat is already claimed by another phone."))
    guest.seat = seat
    try:
        with transaction.atomic():
            guest.save(update_fields=["seat"])
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
                                                                     "game": rules.name})
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
    summary = move.get("summary")
    return {"seq": seq, "type": move_type, "data": fields, "undone": move.get("undone", False),
            "seat": move.get("seat"), "actor": move.get("actor_seat"),
            "summary": summary if isinstance(summary, str) else ""}


def session_import(*, owner, data):
    """A new session from an export: its moves are replayed through the rules, so a broken or
    tampered export is refused whole and creates nothing."""
    if not isinstance(data, dict):
        raise Invalid(_("An import is the JSON of an export."))
    moves = data.get("moves")
    seats = data.get("seats")
    if not isinstance(moves, list) or not isinstance(seats, list) or not seats:
        raise Invalid(_("This is not a Companion export: it needs its seats and its moves."))
    if len(moves) > IMPORT_MOVES_MAX:
        raise Invalid(_("An import holds %(max)s moves at most; this one has %(count)s.")
                      % {"max": IMPORT_MOVES_MAX, "count": len(moves)})
    seed = data.get("seed")
    if seed is not None and not (isinstance(seed, str) and seed.isascii() and seed.isalnum()
                                 and len(seed) <= Session._meta.get_field("seed").max_length):
        raise Invalid(_("This export is damaged: its seed is not one Companion makes."))
    try:
        names = [seat["name"] for seat in sorted(seats, key=lambda seat: seat["index"])]
    except (KeyError, TypeError):
        raise Invalid(_("This export is damaged: a seat is missing its fields.")) from None
    rules = engine.get(data.get("game"))
    entries = sorted((_import_entry(move, rules=rules, seat_count=len(names), owner=owner)
                      for move in moves),
                     key=lambda entry: entry["seq"])
    if len({m["seq"] for m in entries}) != len(entries):
        raise Invalid(_("This export is damaged: two moves share a number."))
    with transaction.atomic():
        session = session_create(owner=owner, game=data.get("game"), players=names,
                                 options=data.get("options") or {}, seed=data.get("seed"))
        rules = engine.get(session.game)
        state = session.state
        rows = []
        for step in engine.steps(rules, state, session.seed, entries, tolerant=True):
            entry = step.move
            if step.refusal is not None:
                raise Invalid(
                    _("This export is damaged: move %(seq)s is refused by the rules "
                      "(%(why)s)") % {"seq": entry["seq"], "why": step.refusal.message})
            summary = entry["summary"]
            if step.applied:
                summary = rules.summary({"type": entry["type"], "data": entry["data"]},
                                        step.before, step.after)
                state = step.after
            rows.append(Move(session=session, seq=entry["seq"], type=entry["type"],
                             data=entry["data"], seat=entry["seat"], actor_seat=entry["actor"],
                             summary=(summary or f"{entry['type']} (undone)")[:300],
                             undone=entry["undone"],
                             undone_at=timezone.now() if entry["undone"] else None))
        Move.objects.bulk_create(rows)
        session.state = state
        session.version = len(entries) + sum(1 for entry in entries if entry["undone"])
        _settle(session, rules)
        session.save()
    return session
