"""Imports: a session from its export; a BG Stats backup waiting for its host to confirm it (the
import itself: services.bgstats_imports)."""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from companion import engine, inputs, plugins, stats
from companion.colours import HEXES
from companion.errors import (
    Invalid,
    Refused,
)
from companion.language import say
from companion.models import BackupUpload, Move, Session
from companion.payloads import move_payload
from companion.seeds import seed_unseal
from companion.services.moves import move_line
from companion.services.play_log import EARLIEST_PLAY, play_log
from companion.services.sessions import session_create, session_settle

IMPORT_MOVES_MAX = inputs.MAX_ITEMS


def _import_entry(move, *, rules, seat_count, owner):
    """One move of an export, checked field by field (an undone move too: its type must be one
    of the game's and its fields of the shape its serializer makes), as {"seq", "type", "data",
    ...}."""
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
        # The rules are handed what the move's serializer made of the fields, as for a move
        # posted at the table.
        fields = move_payload(game=rules.slug, move_type=move_type, fields=fields,
                              owner=owner.pk)
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
    moves, names, seed, started, ended = _export_checked(data)
    rules = plugins.rules_of(data.get("game"))
    rules.check_seat_count(len(names))  # before a move is read
    entries = sorted((_import_entry(move, rules=rules, seat_count=len(names), owner=owner)
                      for move in moves),
                     key=lambda entry: entry["seq"])
    if len({m["seq"] for m in entries}) != len(entries):
        raise Invalid(_("This export is damaged: two moves share a number."))
    with transaction.atomic():
        session = session_create(owner=owner, game=data.get("game"), players=names,
                                 options=data.get("options") or {}, seed=seed,
                                 location=data.get("location") or "")
        rules = plugins.rules_of(session.game)
        rows, state = _replayed(session, rules, entries)
        Move.objects.bulk_create(rows)
        session.last_seq = max((row.seq for row in rows), default=0)
        session.state = state
        session.version = len(entries) + sum(1 for entry in entries if entry["undone"])
        session_settle(session, rules, finished_at=ended)
        if started is not None:  # the session was inserted with now: saved with its start
            session.created_at = started
        session.save()
        _import_move_times(rows=rows, entries=entries)
    return session


def _export_checked(data):
    """(moves, seat names, seed, started, ended) of an export, or Invalid saying what is
    damaged."""
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
    if seed is None and data.get("sealed_seed") is not None:  # a game in play (seeds.py)
        seed = seed_unseal(data["sealed_seed"])
        if seed is None:
            raise Invalid(_("This game in play was exported by another Companion server, which "
                            "keeps its dice and cards secret until it is over: import it there, "
                            "or export it again once it is over."))
    if seed is None:
        raise Invalid(_("This export is damaged: its seed is missing (the dice and the cards "
                        "of its moves come from it)."))
    if not (isinstance(seed, str) and seed.isascii() and seed.isalnum()
            and len(seed) <= Session._meta.get_field("seed").max_length):
        raise Invalid(_("This export is damaged: its seed is not one Companion makes."))
    try:
        # Each seat with its colour, when the export has one of ours (else a default).
        names = [{"name": seat["name"], **({"colour": seat["colour"]}
                                           if seat.get("colour") in HEXES else {})}
                 for seat in sorted(seats, key=lambda seat: seat["index"])]
    except (KeyError, TypeError, AttributeError):
        raise Invalid(_("This export is damaged: a seat is missing its fields.")) from None
    # When it was played: history and statistics keep the day it was played, not the import's.
    started = _export_time(data.get("created_at"), what=_("its start"))
    ended = _export_time(data.get("finished_at"), what=_("its end"))
    if started and ended and ended < started:
        raise Invalid(_("This export is damaged: it ends before it starts."))
    return moves, names, seed, started, ended


def _replayed(session, rules, entries):
    """The export's moves replayed through the rules from the new session's set-up: the Move
    rows to write and the state they make; Invalid for a move the rules refuse."""
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
    return rows, state


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


# An uploaded backup waits this long for its host to confirm who is who, and an account keeps
# this many waiting (a newer upload lets the oldest go): a few tries, not a store of files.
UPLOAD_WAITS = datetime.timedelta(hours=1)
UPLOADS_KEPT = 3


def backup_upload_keep(*, owner, backup):
    """Keep an uploaded backup (bytes, read and checked already) until its host confirms it;
    its id. Uploads past their hour, and those beyond the newest UPLOADS_KEPT, go."""
    with transaction.atomic():
        BackupUpload.objects.filter(created_at__lt=timezone.now() - UPLOAD_WAITS).delete()
        upload = BackupUpload.objects.create(owner=owner, backup=backup)
        kept = BackupUpload.objects.filter(owner=owner).order_by("-created_at", "-id")
        BackupUpload.objects.filter(
            pk__in=list(kept.values_list("id", flat=True)[UPLOADS_KEPT:])).delete()
    return upload.pk


def backup_upload_get(*, owner, pk):
    """The bytes of an upload of `owner` still waiting, or None."""
    backup = BackupUpload.objects.filter(
        owner=owner, pk=pk, created_at__gte=timezone.now() - UPLOAD_WAITS,
    ).values_list("backup", flat=True).first()
    return None if backup is None else bytes(backup)  # PostgreSQL gives a memoryview


def backup_upload_delete(*, owner, pk):
    BackupUpload.objects.filter(owner=owner, pk=pk).delete()
