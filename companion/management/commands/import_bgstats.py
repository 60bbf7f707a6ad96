"""manage.py import_bgstats FILE --host NAME: a BG Stats backup into a host's history, the same
import as the page and the API (services.bgstats_import_run), run here rather than by the
worker, players matched to the roster by name (any case), with a progress bar on stderr."""

import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from companion import bgstats_backup, services
from companion.errors import Refused
from companion.models import BackupImport

BAR = 40


class Progress:
    """A plain text bar, redrawn in place at most ten times a second."""

    def __init__(self, stream):
        self.stream, self.shown = stream, 0.0  # a command's OutputWrapper

    def __call__(self, done, total):
        now = time.monotonic()
        if done < total and now - self.shown < 0.1:
            return
        self.shown = now
        filled = BAR * done // total if total else BAR
        counted = ngettext("%(done)s/%(total)s play", "%(done)s/%(total)s plays", total) % {
            "done": done, "total": total}
        self.stream.write(f"\r[{'#' * filled}{'.' * (BAR - filled)}] {counted}",
                          ending="\n" if done >= total else "")
        self.stream.flush()


class Command(BaseCommand):
    help = "Import a BG Stats backup (JSON) into a host's history."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file BG Stats exported")
        parser.add_argument("--host", required=True, help="the host's user name")
        parser.add_argument("--quiet-progress", action="store_true", help="no progress bar")

    def handle(self, *args, file, host, quiet_progress=False, **options):
        user = get_user_model().objects.filter(username__iexact=host).first()
        if user is None:
            raise CommandError(_("There is no host called %(name)s.") % {"name": host})
        try:
            with open(file, "rb") as handle:
                raw = handle.read(bgstats_backup.BACKUP_MAX_BYTES + 1)
        except OSError as error:
            raise CommandError(_("The file cannot be read: %(why)s.") % {"why": error.strerror}) \
                from None
        try:
            job = services.bgstats_import_start(owner=user, backup=raw, queue=False)
        except Refused as refusal:
            raise CommandError(refusal.message) from None
        started = time.monotonic()
        services.bgstats_import_run(pk=job.pk,
                                    progress=None if quiet_progress else Progress(self.stderr))
        seconds = time.monotonic() - started
        job.refresh_from_db()
        summary = job.summary
        if job.status != BackupImport.Status.DONE:
            raise CommandError(summary.get("error", ""))
        out = self.stdout
        figures = {"added": summary["added"], "already": summary["already"],
                   "skipped": len(summary["refused"]), "seconds": f"{seconds:.1f}"}
        out.write(ngettext("%(added)s play added", "%(added)s plays added", figures["added"])
                  % figures + ", "
                  + ngettext("%(already)s imported before (not added again)",
                             "%(already)s imported before (not added again)",
                             figures["already"]) % figures + ", "
                  + ngettext("%(skipped)s skipped, in %(seconds)s s.",
                             "%(skipped)s skipped, in %(seconds)s s.", figures["skipped"])
                  % figures)
        matched = summary["matched"]
        names = {"count": len(matched), "names": ", ".join(matched)}
        out.write((ngettext("%(count)s player matched to the roster: %(names)s.",
                            "%(count)s players matched to the roster: %(names)s.", len(matched))
                   if matched else _("No player matched to the roster.")) % names)
        new = {"count": len(summary["new_players"]), "names": ", ".join(summary["new_players"])}
        out.write((ngettext("%(count)s new player: %(names)s.", "%(count)s new players: %(names)s.",
                            new["count"]) if new["count"] else _("No new players.")) % new)
        for refused in summary["refused"]:
            out.write(_("Skipped %(play)s: %(why)s") % refused)
        for unkept in summary["unkept"]:
            out.write(ngettext("Imported without %(what)s: %(count)s play.",
                               "Imported without %(what)s: %(count)s plays.", unkept["plays"])
                      % {"what": unkept["what"], "count": unkept["plays"]})
