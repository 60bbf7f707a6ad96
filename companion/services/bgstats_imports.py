"""A BG Stats backup imported into a host's history: started by a page, the API or
manage.py import_bgstats, run by the background worker (companion.tasks) or by the command itself.

An import commits as it goes, a part at a time (IMPORT_PART_SECONDS), so that a backup of
thousands of plays holds no lock that a table's move would wait on (SQLite has one writer), and
so that its progress can be read. What each part wrote is committed with it (BackupImport.written):
an import that fails takes it all back, and one whose worker died is taken back by the next.
"""

import datetime
import logging
import time

from django.db import IntegrityError, connection, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from companion import bgstats, bgstats_backup
from companion.errors import Refused
from companion.models import BackupImport, Player, Session
from companion.scopes import roster_of
from companion.services.play_log import play_prepare, plays_write

logger = logging.getLogger(__name__)

# A part of an import is committed once it has taken this long, or holds this many plays.
IMPORT_PART_SECONDS = 0.1
IMPORT_PLAYS_CHUNK = 500
# SQLite has one writer, and a writer waiting for the database polls for it (sqlite3's busy
# handler) every 100 ms at most: between two parts an import leaves it free that long, else a
# table's move could wait for the whole import.
SQLITE_PAUSE_SECONDS = 0.1
# An import still running after this long without a part committed has lost its worker.
IMPORT_ABANDONED = datetime.timedelta(minutes=10)


def bgstats_import(*, owner, plays, progress=None):
    """Log the plays of a BG Stats backup (companion.bgstats.plan: [{"key", "label", "log":
    play_log's keywords}]). A play whose key this host already has is not logged again; a play
    play_log refuses is skipped with its sentence. After each committed part, `progress(done,
    total, written)` is called inside its transaction (written: {"sessions", "players"} so far).
    Anything unexpected takes back what was written, then is raised. Returns {"added": [(label,
    session id)], "already": [label], "skipped": [(label, why)], "new_players": [name],
    "unkept": {field: plays added without it}}."""
    summary = {"added": [], "already": [], "skipped": [], "new_players": [], "unkept": {}}
    written = {"sessions": [], "players": []}
    # This host's own plays, exported (bgstats.backup_of) and brought back, are theirs already.
    own = {bgstats.session_key(pk) for pk in Session.objects.filter(owner=owner, source_key="")
           .values_list("id", flat=True)}
    roster = set(roster_of(owner=owner).values_list("id", flat=True))
    found = {}  # the titles and players the plays name, looked up once for all of them
    done = 0
    try:
        while done < len(plays):
            with transaction.atomic():
                done = _import_part(owner=owner, plays=plays, start=done, own=own, found=found,
                                    summary=summary, written=written)
                written["players"] = sorted(
                    {player.pk for player in found.values()
                     if isinstance(player, Player) and player.pk not in roster})
                if progress is not None:
                    progress(done, len(plays), written)
            if connection.vendor == "sqlite":
                time.sleep(SQLITE_PAUSE_SECONDS)
    except BaseException:
        written_delete(owner=owner, written=written)
        raise
    summary["new_players"] = list(Player.objects.filter(pk__in=written["players"])
                                  .order_by("name").values_list("name", flat=True))
    return summary


def _import_part(*, owner, plays, start, own, found, summary, written):
    """Prepare plays from `start` until the part's time is up, write them together; the number
    of plays done then."""
    part = plays[start:start + IMPORT_PLAYS_CHUNK]
    # Read in the part's own transaction: another import of the same file may have committed.
    known = own | set(Session.objects.filter(owner=owner,
                                             source_key__in=[entry["key"] for entry in part])
                      .values_list("source_key", flat=True))
    until = time.monotonic() + IMPORT_PART_SECONDS
    ready, done = [], start
    for entry in part:
        done += 1
        if entry["key"] in known:
            summary["already"].append(entry["label"])
        else:
            try:
                ready.append((entry, play_prepare(owner=owner, known=found,
                                                  source_key=entry["key"], **entry["log"])))
            except Refused as refusal:
                summary["skipped"].append((entry["label"], refusal.message))
            else:
                known.add(entry["key"])
        if time.monotonic() > until:
            break
    for entry, session in _written(ready):
        if session is None:
            summary["already"].append(entry["label"])
            continue
        written["sessions"].append(session.pk)
        summary["added"].append((entry["label"], session.pk))
        for field in set(entry.get("unkept", ())):
            summary["unkept"][field] = summary["unkept"].get(field, 0) + 1
    return done


