"""Moves: the one writer of a move (move_play), undo and redo."""

import hashlib
import json

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from companion import engine, plugins
from companion.authority import (
    move_authorize,
    move_seat,
    redo_authorize,
    session_seat_name,
    undo_authorize,
)
from companion.errors import (
    Conflict,
    KeyReused,
    NeedsConfirmation,
    Refused,
    Stale,
)
from companion.models import Move
from companion.services.sessions import session_announce, session_locked, session_settle


def _check_version(session, expected_version):
    if expected_version is not None and int(expected_version) != session.version:
        raise Stale(
            _("Someone at the table changed this: the session is at version %(now)s, not "
              "%(expected)s.") % {"now": session.version, "expected": expected_version},
            session=session,
        )


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
        session = session_locked(session)
        prior = move_prior(session=session, key=key, fingerprint=fingerprint)
        if prior is not None:
            prior.repeated = True
            return prior
        rules = plugins.rules_of(session.game)
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
            session=session, seq=seq, type=type, data=data, seat=move_seat(data, actor),
            actor_user=actor.user, actor_guest=actor.guest, actor_seat=actor.rules_actor,
            **move_line(rules, type, data, before, after),
            idempotency_key=key or None, request_hash=fingerprint, dice_of=dice_of,
        )
        session.state = after
        session.version += 1
        session.last_seq = seq
        session_settle(session, rules)
        session.save(update_fields=["state", "version", "last_seq", "status", "finished_at",
                                    "updated_at"])
        move.session = session
        move.repeated = False
        if key and answer is not None:
            move.reply = answer(move)
            Move.objects.filter(pk=move.pk).update(reply=move.reply)
        session_announce(session)
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
        session = session_locked(session)
        _check_version(session, expected_version)
        last = session.moves.filter(undone=False).order_by("-seq").first()
        if last is None:
            raise Conflict(_("There is nothing left to undo."))
        undo_authorize(session=session, move=last, actor=actor)
        last.undone = True
        last.undone_at = timezone.now()
        last.undone_by, last.undone_by_role = _said_actor(session=session, actor=actor)
        last.undone_by_host = actor.is_host
        last.save(update_fields=["undone", "undone_at", "undone_by", "undone_by_role",
                                 "undone_by_host"])
        rules = plugins.rules_of(session.game)
        session.state = session_replay(session=session, rules=rules)
        session.version += 1
        session_settle(session, rules)
        session.save(update_fields=["state", "version", "status", "finished_at", "updated_at"])
        session_announce(session)
    return session, last


def _said_actor(*, session, actor):
    """Who undoes or redoes, as Move.undone_by and undone_by_role (redone_by, redone_by_role)
    keep it: the seat's name, or the role (the host, a phone without a seat) that each reader's
    page says in its own language."""
    if actor.seat is not None:
        return session_seat_name(session, actor.seat)[:60], ""
    return "", "host" if actor.is_host else "phone"


def move_redo(*, session, actor, seq, expected_version=None, key=None, answer=None):
    """Play an undone move again, as a new move of `actor` (the rules and the authority check it
    as any move; what the host undid, only the host redoes): the Redo beside "Ben undid: ...".
    It rolls the dice and draws the cards the undone move did (the table has them in front of
    it), not new ones. The new move keeps who redid it, which every phone is told. `key` and
    `answer` as for move_play."""
    undone = session.moves.filter(seq=seq, undone=True).first()
    if undone is None:
        raise Conflict(_("That move is not undone: there is nothing to redo."))
    redo_authorize(move=undone, actor=actor)
    with transaction.atomic():
        move = move_play(session=session, type=undone.type, data=undone.data, actor=actor,
                         expected_version=expected_version, key=key, answer=answer,
                         dice_of=undone.dice_of or undone.seq)
        if not move.repeated:
            move.redone_by, move.redone_by_role = _said_actor(session=move.session, actor=actor)
            move.save(update_fields=["redone_by", "redone_by_role"])
    return move


def session_replay(*, session, rules=None, upto=None):
    """The state folded from the set-up over the active moves (up to seq `upto`)."""
    rules = rules or plugins.rules_of(session.game)
    moves = session.moves.filter(undone=False).order_by("seq")
    if upto is not None:
        moves = moves.filter(seq__lte=upto)
    names = list(session.seats.order_by("index").values_list("name", flat=True))
    return engine.replay(rules, names, session.options, session.seed,
                         [move.as_replay() for move in moves])