def _written(ready):
    """[(entry, its session, or None when another import of the same file wrote it first)]:
    the part's plays written together, or, when one of them clashes, one at a time."""
    try:
        with transaction.atomic():
            return list(zip([entry for entry, _play in ready],
                            plays_write(plays=[play for _entry, play in ready]), strict=True))
    except IntegrityError:
        pass
    written = []
    for entry, play in ready:
        try:
            with transaction.atomic():
                [session] = plays_write(plays=[play])
        except IntegrityError:
            session = None
        written.append((entry, session))
    return written


def written_delete(*, owner, written):
    """Take back what an import wrote: its sessions (their seats and results go with them) and
    the roster players it made."""
    with transaction.atomic():
        Session.objects.filter(owner=owner, pk__in=written.get("sessions") or []).delete()
        roster_of(owner=owner).filter(pk__in=written.get("players") or []).delete()


def bgstats_import_start(*, owner, backup, matches=None, queue=True, read=None):
    """An import of `backup` (the file's bytes) for `owner`, queued for the worker (or, with
    `queue` False, for the caller to run: manage.py import_bgstats); `matches` {backup player id:
    roster player id or None}, or None to match players to the roster by name; `read`: the
    backup as read_backup read it, when the caller has read it already. Invalid when the file is
    not a backup. The task is queued in the job's transaction: the worker finds it only
    once the job is there."""
    from companion.tasks import bgstats_import_task

    read = read or bgstats_backup.read_backup(backup)
    total = len(read["plays"]) + len(read["refused"])
    with transaction.atomic():
        job = BackupImport.objects.create(
            owner=owner, backup=backup, total=total, language=translation.get_language(),
            matches=None if matches is None else {str(pid): roster_id
                                                  for pid, roster_id in matches.items()})
        if queue:
            bgstats_import_task.enqueue(job.pk)
    return job


def bgstats_import_run(*, pk, progress=None):
    """Run a queued import (the worker's task, or manage.py import_bgstats in its own process).
    An import that fails ends "failed" with nothing of it kept."""
    imports_abandoned_undo()
    taken = BackupImport.objects.filter(pk=pk, status=BackupImport.Status.QUEUED) \
        .update(status=BackupImport.Status.RUNNING)
    if not taken:  # already run, or taken back
        return
    job = BackupImport.objects.select_related("owner").get(pk=pk)
    with translation.override(job.language):
        try:
            summary = _run(job, progress)
        except Exception:
            logger.exception("The BG Stats import %s failed; what it wrote is taken back.", pk)
            BackupImport.objects.filter(pk=pk).update(
                status=BackupImport.Status.FAILED, backup=b"", written={},
                summary={"error": _("The import stopped on an error of the server, and "
                                    "nothing of it was kept: try again later.")})
            return
    BackupImport.objects.filter(pk=pk).update(status=BackupImport.Status.DONE, backup=b"",
                                              summary=summary, done=job.total, written={})


def _run(job, progress):
    """The import of one job, committed a part at a time; its summary as the API gives it."""
    backup = bgstats_backup.read_backup(bytes(job.backup))
    roster = dict(roster_of(owner=job.owner).values_list("id", "name"))
    if job.matches is None:
        matches = bgstats.suggested_matches(backup, roster.items())
    else:  # JSON keeps the backup's player ids as text
        chosen = {int(pid): roster_id for pid, roster_id in job.matches.items()}
        matches = {row["id"]: chosen.get(row["id"]) if chosen.get(row["id"]) in roster else None
                   for row in bgstats.players_used(backup)}
    entries, skipped = bgstats.plan(backup, matches=matches, roster=roster)

    def committed(done, total, written):
        BackupImport.objects.filter(pk=job.pk).update(done=len(skipped) + done, written=written,
                                                      updated_at=timezone.now())
        if progress is not None:
            progress(len(skipped) + done, job.total)

    summary = bgstats_import(owner=job.owner, plays=entries, progress=committed)
    refused = skipped + summary["skipped"]
    return {"added": len(summary["added"]), "already": len(summary["already"]),
            "refused": [{"play": label, "why": why} for label, why in refused],
            "matched": sorted({roster[pid] for pid in matches.values() if pid is not None}),
            "new_players": summary["new_players"],
            "unkept": [{"field": field, "what": what, "plays": count}
                       for field, what, count in bgstats.unkept_words(summary["unkept"])]}


def imports_abandoned_undo():
    """Imports whose worker died (no part committed for IMPORT_ABANDONED) end "failed", with
    what they wrote taken back."""
    stale = BackupImport.objects.filter(status=BackupImport.Status.RUNNING,
                                        updated_at__lt=timezone.now() - IMPORT_ABANDONED)
    for job in stale:
        written_delete(owner=job.owner, written=job.written)
        BackupImport.objects.filter(pk=job.pk).update(
            status=BackupImport.Status.FAILED, backup=b"", written={},
            summary={"error": _("The import stopped when its server stopped, and nothing of it "
                                "was kept: import the file again.")})

